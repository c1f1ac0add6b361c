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
 * Changes vs the default harness in brackets; the paired statistics of every change below the table.
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
    ? [`  ${row.target} · ${row.label} · ${c.bench}: ${formatPairedSummary(c.vsDefault.success)}${c.vsDefault.score ? `; score ${formatPairedSummary(c.vsDefault.score)}` : ''} (batches: ${c.batches.map((b) => b.status).join(', ')})`]
    : [])));
  const excluded = a.rows.filter((r) => r.avgDelta === undefined).flatMap((r) => r.cells.filter((c) => c.excludedTasks.length > 0).map((c) => `${r.target} ${c.bench} #${c.excludedTasks.join(', #')}`));
  return [
    `main table: ${a.benches.map((b) => `${b.name}/${b.split}`).join(', ')}; ${a.targets.length} target(s); engineers patch batches of ${a.batchSize} ${resultLabel(a.labels)}`.trimEnd(),
    ...a.targets.map((t) => `  ${t.spec}: ${t.label}`),
    ...a.engineers.map((e) => `  engineer ${e.spec}: ${e.label}`),
    ...(excluded.length > 0 ? [`left out (baseline infrastructure failure after retries): ${excluded.join('; ')}`] : []),
    ...alignTable([header, header.map((h) => '-'.repeat(h.length)), ...body]),
    'success and score in % (score = mean reward × 100); (change vs the default harness) in pp; Avg. is the equal-weight mean of the success columns.',
    'paired statistics vs the default harness (same tasks):',
    ...stats,
    formatExperimentCost(a.cost),
  ].join('\n');
}
