import { formatPairedSummary, formatSeedSpread } from '../../statistics/index.js';
import { resultLabel } from '../heldout/render-heldout.js';
import { formatExperimentCost } from '../shared/experiment-cost.js';
import type { SuccessAt2 } from '../../evaluation/success-at-2.js';
import type { TransferArtifact } from './transfer-summary.js';

const at2 = (s: SuccessAt2) => `${s.success2}/${s.tasks} (${(s.successAt2 * 100).toFixed(1)}%; ${s.rescued}/${s.retried} rescued by the second episode)`;

/** Reflection's success@2 of every cell, below the success@1 matrix and never in it (empty for other runs). */
export function renderTransferAt2(a: TransferArtifact): string[] {
  const cells = a.cells.filter((c) => c.successAt2);
  if (cells.length === 0) return [];
  return [
    'reflection: success@2 per cell over the same matched tasks (its own figure, not comparable with the success@1 deltas above and never paired or ranked with them)',
    ...cells.map((c) => `  ${c.target} × ${c.bench}: success@2 baseline ${at2(c.successAt2!.baseline)} → with its patches ${at2(c.successAt2!.patched)}`),
  ];
}

/** Signed percentage points with one decimal, U+2212 for minus. */
export function signedPp(fraction: number): string {
  const r = Number((fraction * 100).toFixed(1));
  return `${r >= 0 ? '+' : '−'}${Math.abs(r).toFixed(1)}`;
}

/** Pads the cells of a table into aligned columns. */
export function alignTable(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((cells) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd());
}

/**
 * The transfer experiment in the layout of the paper's Figure 3 / Table 11.1: a target × benchmark matrix
 * of pass-rate deltas (each target's own baseline → its own patches), row averages, the direction counts,
 * then every cell's paired statistics.
 */
export function renderTransferSummary(a: TransferArtifact): string {
  const cellOf = (target: string, bench: string) => a.cells.find((c) => c.target === target && c.bench === bench)!;
  const header = ['Target', ...a.benches.map((b) => `Δ ${b.column}`), 'Avg.'];
  const rows = a.targets.map((t) => [
    t.spec,
    ...a.benches.map((b) => {
      const c = cellOf(t.spec, b.name).counts;
      return `${signedPp(c.paired.delta)} (${c.baselinePass}→${c.patchedPass}/${c.tasks})`;
    }),
    signedPp(a.byTarget.find((x) => x.target === t.spec)!.deltaRate.mean),
  ]);
  const avg = ['Avg.', ...a.byBench.map((b) => signedPp(b.deltaRate.mean)), signedPp(a.overall.deltaRate.mean)];
  const table = alignTable([header, header.map((h) => '-'.repeat(h.length)), ...rows, avg]);
  const o = a.overall;
  const lines = [
    `cross-target transfer: ${a.targets.length} target(s) × ${a.benches.map((b) => `${b.name}/${b.split}`).join(', ')}; each target's own baseline and own patches (batches of ${a.batchSize}) ${resultLabel(a.labels)}`.trimEnd(),
    `engineer: ${a.engineer.label}`,
    ...a.targets.map((t) => `  ${t.spec}: ${t.label}`),
    ...(a.excludedTasks.length > 0 ? [`left out of a column (infrastructure failure after retries): ${a.excludedTasks.map((t) => `${t.bench} #${t.task} (${t.where})`).join(', ')}`] : []),
    ...table,
    'Δ success in pp (baseline → patched passes / matched tasks); Avg. is the equal-weight mean over cells.',
    `cells: ${a.cells.length}; improved ${o.improved}, unchanged ${o.unchanged}, regressed ${o.regressed}; mean ${formatSeedSpread(o.deltaRate)} over cells; CI excludes 0: ${o.significantImproved} improved, ${o.significantRegressed} regressed`,
    'paired statistics per cell:',
    ...a.cells.map((c) => {
      const statuses = c.batches.map((b) => b.status).join(', ');
      return `  ${c.target} × ${c.bench}: ${formatPairedSummary(c.counts.paired)}${c.counts.score ? `; score ${formatPairedSummary(c.counts.score)}` : ''} (batches: ${statuses})`;
    }),
    ...renderTransferAt2(a),
    formatExperimentCost(a.cost),
  ];
  return lines.join('\n');
}
