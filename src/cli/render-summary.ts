import Table from 'cli-table3';

import type { EpisodeRecord } from '../episode/index.js';
import { hasModelTurnFindings, summarizeModelTurns, type ModelTurnHealth } from '../evaluation/model-turn-health.js';
import { familyOf, summarizeFamilies } from '../evaluation/summarize-families.js';
import type { RunSummary } from '../evaluation/summarize-run.js';
import { tableStyle } from './colour.js';

/** Rows of the per-task table a run prints unless asked for all of them (`--tasks-table`). */
export const SHORT_TASK_TABLE_ROWS = 20;

/**
 * The per-task table and totals printed at the end of a run. The table is shortened to
 * SHORT_TASK_TABLE_ROWS rows, the tasks that did not succeed first, unless `fullTable`: the totals stay on
 * screen after a run of hundreds of tasks.
 */
export function renderRunSummary(records: readonly EpisodeRecord[], summary: RunSummary, targetLabel: string, options: { fullTable?: boolean } = {}): string {
  const table = new Table({ head: ['task', 'type', 'outcome', 'reward', 'rounds', 'actions', 'hook effects'], style: tableStyle() });
  const shown = options.fullTable ? records : shortList(records);
  for (const r of shown) {
    const effects = r.hookTrace.filter((t) => t.disposition === 'applied').length;
    table.push([r.task.index, familyOf(r), r.outcome, round(r.reward), r.rounds, r.steps.filter((s) => s.status === 'executed').length, effects]);
  }
  const familyTable = new Table({ head: ['type / family', 'success', 'rate', 'mean reward'], style: tableStyle() });
  for (const f of summarizeFamilies(records)) familyTable.push([f.family || '-', `${f.successes}/${f.scored}`, `${(f.successRate * 100).toFixed(1)}%`, f.meanReward.toFixed(3)]);
  const outcomes = Object.entries(summary.byOutcome)
    .filter(([, n]) => n > 0)
    .map(([o, n]) => `${o} ${n}`)
    .join(', ');
  const lines = [
    table.toString(),
    ...(shown.length < records.length ? [`(${shown.length} of ${records.length} tasks shown, those that did not succeed first; --tasks-table lists all, --json gives every record's outcome)`] : []),
    familyTable.toString(),
    `target: ${targetLabel}`,
    `success: ${summary.successes}/${summary.scored} (${(summary.successRate * 100).toFixed(1)}%), mean reward ${summary.meanReward.toFixed(3)}`,
    `outcomes: ${outcomes || 'none'}`,
  ];
  if (summary.infraFailures > 0) {
    lines.push(`infrastructure failures: ${summary.infraFailures} episode(s) excluded from the success rate (see their detail.error)`);
  }
  if (summary.goldUnreproducible > 0) {
    lines.push(
      `unreproducible gold: ${summary.goldUnreproducible} episode(s) on tasks whose gold answer does not pass their own check (detail.goldUnreproducible); scored as the benchmark scores them, so no answer can pass them`,
    );
  }
  const effects = Object.entries(summary.hookEffects);
  if (effects.length > 0 || summary.hookFaults > 0) {
    lines.push(`hooks: ${effects.map(([k, n]) => `${k} ×${n}`).join(', ') || 'no effects'}; faults ${summary.hookFaults}`);
  }
  lines.push(...renderModelTurnHealth(summarizeModelTurns(records)));
  return lines.join('\n');
}

/**
 * The silent-zero alarm for a summary: the turn counts when any is above zero, then one WARNING block per
 * symptom with what to fix. Nothing at all for a healthy run.
 */
export function renderModelTurnHealth(health: ModelTurnHealth): string[] {
  if (!hasModelTurnFindings(health)) return [];
  const capped = Object.entries(health.limits).filter(([, n]) => n > 0);
  const lines = [
    `model turns: ${health.turns} (tool calls as text ${health.textToolCalls}, empty ${health.emptyTurns}, unparseable tool arguments ${health.badToolArguments}; caps hit: ${capped.map(([k, n]) => `${k} ×${n}`).join(', ') || 'none'})`,
  ];
  for (const warning of health.warnings) {
    lines.push(`WARNING: ${warning.message}`);
    if (warning.fixes.length > 0) lines.push('  What to fix:', ...warning.fixes.map((fix) => `  - ${fix}`));
  }
  return lines;
}


/** At most SHORT_TASK_TABLE_ROWS records, the unsuccessful ones first, each group in task order. */
function shortList(records: readonly EpisodeRecord[]): readonly EpisodeRecord[] {
  if (records.length <= SHORT_TASK_TABLE_ROWS) return records;
  const failed = records.filter((r) => r.outcome !== 'success');
  const passed = records.filter((r) => r.outcome === 'success');
  return [...failed, ...passed].slice(0, SHORT_TASK_TABLE_ROWS);
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
