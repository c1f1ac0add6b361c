/**
 * The paper's split parameters (Appendix 10, as we read it; README.md in this folder says where the
 * text is ambiguous and what we chose). Seeds are `random.Random(seed)` seeds; counts are task counts.
 */

export const SPLIT_BENCHMARKS = ['webshop', 'alfworld', 'dbbench'] as const;
export type SplitBenchmark = (typeof SPLIT_BENCHMARKS)[number];

export function isSplitBenchmark(value: unknown): value is SplitBenchmark {
  return typeof value === 'string' && (SPLIT_BENCHMARKS as readonly string[]).includes(value);
}

/** The four partitions, in the order they are written. Held-out ones never reach training data. */
export const PARTITIONS = ['test', 'validation', 'sft_train', 'rl_train'] as const;
export type PartitionName = (typeof PARTITIONS)[number];
export const HELD_OUT_PARTITIONS = ['test', 'validation'] as const satisfies readonly PartitionName[];
export const TRAINING_PARTITIONS = ['sft_train', 'rl_train'] as const satisfies readonly PartitionName[];

/** Tasks per batch, as the release batches its baselines and engineer prompts. */
export const SPLIT_BATCH_SIZE = 10;

export const WEBSHOP_SPLIT = {
  /** Goal indices 0..testCount-1 are the test set (under goal seed 233). */
  testCount: 500,
  goalSeed: 233,
  partitionSeed: 20260603,
  validationSeed: 20260623,
  validationTasks: 100,
} as const;

export const ALFWORLD_SPLIT = {
  /** The release's test list (`data/alfworld/test_set.json`): all of new_std plus this many from train_valid. */
  testFromTrainValid: 391,
  testSeed: 20260609,
  partitionSeed: 20260614,
  validationTasks: 99,
} as const;

export const DBBENCH_SPLIT = {
  partitionSeed: 20260625,
  validationTasks: 100,
  /** The paper's training pool (`db_out_new.jsonl`, not shipped). */
  paperPoolTasks: 4803,
} as const;

/** Where a paper count comes from: stated in the paper/release, derived from it by our reading, or not known. */
export type PaperCountBasis = 'stated' | 'derived' | 'unknown';

export interface PaperCount {
  count: number | null;
  basis: PaperCountBasis;
  note: string;
}

const half = (n: number): number => Math.floor(n / 2);

/** The counts the paper's splits have, per benchmark, for the "ours vs paper" table. */
export const PAPER_COUNTS: Readonly<Record<SplitBenchmark, Readonly<Record<PartitionName | 'pool', PaperCount>>>> = {
  webshop: {
    pool: { count: null, basis: 'unknown', note: 'human goals from items_human_ins.json after index 499; the size is not in our sources' },
    test: { count: 500, basis: 'stated', note: 'goal indices 0-499' },
    validation: { count: 100, basis: 'stated', note: '100 RL-side tasks, seed 20260623' },
    sft_train: { count: null, basis: 'unknown', note: 'half of the pool batches; the pool size is not in our sources' },
    rl_train: { count: null, basis: 'unknown', note: 'the other half minus validation' },
  },
  alfworld: {
    pool: { count: 3150 - 391, basis: 'derived', note: 'train_valid (3,150) minus its 391 test games' },
    test: { count: 500, basis: 'stated', note: 'all 109 new_std + 391 stratified from train_valid, seed 20260609' },
    validation: { count: 99, basis: 'stated', note: 'stratified by family, seed 20260614' },
    sft_train: { count: null, basis: 'unknown', note: 'the SFT/RL proportion is not stated; we halve per family' },
    rl_train: { count: null, basis: 'unknown', note: 'see sft_train' },
  },
  dbbench: {
    pool: { count: DBBENCH_SPLIT.paperPoolTasks, basis: 'stated', note: 'db_out_new.jsonl training tasks' },
    test: { count: 300, basis: 'stated', note: 'the standard set, test only' },
    validation: { count: 100, basis: 'stated', note: '100 RL-side tasks' },
    sft_train: { count: half(DBBENCH_SPLIT.paperPoolTasks), basis: 'derived', note: 'the smaller half of 4,803 (our reading of "halves")' },
    rl_train: {
      count: DBBENCH_SPLIT.paperPoolTasks - half(DBBENCH_SPLIT.paperPoolTasks) - DBBENCH_SPLIT.validationTasks,
      basis: 'derived',
      note: 'the larger half minus the 100 validation tasks',
    },
  },
};
