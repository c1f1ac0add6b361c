import { formatPairedSummary } from '../../statistics/index.js';
import { resultLabel } from '../heldout/render-heldout.js';
import { formatExperimentCost } from '../shared/experiment-cost.js';
import { alignTable, signedPp } from '../transfer/render-transfer.js';
import type { MainArtifact, MainBenchCell, MainRow } from './main-summary.js';

interface Column {
  heading: string;
  value(cell: MainBenchCell): number | undefined;
}

function columnsOf(a: MainArtifact): { bench: string; column: Column }[] {
  return a.benches.flatMap((b) => {
    const cells = a.rows.map((r) => r.cells.find((c) => c.bench === b.name)!);
    const families = [...new Set(cells.flatMap((c) => c.families.map((f) => f.family)))].sort();
    return [
      ...(cells[0]!.score !== undefined ? [{ bench: b.name, column: { heading: b.columns.score ?? `${b.name} Score`, value: (c: MainBenchCell) => c.score } }] : []),
      ...families.map((family) => ({ bench: b.name, column: { heading: family, value: (c: MainBenchCell) => c.families.find((f) => f.family === family)?.success } })),
      { bench: b.name, column: { heading: b.columns.success, value: (c: MainBenchCell) => c.success } },
    ];
  });
}

function figure(value: number | undefined, base: number | undefined): string {
  if (value === undefined) return '—';
  const text = (value * 100).toFixed(1);
  return base === undefined ? text : `${text} (${signedPp(value - base)})`;
}

/**
 * The table in the layout of the paper's Table 1: under each target, the default harness and one row per
 * engineer (each engineer's patches of that target's failures); per benchmark its Score column where it
 * has one, its families and its success column, then the equal-weight Avg. of the success columns.
 * Strategy rows (ReAct, Self-Refine, Reflection) are the target played with the strategy and no patch.
 * Changes vs the default harness in brackets; the paired statistics of every change below the table;
 * Reflection's success@2 in a column of its own after them, never ranked against a success@1 figure.
 */
export function renderMainTable(a: MainArtifact): string {
  const columns = columnsOf(a);
  const header = ['Target', 'Harness', ...columns.map((c) => c.column.heading), 'Avg.'];
  const defaultOf = (row: MainRow) => a.rows.find((r) => r.target === row.target && r.avgDelta === undefined)!;
  const body = a.rows.map((row) => {
    const base = row.avgDelta === undefined ? undefined : defaultOf(row);
    return [
      row.target,
      row.label,
      ...columns.map(({ bench, column }) => figure(column.value(row.cells.find((c) => c.bench === bench)!), base ? column.value(base.cells.find((c) => c.bench === bench)!) : undefined)),
      figure(row.avg, base?.avg),
    ];
  });
  const stats = a.rows.flatMap((row) => row.cells.flatMap((c) => (c.vsDefault
    ? [`  ${row.target} · ${row.label} · ${c.bench}: ${formatPairedSummary(c.vsDefault.success)}${c.vsDefault.score ? `; score ${formatPairedSummary(c.vsDefault.score)}` : ''} (${row.strategy !== undefined ? `strategy ${row.strategy}, success@1, no patch` : `batches: ${c.batches.map((b) => b.status).join(', ')}`})`]
    : [])));
  const excluded = a.rows.filter((r) => r.avgDelta === undefined).flatMap((r) => r.cells.filter((c) => c.excludedTasks.length > 0).map((c) => `${r.target} ${c.bench} #${c.excludedTasks.join(', #')}`));
  return [
    `main table: ${a.benches.map((b) => `${b.name}/${b.split}`).join(', ')}; ${a.targets.length} target(s); engineers patch batches of ${a.batchSize}${strategiesOf(a)} ${resultLabel(a.labels)}`.trimEnd(),
    ...a.targets.map((t) => `  ${t.spec}: ${t.label}`),
    ...a.engineers.map((e) => `  engineer ${e.spec}: ${e.label}`),
    ...(excluded.length > 0 ? [`left out (baseline infrastructure failure after retries): ${excluded.join('; ')}`] : []),
    ...alignTable([header, header.map((h) => '-'.repeat(h.length)), ...body]),
    'success and score in % (score = mean reward × 100); (change vs the default harness) in pp; Avg. is the equal-weight mean of the success columns.',
    'paired statistics vs the default harness (same tasks):',
    ...stats,
    ...renderSuccessAt2Column(a),
    ...renderRowCosts(a),
    formatExperimentCost(a.cost),
  ].join('\n');
}

/**
 * Reflection's success@2, per benchmark and its equal-weight Avg.@2, in a table of its own: it counts a
 * second episode after a failure, so it is never set beside (or ranked against) the success@1 rows.
 */
function renderSuccessAt2Column(a: MainArtifact): string[] {
  const rows = a.rows.filter((r) => r.avgAt2 !== undefined);
  if (rows.length === 0) return [];
  const header = ['Target', 'Harness', ...a.benches.map((b) => `${b.columns.success} @2`), 'Avg. @2'];
  const body = rows.map((row) => [
    row.target,
    row.label,
    ...a.benches.map((b) => {
      const s = row.cells.find((c) => c.bench === b.name)!.successAt2!;
      return `${(s.successAt2 * 100).toFixed(1)} (${s.success2}/${s.tasks}; ${s.rescued}/${s.retried} rescued)`;
    }),
    (row.avgAt2! * 100).toFixed(1),
  ]);
  return [
    'success@2 (Reflection only: its own column, not comparable with the success@1 figures above and never ranked against them):',
    ...alignTable([header, header.map((h) => '-'.repeat(h.length)), ...body]),
  ];
}

/** Each row's own cost on each benchmark (target episodes; engineer answers where it has an engineer). */
function renderRowCosts(a: MainArtifact): string[] {
  const n = (x: number) => x.toLocaleString('en-US');
  const lines = a.rows.flatMap((row) => row.cells.filter((c) => c.cost).map((c) => {
    const cost = c.cost!;
    const target = `target ${n(cost.target.modelCalls)} call(s), ${n(cost.target.promptTokens + cost.target.completionTokens)} tokens (${n(cost.target.items)} episodes)`;
    const engineer = row.engineer !== undefined ? `; engineer ${n(cost.engineer.modelCalls)} call(s), ${n(cost.engineer.promptTokens + cost.engineer.completionTokens)} tokens (${n(cost.engineer.items)} answers)` : '';
    return `  ${row.target} · ${row.label} · ${c.bench}: ${target}${engineer}`;
  }));
  return lines.length > 0 ? ['cost per row (its own episodes and answers):', ...lines] : [];
}

/** `; strategies react, reflection` when the table has strategy rows. */
function strategiesOf(a: MainArtifact): string {
  const names = [...new Set(a.rows.flatMap((r) => (r.strategy !== undefined ? [r.strategy] : [])))];
  return names.length > 0 ? `; baseline strategies (no patch) ${names.join(', ')}` : '';
}
