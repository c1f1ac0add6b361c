import type { RlRow } from './rl-row.js';

/** Rows per rollout group in the reference GRPO run (rollout batch 4, `ROLLOUT_SHUFFLE=0`). */
export const DEFAULT_ROLLOUT_GROUP = 4;

export interface GroupedRows {
  /** Every row, in groups of `groupSize` rows of one benchmark, groups taking turns over benchmarks. */
  rows: RlRow[];
  groups: { benchmark: string; batchTags: string[] }[];
  /**
   * Rows repeated to complete a benchmark's last group (taken again from the start of its rows), so that
   * group does not share a rollout batch with another benchmark.
   */
  repeated: { benchmark: string; batchTag: string }[];
}

/**
 * The grouped mixed order (the release's grouped mixed builder, our reading): each benchmark's rows cut
 * into consecutive groups of `groupSize`, then one group of each benchmark in turn (benchmarks in name
 * order), so a trainer that reads rows in order without shuffling never puts two benchmarks in one rollout
 * batch. An incomplete last group of a benchmark is completed with that benchmark's first rows again
 * (reported in `repeated`); a benchmark with fewer rows than a group repeats them in turn.
 */
export function groupMixedRows(rowsByBenchmark: ReadonlyMap<string, readonly RlRow[]>, groupSize = DEFAULT_ROLLOUT_GROUP): GroupedRows {
  const benches = [...rowsByBenchmark.keys()].sort();
  const queues = new Map<string, RlRow[][]>();
  const repeated: GroupedRows['repeated'] = [];
  for (const bench of benches) {
    const rows = rowsByBenchmark.get(bench)!;
    const groups: RlRow[][] = [];
    for (let i = 0; i < rows.length; i += groupSize) {
      const group = rows.slice(i, i + groupSize);
      for (let k = 0; group.length < groupSize; k++) {
        const again = rows[k % rows.length]!;
        group.push(again);
        repeated.push({ benchmark: bench, batchTag: again.metadata.batch_tag });
      }
      groups.push(group);
    }
    queues.set(bench, groups);
  }
  const rows: RlRow[] = [];
  const groups: GroupedRows['groups'] = [];
  for (let round = 0; benches.some((b) => queues.get(b)!.length > round); round++) {
    for (const bench of benches) {
      const group = queues.get(bench)![round];
      if (!group) continue;
      rows.push(...group);
      groups.push({ benchmark: bench, batchTags: group.map((r) => r.metadata.batch_tag) });
    }
  }
  return { rows, groups, repeated };
}

/** True when every consecutive group of `groupSize` rows holds one benchmark. */
export function groupsAreHomogeneous(rows: readonly RlRow[], groupSize = DEFAULT_ROLLOUT_GROUP): boolean {
  for (let i = 0; i < rows.length; i += groupSize) {
    const benches = new Set(rows.slice(i, i + groupSize).map((r) => r.metadata.benchmark));
    if (benches.size > 1) return false;
  }
  return true;
}
