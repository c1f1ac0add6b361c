import { formatPairedSummary, type SeedSpread } from '../../statistics/index.js';
import { formatExperimentCost } from '../shared/experiment-cost.js';
import { resultLabel } from '../heldout/render-heldout.js';
import type { AblationArtifact } from './ablation-summary.js';

/** Column headings of a benchmark in the paper's tables (its definition's `paperColumns`). */
export interface AblationColumns {
  success: string;
  score?: string;
}

function pct(x: number): string {
  return (x * 100).toFixed(1);
}

function signedPct(x: number): string {
  const r = Number((x * 100).toFixed(1));
  return `${r >= 0 ? '+' : '−'}${Math.abs(r).toFixed(1)}`;
}

function cell(value: SeedSpread, drop: SeedSpread | null): string {
  const sd = value.sd === null ? '' : ` ± ${pct(value.sd)}`;
  return `${pct(value.mean)}${sd}${drop ? ` (${signedPct(drop.mean)})` : ''}`;
}

/**
 * The ablation in the layout of the paper's Table 13.1: one row per arm, the benchmark's success column
 * (mean ± sd over repeats, the drop vs the full patch in brackets), the equal-weight average of the
 * benchmark columns (one benchmark: the same figure), and the paired statistics of each arm vs full.
 */
export function renderAblationTable(a: AblationArtifact, columns: AblationColumns = { success: `${a.bench} Succ.` }): string {
  const hasScore = a.rows[0]!.score !== undefined;
  const header = ['Arm', columns.success, ...(hasScore ? [columns.score ?? `${a.bench} Score`] : []), 'Avg.', 'vs full (paired over tasks × repeats)'];
  const body = a.rows.map((row) => {
    const drop = row.arm === 'full' ? null : row.dropVsFull;
    const full = a.rows[0]!;
    const scoreDrop = row.score && full.score && row.arm !== 'full' ? { ...row.score, mean: row.score.mean - full.score.mean } : null;
    return [
      `${row.label}${row.sameAsFull ? ' = full (no hook there)' : ''}`,
      cell(row.success, drop),
      ...(hasScore && row.score ? [cell(row.score, scoreDrop)] : []),
      cell(row.success, drop),
      row.paired ? formatPairedSummary(row.paired) : '—',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  const label = resultLabel(a.labels);
  return [
    `lifecycle ablation: ${a.bench}/${a.split}, ${a.tasks} tasks × ${a.repeats} repeat(s); patch ${a.patchSource} (hooks: ${a.patchHooks.join(', ')}) ${label}`.trimEnd(),
    `target per repeat: ${a.repeatTargets.join('; ')}`,
    ...(a.excludedTasks.length > 0 ? [`left out of every arm (infrastructure failure after retries): ${a.excludedTasks.map((t) => `#${t.task} (${t.where})`).join(', ')}`] : []),
    line(header),
    line(header.map((_, i) => '-'.repeat(widths[i]!))),
    ...body.map(line),
    'success in %, mean ± sample sd over repeats; (drop vs full) in pp; Avg. is the equal-weight mean of the benchmark columns.',
    ...(a.cost ? [formatExperimentCost(a.cost)] : []),
  ].join('\n');
}
