/**
 * The optional DBBench second pass (protocol.md §2.8; WebShop and ALFWorld: `trace-revision-context.ts`): after a patch was installed and the batch rerun,
 * the engineer gets the same prompt plus a "Second-pass revision context" section after the evidence,
 * with the previous result, the flipped tasks, its previous output and patch, and traces of the rerun.
 * Traces are rendered from the patched episodes' messages and outcomes only, like the evidence.
 */
import type { EpisodeRecord } from '../../../episode/index.js';
import { isInfraOutcome } from '../../../episode/index.js';
import { DBBENCH_SANITIZE_MODE } from './dbbench-evidence.js';
import { renderDbBenchTrace } from './dbbench-trace.js';
import { toEpisodeEvidence } from '../../../engineer/episode-evidence.js';
import { DBBENCH_EVIDENCE_LIMITS } from './dbbench-evidence-limits.js';
import { clipMiddle } from '../../../engineer/packet-text.js';
import { DBBENCH_TEMPLATES } from './prompt-templates.js';
import type { PreviousAttempt } from '../../../engineer/previous-attempt.js';

export interface RevisionLimits {
  maxOutputChars: number;
  maxPatchChars: number;
  maxRegressionTraces: number;
  maxImprovementTraces: number;
  maxMessagesPerTrace: number;
}

export const REVISION_LIMITS: Readonly<RevisionLimits> = Object.freeze({
  maxOutputChars: 10000,
  maxPatchChars: 10000,
  maxRegressionTraces: 6,
  maxImprovementTraces: 2,
  maxMessagesPerTrace: 34,
});

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

function renderResult(result: PreviousAttempt['result']): string {
  const lines = [
    `- baseline pass: ${result.baselinePass}/${result.tasks}`,
    `- patched pass: ${result.patchedPass}/${result.tasks} (${signed(result.patchedPass - result.baselinePass)} tasks)`,
  ];
  if (result.delta !== undefined) lines.push(`- mean reward delta: ${result.delta > 0 ? '+' : ''}${result.delta.toFixed(4)}`);
  if (result.status !== undefined) lines.push(`- status: ${result.status}`);
  return lines.join('\n');
}

function indexList(indices: readonly number[]): string {
  return indices.length === 0 ? 'none' : [...new Set(indices)].sort((a, b) => a - b).join(', ');
}

function patchText(patch: unknown): string {
  if (typeof patch === 'string') return patch.trim();
  return JSON.stringify(patch, null, 2) ?? 'null';
}

function renderTraces(records: readonly EpisodeRecord[] | undefined, max: number, limits: RevisionLimits): string {
  const scored = [...(records ?? [])].filter((r) => !isInfraOutcome(r.outcome)).sort((a, b) => a.task.index - b.task.index);
  if (scored.length === 0) return '(none)';
  const traceLimits = {
    maxMessages: limits.maxMessagesPerTrace,
    maxToolResultChars: DBBENCH_EVIDENCE_LIMITS.maxToolResultChars,
    maxAssistantChars: DBBENCH_EVIDENCE_LIMITS.maxAssistantChars,
    maxUserChars: DBBENCH_EVIDENCE_LIMITS.maxUserChars,
    maxToolArgsChars: DBBENCH_EVIDENCE_LIMITS.maxToolArgsChars,
    maxCallsPerMessage: DBBENCH_EVIDENCE_LIMITS.maxCallsPerMessage,
  };
  const shown = scored.slice(0, max).map((r) => renderDbBenchTrace(toEpisodeEvidence(r), traceLimits, DBBENCH_SANITIZE_MODE));
  if (scored.length > max) shown.push(`...[${scored.length - max} more not shown]`);
  return shown.join('\n\n');
}

/** The "Second-pass revision context" section, appended after the evidence of the user message. */
export function buildRevisionContext(previous: PreviousAttempt, overrides: Partial<RevisionLimits> = {}): string {
  const limits = { ...REVISION_LIMITS, ...overrides };
  return DBBENCH_TEMPLATES.render('dbbench-revision.v1.md', {
    previous_result: renderResult(previous.result),
    flips: `- correct → wrong: ${indexList(previous.flips.correctToWrong)}\n- wrong → correct: ${indexList(previous.flips.wrongToCorrect)}`,
    previous_output: clipMiddle(previous.rawOutput.trim(), limits.maxOutputChars) || '(empty)',
    previous_patch: clipMiddle(patchText(previous.patch), limits.maxPatchChars),
    regression_traces: renderTraces(previous.regressions, limits.maxRegressionTraces, limits),
    improvement_traces: renderTraces(previous.improvements, limits.maxImprovementTraces, limits),
  });
}
