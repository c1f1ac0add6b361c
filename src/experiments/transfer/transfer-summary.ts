import type { EvalStatus, RewardMetric } from '../../episode/index.js';
import { meanSd, type BootstrapOptions, type SeedSpread } from '../../statistics/index.js';
import type { ExperimentCost } from '../shared/experiment-cost.js';
import type { CellSuccessAt2 } from './transfer-at2.js';
import { pairedCounts, type PairedCounts, type PairedReward } from '../shared/paired-counts.js';

/** A target as the matrix names it: the SPEC given, the model's label, whether it is simulated. */
export interface TransferTarget {
  spec: string;
  label: string;
  simulated: boolean;
}

/** A benchmark column: its name, split, the heading of its success column and its metric. */
export interface TransferBench {
  name: string;
  split: string;
  column: string;
  metric: RewardMetric;
  threshold: number;
}

/** What one target produced on one benchmark: the matched tasks' rewards and its batches. */
export interface TransferCellInput {
  bench: string;
  target: string;
  /** Matched tasks (the same for every target of the benchmark), baseline vs the target's own patches. */
  pairs: PairedReward[];
  batches: { tag: string; status: EvalStatus; validPatch: boolean }[];
  /** The cell's improve-style folder (baseline, batches, reruns), relative to the run directory. */
  dir: string;
  /** Reflection only: success@2 of the matched tasks, baseline and patched (its own figure, never in the deltas). */
  successAt2?: CellSuccessAt2;
}

export interface TransferSummaryInput {
  benches: TransferBench[];
  targets: TransferTarget[];
  engineer: { label: string; symbolic: boolean };
  batchSize: number;
  cells: TransferCellInput[];
  /** Tasks left out of a benchmark column for every target: some target's baseline episode failed for infrastructure reasons. */
  excludedTasks: { bench: string; task: number; where: string }[];
  cost: ExperimentCost;
  bootstrap?: BootstrapOptions;
  /** The baseline target strategy every cell was played with (absent: the plain target). */
  strategy?: string;
}

/** One cell of the matrix: one target's own baseline → its own patches on one benchmark. */
export interface TransferCell {
  bench: string;
  target: string;
  /** Pass counts and paired statistics (bootstrap interval of the pass-rate delta, exact McNemar). */
  counts: PairedCounts;
  /** `improved` / `unchanged` / `regressed`: the sign of the change in passed tasks. */
  direction: 'improved' | 'unchanged' | 'regressed';
  /** The 95 % (or configured) interval of the delta excludes 0. */
  significant: boolean;
  batches: { tag: string; status: EvalStatus; validPatch: boolean }[];
  dir: string;
  /** Reflection only: success@2 of the same matched tasks, baseline and patched; never in `counts`, the averages or the heatmap. */
  successAt2?: CellSuccessAt2;
}

/** `transfer.json`. */
export interface TransferArtifact {
  schemaVersion: 1;
  kind: 'transfer';
  labels: string[];
  /** The baseline target strategy every cell was played with (absent: the plain target; `--json`'s `strategy` is the report object). */
  targetStrategy?: string;
  benches: TransferBench[];
  targets: TransferTarget[];
  engineer: { label: string; symbolic: boolean };
  batchSize: number;
  excludedTasks: { bench: string; task: number; where: string }[];
  /** Target-major: every target's cell on every benchmark. */
  cells: TransferCell[];
  /** Pass-rate delta (fraction) of every cell: mean ± sample sd over cells, and the direction counts (Table 11.1). */
  overall: { deltaRate: SeedSpread; improved: number; unchanged: number; regressed: number; significantImproved: number; significantRegressed: number };
  /** Mean delta of each target over the benchmarks (row averages) and of each benchmark over the targets (column averages). */
  byTarget: { target: string; deltaRate: SeedSpread }[];
  byBench: { bench: string; deltaRate: SeedSpread }[];
  cost: ExperimentCost;
}

/** The target × benchmark matrix of deltas, each with its paired statistics, from every cell's matched rewards. */
export function summarizeTransfer(input: TransferSummaryInput): TransferArtifact {
  const cells = input.targets.flatMap((t) => input.benches.map((b): TransferCell => {
    const cell = input.cells.find((c) => c.bench === b.name && c.target === t.spec)!;
    const counts = pairedCounts(cell.pairs, b.threshold, b.metric === 'delta_average_reward', input.bootstrap);
    const { low, high } = counts.paired.ci;
    return {
      bench: b.name,
      target: t.spec,
      counts,
      direction: counts.deltaPass > 0 ? 'improved' : counts.deltaPass < 0 ? 'regressed' : 'unchanged',
      significant: low > 0 || high < 0,
      batches: cell.batches,
      dir: cell.dir,
      ...(cell.successAt2 ? { successAt2: cell.successAt2 } : {}),
    };
  }));
  const rate = (c: TransferCell) => c.counts.paired.delta;
  const count = (p: (c: TransferCell) => boolean) => cells.filter(p).length;
  const labels = [...(input.targets.some((t) => t.simulated) ? ['simulated target'] : []), ...(input.engineer.symbolic ? ['symbolic engineer'] : [])];
  return {
    schemaVersion: 1,
    kind: 'transfer',
    labels,
    ...(input.strategy ? { targetStrategy: input.strategy } : {}),
    benches: input.benches,
    targets: input.targets,
    engineer: input.engineer,
    batchSize: input.batchSize,
    excludedTasks: input.excludedTasks,
    cells,
    overall: {
      deltaRate: meanSd(cells.map(rate)),
      improved: count((c) => c.direction === 'improved'),
      unchanged: count((c) => c.direction === 'unchanged'),
      regressed: count((c) => c.direction === 'regressed'),
      significantImproved: count((c) => c.significant && c.direction === 'improved'),
      significantRegressed: count((c) => c.significant && c.direction === 'regressed'),
    },
    byTarget: input.targets.map((t) => ({ target: t.spec, deltaRate: meanSd(cells.filter((c) => c.target === t.spec).map(rate)) })),
    byBench: input.benches.map((b) => ({ bench: b.name, deltaRate: meanSd(cells.filter((c) => c.bench === b.name).map(rate)) })),
    cost: input.cost,
  };
}
