/**
 * Size budgets of the failure packets (protocol.md §2.5), one set per benchmark. They are part of what an
 * engineer is trained on: change them only together with the prompt version.
 */

/** DBBench evidence (`make_record` of the original's DBBench evaluator). Lengths are in characters. */
export interface DbBenchEvidenceLimits {
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
}

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

/**
 * The markdown trace packet of WebShop and ALFWorld (`harness_r1_trace_packet.py`). Recorded here so the
 * budgets are known; the renderer itself is not implemented yet (see `failure-packet.ts`).
 */
export interface TracePacketLimits {
  maxTraces: number;
  maxObservationChars: number;
  maxAssistantChars: number;
  /** Characters / 4. The first trace is always included. */
  maxApproxTokens: number;
}

export const WEBSHOP_PACKET_LIMITS: Readonly<TracePacketLimits> = Object.freeze({
  maxTraces: 20,
  maxObservationChars: 1200,
  maxAssistantChars: 600,
  maxApproxTokens: 18000,
});

export const ALFWORLD_PACKET_LIMITS: Readonly<TracePacketLimits> = Object.freeze({
  maxTraces: 20,
  maxObservationChars: 350,
  maxAssistantChars: 200,
  maxApproxTokens: 12000,
});

export interface PacketLimitsByBench {
  dbbench: DbBenchEvidenceLimits;
  webshop: TracePacketLimits;
  alfworld: TracePacketLimits;
}
