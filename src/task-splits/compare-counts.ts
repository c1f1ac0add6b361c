import { PARTITIONS, type PaperCounts, type PartitionName } from './partitions.js';
import type { CountComparison } from './split-manifest.js';

/**
 * Our counts against the paper's, one row per partition and the pool. `why` explains where ours come
 * from when they differ (keyed by partition); elsewhere the paper count's own note stands.
 */
export function compareWithPaper(
  paperCounts: PaperCounts,
  ours: Record<PartitionName | 'pool', number>,
  why: Partial<Record<PartitionName | 'pool', string>>,
): CountComparison[] {
  return (['pool', ...PARTITIONS] as const).map((partition) => {
    const paper = paperCounts[partition];
    return { partition, ours: ours[partition], paper: paper.count, basis: paper.basis, note: why[partition] ?? paper.note };
  });
}

/** Rows whose count differs from a known paper count. */
export function differingCounts(rows: readonly CountComparison[]): CountComparison[] {
  return rows.filter((r) => r.paper !== null && r.paper !== r.ours);
}

/** A count as the messages print it: 4,803. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
