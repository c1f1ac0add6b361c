/**
 * The DBBench failure evidence (protocol.md §2.4 "DBBench", §2.5): a header, an "Existing Batch Overview"
 * and the "Failure Traces". The original pasted a debugger's `overview.md` into the overview section;
 * there is no debugger here, so the overview is a deterministic heuristic summary of the batch computed
 * from the messages and outcomes (task range, failing indices and rewards, outcome counts, signals).
 */
import { AGENT_OUTCOMES } from '../../../episode/index.js';
import { dbBenchTraceSignals, renderDbBenchTrace, type DbBenchTraceSignals } from './dbbench-trace.js';
import { byRewardThenIndex, countExcluded, noFailureTraceLine, type BatchSelection, type EpisodeEvidence } from '../../../engineer/episode-evidence.js';
import type { DbBenchEvidenceLimits } from './dbbench-evidence-limits.js';
import { clipHead, formatReward } from '../../../engineer/packet-text.js';
import type { SanitizeMode } from '../../../engineer/sanitize-evidence.js';

export const DBBENCH_EVIDENCE_FORMAT = 'dbbench-evidence-v1';
export const EVIDENCE_TRUNCATED_MARK = '\n...[evidence truncated]';
export const OVERVIEW_HEADING = '## Existing Batch Overview';
export const TRACES_HEADING = '## Failure Traces';
/** DBBench cell values may look like product ids; only local paths are masked (the original masks nothing). */
export const DBBENCH_SANITIZE_MODE: SanitizeMode = 'paths';

export interface RenderedEvidence {
  text: string;
  /** Failure traces whose header made it into the text. */
  included: number;
  truncated: boolean;
}

/** `start:end` as the original prints a batch: `end` is the largest index + 1. */
function sliceOf(indices: readonly number[]): string {
  const first = indices[0];
  const last = indices.at(-1);
  return first === undefined || last === undefined ? '(empty)' : `${first}:${last + 1}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function excludedText(selection: BatchSelection): string {
  return countExcluded(selection.excluded)
    .map(([outcome, n]) => `${outcome} ${n}`)
    .join(', ');
}

function renderHeader(selection: BatchSelection, shown: number): string {
  const { scored, passed, failures, excluded, missing, taskIndices } = selection;
  const lines = [
    `# DBBench no-harness evidence for ${selection.batchTag}`,
    '',
    `- tasks in batch: ${taskIndices.length} (split ${selection.split}, source slice ${sliceOf(taskIndices)})`,
    `- baseline pass: ${passed.length}/${scored.length} (pass means reward >= ${formatReward(selection.passThreshold)})`,
  ];
  if (excluded.length > 0) {
    lines.push(
      `- infrastructure failures excluded: ${excluded.length} (${excludedText(selection)}); they say nothing about the agent and are not counted or shown`,
    );
  }
  if (missing.length > 0) lines.push(`- tasks without an episode: ${missing.length}`);
  lines.push(`- failures: ${failures.length}; traces included: ${shown} (lowest reward first, then task index)`);
  return lines.join('\n');
}

const SIGNALS: Array<{ label: string; test: (s: DbBenchTraceSignals, e: EpisodeEvidence) => boolean }> = [
  { label: 'committed before running any SQL', test: (s) => s.commitBeforeSql },
  { label: 'got SQL error results', test: (s) => s.sqlErrors > 0 },
  { label: 'sent the same SQL twice in a row', test: (s) => s.backToBackRepeats > 0 },
  { label: 'committed an empty answer list', test: (s) => s.emptyCommit },
  { label: 'had turns without a tool call', test: (s) => s.textOnlyTurns > 0 },
  { label: 'reached the round limit without committing', test: (s, e) => e.outcome === 'round_limit' && s.commits === 0 },
];

function summarize(episode: EpisodeEvidence, s: DbBenchTraceSignals): string {
  const parts = [`${plural(s.sqlCalls, 'SQL call')}`];
  if (s.sqlErrors > 0) parts.push(plural(s.sqlErrors, 'error result'));
  if (s.backToBackRepeats > 0) parts.push(`${plural(s.backToBackRepeats, 'back-to-back repeat')}`);
  if (s.textOnlyTurns > 0) parts.push(plural(s.textOnlyTurns, 'turn') + ' without a tool call');
  if (s.commits === 0) parts.push('no commit');
  else if (s.commitBeforeSql) parts.push('commit before any SQL');
  if (s.emptyCommit) parts.push('empty commit');
  return `  - index=${episode.index} ${episode.outcome} reward=${formatReward(episode.reward)} rounds=${episode.rounds}: ${parts.join(', ')}`;
}

/** The heuristic overview body (without its heading). */
export function renderDbBenchOverview(selection: BatchSelection): string {
  const { scored, failures, excluded, missing, taskIndices } = selection;
  const outcomeCounts = AGENT_OUTCOMES.map((o) => [o, scored.filter((e) => e.outcome === o).length] as const)
    .filter(([, n]) => n > 0)
    .map(([o, n]) => `${o} ${n}`)
    .join(', ');
  const lines = [
    'Heuristic overview computed deterministically from the rollout messages and outcomes (no debugger model read these traces).',
    `- task range: ${sliceOf(taskIndices)} of split ${selection.split}, ${plural(taskIndices.length, 'task')} (${scored.length} scored, ${excluded.length} excluded as infrastructure failures, ${missing.length} missing)`,
    `- outcomes: ${outcomeCounts === '' ? 'none' : outcomeCounts}${excluded.length > 0 ? `; excluded: ${excludedText(selection)}` : ''}`,
  ];
  if (failures.length === 0) {
    lines.push('- failing tasks: none');
    return lines.join('\n');
  }
  const ordered = [...failures].sort((a, b) => a.index - b.index);
  lines.push(`- failing tasks (index=reward): ${ordered.map((e) => `${e.index}=${formatReward(e.reward)}`).join(', ')}`);
  const signals = new Map(ordered.map((e) => [e.index, dbBenchTraceSignals(e)]));
  const recurring: string[] = [];
  for (const { label, test } of SIGNALS) {
    const hits = ordered.filter((e) => test(signals.get(e.index) as DbBenchTraceSignals, e)).map((e) => e.index);
    if (hits.length > 0) recurring.push(`  - ${label}: ${hits.length} of ${ordered.length} (${hits.join(', ')})`);
  }
  lines.push('- recurring signals in failing tasks:', ...(recurring.length > 0 ? recurring : ['  - none found by the heuristics']));
  lines.push('- failing task summaries:', ...ordered.map((e) => summarize(e, signals.get(e.index) as DbBenchTraceSignals)));
  return lines.join('\n');
}

/** Renders the whole DBBench evidence text within `limits`. */
export function renderDbBenchEvidence(selection: BatchSelection, limits: DbBenchEvidenceLimits, sanitize: SanitizeMode = DBBENCH_SANITIZE_MODE): RenderedEvidence {
  const chosen = [...selection.failures].sort(byRewardThenIndex).slice(0, Math.max(0, limits.maxFailures));
  const traceLimits = {
    maxMessages: limits.maxMessagesPerTrace,
    maxToolResultChars: limits.maxToolResultChars,
    maxAssistantChars: limits.maxAssistantChars,
    maxUserChars: limits.maxUserChars,
    maxToolArgsChars: limits.maxToolArgsChars,
    maxCallsPerMessage: limits.maxCallsPerMessage,
  };
  const traces = chosen.map((e) => renderDbBenchTrace(e, traceLimits, sanitize));
  const sections = [
    renderHeader(selection, chosen.length),
    OVERVIEW_HEADING,
    clipHead(renderDbBenchOverview(selection), limits.maxOverviewChars),
    TRACES_HEADING,
    ...(traces.length > 0 ? traces : [noFailureTraceLine(selection)]),
  ];
  const full = sections.join('\n\n');
  const text = clipHead(full, limits.maxEvidenceChars, EVIDENCE_TRUNCATED_MARK);
  const truncated = text !== full;
  let included = 0;
  const kept = truncated ? text.slice(0, text.length - EVIDENCE_TRUNCATED_MARK.length) : text;
  for (const trace of traces) {
    const header = trace.slice(0, trace.indexOf('\n') < 0 ? trace.length : trace.indexOf('\n'));
    if (kept.includes(`\n${header}`)) included++;
  }
  return { text, included, truncated };
}
