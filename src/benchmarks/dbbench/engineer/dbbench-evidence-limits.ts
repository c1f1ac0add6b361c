/**
 * Size budgets of the DBBench failure evidence (protocol.md §2.5). They are part of what an engineer is
 * trained on: change them only together with the prompt version.
 */

/** DBBench evidence (`make_record` of the original's DBBench evaluator). Lengths are in characters. */
export type DbBenchEvidenceLimits = {
  /** Failure traces shown, lowest reward first, then task index. */
  maxFailures: number;
  /** Messages rendered per trace (system messages do not count); then `...[trace truncated]`. */
  maxMessagesPerTrace: number;
  maxToolResultChars: number;
  maxAssistantChars: number;
  maxUserChars: number;
  /** Tool-call arguments, whitespace collapsed first. */
  maxToolArgsChars: number;
  /** Tool calls shown per assistant message. */
  maxCallsPerMessage: number;
  /** The "Existing Batch Overview" section body. */
  maxOverviewChars: number;
  /** The whole evidence text; then `...[evidence truncated]`. */
  maxEvidenceChars: number;
};

export const DBBENCH_EVIDENCE_LIMITS: Readonly<DbBenchEvidenceLimits> = Object.freeze({
  maxFailures: 4,
  maxMessagesPerTrace: 22,
  maxToolResultChars: 1200,
  maxAssistantChars: 500,
  maxUserChars: 900,
  maxToolArgsChars: 600,
  maxCallsPerMessage: 2,
  maxOverviewChars: 3000,
  maxEvidenceChars: 26000,
});
