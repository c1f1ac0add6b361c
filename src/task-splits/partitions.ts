/**
 * What every benchmark's task splits share (the paper's Appendix 10): the four partitions, the batch
 * size, how a paper count is stated, and the contract a benchmark definition fills in (`paperSplits`).
 * The seeds, counts and procedures are each benchmark's own (`src/benchmarks/<name>/paper-splits.ts`).
 */
import type { LocatedSplit } from './locate.js';
import type { SplitManifest, SplitTask } from './split-manifest.js';

/** The four partitions, in the order they are written. Held-out ones never reach training data. */
export const PARTITIONS = ['test', 'validation', 'sft_train', 'rl_train'] as const;
export type PartitionName = (typeof PARTITIONS)[number];
export const HELD_OUT_PARTITIONS = ['test', 'validation'] as const satisfies readonly PartitionName[];
export const TRAINING_PARTITIONS = ['sft_train', 'rl_train'] as const satisfies readonly PartitionName[];

/** Tasks per batch, as the release batches its baselines and engineer prompts. */
export const SPLIT_BATCH_SIZE = 10;

/** Where a paper count comes from: stated in the paper/release, derived from it by our reading, or not known. */
export type PaperCountBasis = 'stated' | 'derived' | 'unknown';

export interface PaperCount {
  count: number | null;
  basis: PaperCountBasis;
  note: string;
}

/** A benchmark's paper counts, per partition and for the pool, for the "ours vs paper" table. */
export type PaperCounts = Readonly<Record<PartitionName | 'pool', PaperCount>>;

/** A file written beside `manifest.json`. */
export interface SplitFile {
  name: string;
  content: string;
}

/** What a benchmark builds its splits from: the data folder and, optionally, a training pool of the user's. */
export interface SplitBuildOptions {
  /** The benchmark data folder. */
  dataDir: string;
  /** A user-supplied pool in the benchmark's own format (checked to exist before `build` is called). */
  pool?: string;
}

/** A benchmark's paper splits: `harness-r1 splits --bench <name>`. */
export interface PaperSplits {
  /** What `--pool` takes instead of the shipped pool, for `--help` (e.g. `a task .jsonl (db_out_new.jsonl)`). */
  readonly poolHelp: string;
  /** Builds the manifest: a pure function of the data files (the same files give the same bytes). */
  build(options: SplitBuildOptions): SplitManifest;
  /** Files written beside `manifest.json`, e.g. each partition in the original's own split-file format. */
  files?(manifest: SplitManifest): SplitFile[];
  /** What `files` writes, for `--help` (e.g. `AgentBench split files`). */
  readonly filesHelp?: string;
  /**
   * Where the manifest's tasks are played: a manifest names tasks by identity, an environment by split and
   * index. Tasks the shipped data cannot play are returned apart, never dropped silently. Exporters need it.
   */
  locate?(tasks: readonly SplitTask[], dataDir: string): LocatedSplit;
}
