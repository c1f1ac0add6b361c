/**
 * The second-pass revision context of the trace benchmarks, the counterpart of the SQL benchmark's
 * `revision-context.ts` (protocol.md §2.8): once the first patch was installed and the batch rerun, the
 * engineer gets its first-pass prompt again plus a section (`trace-revision.v1.md`) with that patch, the
 * batch's result under it, the tasks that flipped, and traces of the patched run.
 *
 * What it never shows:
 * - task indices: a task is named by its 1-based position in the batch (the batch's task indices, sorted);
 * - `detail` (grader verdicts, purchased products, goal attributes), `steps` and `hookTrace`: traces go
 *   through `toEpisodeEvidence` and the failure packet's own `renderTraceSection`, so they get the same
 *   sanitizer (paths, product ids) and, where the benchmark masks instances, the same per-trace masking;
 * - the previous raw output: only the validated patch JSON is shown, with paths and product ids masked.
 *
 * Traces: regressed episodes first (by position), then episodes that still fail (lowest reward first,
 * then position); infrastructure failures and empty episodes are left out. At most `maxTraces` are shown,
 * added while the trace part stays within `maxTraceChars` (including its "more not shown" line); the first
 * one is always shown, cut in the middle when it alone is over the budget.
 */
import { isInfraOutcome, type EpisodeRecord } from '../episode/index.js';
import { byRewardThenIndex, toEpisodeEvidence, type EpisodeEvidence } from './episode-evidence.js';
import { clipMiddle } from './packet-text.js';
import { ENGINE_TEMPLATES } from './prompt-templates.js';
import type { PreviousAttempt } from './previous-attempt.js';
import { sanitizeEvidenceText } from './sanitize-evidence.js';
import { renderTraceSection, TRACE_PACKET_SANITIZE_MODE, type TracePacketLimits, type TraceStyle } from './trace-packet.js';

export const TRACE_REVISION_TEMPLATE = 'trace-revision.v1.md' as const;

export interface TraceRevisionLimits {
  /** Patched-run traces shown at most. */
  maxTraces: number;
  /** Characters of the whole trace part (sections, separators and the "more not shown" line). */
  maxTraceChars: number;
  /** Characters of the previous patch JSON; cut in the middle beyond. */
  maxPatchChars: number;
}

export const TRACE_REVISION_LIMITS: Readonly<TraceRevisionLimits> = Object.freeze({
  maxTraces: 4,
  maxTraceChars: 24000,
  maxPatchChars: 10000,
});

export interface TraceRevisionContext {
  text: string;
  /** Traces shown, and the scored failing episodes of the patched run they were chosen from. */
  traces: { shown: number; candidates: number };
}

export interface TraceRevisionOptions {
  /** The batch's task indices: positions (1-based, in sorted order) name tasks in the text. */
  taskIndices: readonly number[];
  /** Each trace is cut like the benchmark's failure packet (its observation and assistant budgets). */
  sectionLimits: TracePacketLimits;
  limits?: Partial<TraceRevisionLimits>;
}

/** Task index → 1-based position in the batch (sorted, deduplicated). */
export function batchPositions(taskIndices: readonly number[]): Map<number, number> {
  return new Map([...new Set(taskIndices)].sort((a, b) => a - b).map((index, i) => [index, i + 1]));
}

function signed(n: number, digits?: number): string {
  const text = digits === undefined ? String(n) : n.toFixed(digits);
  return n > 0 ? `+${text}` : text;
}

function renderResult(result: PreviousAttempt['result']): string {
  const lines: string[] = [];
  if (result.status !== undefined) lines.push(`- status: ${result.status}`);
  lines.push(
    `- scored tasks: ${result.tasks}`,
    `- passes: baseline ${result.baselinePass}/${result.tasks}, patched ${result.patchedPass}/${result.tasks} (${signed(result.patchedPass - result.baselinePass)})`,
  );
  if (result.baselineMean !== undefined && result.patchedMean !== undefined) {
    const delta = result.delta ?? result.patchedMean - result.baselineMean;
    lines.push(`- mean reward: baseline ${result.baselineMean.toFixed(4)}, patched ${result.patchedMean.toFixed(4)} (${signed(delta, 4)})`);
  } else if (result.delta !== undefined) {
    lines.push(`- mean reward delta: ${signed(result.delta, 4)}`);
  }
  return lines.join('\n');
}

function positionList(indices: readonly number[], positions: ReadonlyMap<number, number>): string {
  const shown = [...new Set(indices.flatMap((i) => (positions.has(i) ? [positions.get(i)!] : [])))].sort((a, b) => a - b);
  return shown.length === 0 ? 'none' : shown.join(', ');
}

function patchText(patch: unknown): string {
  const text = typeof patch === 'string' ? patch.trim() : (JSON.stringify(patch, null, 2) ?? 'null');
  return sanitizeEvidenceText(text, TRACE_PACKET_SANITIZE_MODE);
}

type Kind = 'regressed' | 'still_failing';

const KIND_LABELS: { readonly [K in Kind]: string } = {
  regressed: 'passed without the patch, fails with it',
  still_failing: 'failed without the patch, still fails with it',
};

/** Scored episodes of the batch with messages, one per task (the last one given wins). */
function usable(records: readonly EpisodeRecord[] | undefined, positions: ReadonlyMap<number, number>): EpisodeEvidence[] {
  const byIndex = new Map<number, EpisodeEvidence>();
  for (const r of records ?? []) {
    if (isInfraOutcome(r.outcome) || !positions.has(r.task.index) || r.messages.length === 0) continue;
    byIndex.set(r.task.index, toEpisodeEvidence(r));
  }
  return [...byIndex.values()];
}

function renderTraces(style: TraceStyle, sectionLimits: TracePacketLimits, previous: PreviousAttempt, positions: ReadonlyMap<number, number>, limits: TraceRevisionLimits): { text: string; shown: number; candidates: number } {
  const regressed = usable(previous.regressions, positions).sort((a, b) => a.index - b.index);
  const taken = new Set(regressed.map((e) => e.index));
  const still = usable(previous.stillFailing, positions)
    .filter((e) => !taken.has(e.index))
    .sort(byRewardThenIndex);
  const candidates: Array<[EpisodeEvidence, Kind]> = [...regressed.map((e): [EpisodeEvidence, Kind] => [e, 'regressed']), ...still.map((e): [EpisodeEvidence, Kind] => [e, 'still_failing'])];
  if (candidates.length === 0) return { text: '(none: no scored episode of the patched run failed)', shown: 0, candidates: 0 };

  const sections = candidates.slice(0, Math.max(1, limits.maxTraces)).map(([episode, kind], i) =>
    renderTraceSection(style, episode, i + 1, sectionLimits).replace(
      /^## Failure trace \d+/,
      `## Patched-run trace ${i + 1}: task ${positions.get(episode.index)} of the batch (${KIND_LABELS[kind]})`,
    ),
  );
  const more = (count: number): string => (candidates.length > count ? `...[${candidates.length - count} more patched-run trace(s) not shown]` : '');
  const join = (parts: readonly string[], count: number): string => [...parts, more(count)].filter((p) => p !== '').join('\n\n');
  let count = 0;
  for (let next = 1; next <= sections.length; next++) {
    if (join(sections.slice(0, next), next).length > limits.maxTraceChars) break;
    count = next;
  }
  if (count === 0) {
    // The first trace alone is over the budget: it is shown cut in the middle.
    const tail = more(1);
    const room = Math.max(0, limits.maxTraceChars - (tail === '' ? 0 : tail.length + 2));
    return { text: join([clipMiddle(sections[0]!, room)], 1), shown: 1, candidates: candidates.length };
  }
  return { text: join(sections.slice(0, count), count), shown: count, candidates: candidates.length };
}

/** The trace benchmarks' "Second-pass revision context" section, with what it shows. */
export function renderTraceRevisionContext(style: TraceStyle, previous: PreviousAttempt, options: TraceRevisionOptions): TraceRevisionContext {
  const limits = { ...TRACE_REVISION_LIMITS, ...options.limits };
  const positions = batchPositions(options.taskIndices);
  const traces = renderTraces(style, options.sectionLimits, previous, positions, limits);
  const text = ENGINE_TEMPLATES.render(TRACE_REVISION_TEMPLATE, {
    bench_name: style.name,
    previous_result: renderResult(previous.result),
    flips: [
      `- regressed (passed without the patch, fail with it): ${positionList(previous.flips.correctToWrong, positions)}`,
      `- rescued (failed without the patch, pass with it): ${positionList(previous.flips.wrongToCorrect, positions)}`,
    ].join('\n'),
    previous_patch: clipMiddle(patchText(previous.patch), limits.maxPatchChars),
    traces: traces.text,
  });
  return { text, traces: { shown: traces.shown, candidates: traces.candidates } };
}

/** The section text only; appended after the evidence of the user message. */
export function buildTraceRevisionContext(style: TraceStyle, previous: PreviousAttempt, options: TraceRevisionOptions): string {
  return renderTraceRevisionContext(style, previous, options).text;
}
