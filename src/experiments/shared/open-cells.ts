import type { EpisodeRecord } from '../../episode/index.js';
import type { ImproveContext } from '../../evaluation/improve/improve-batch.js';
import { ImproveRunDir } from '../../run-dir/improve-run-dir.js';
import type { Environment } from '../../runtime/environment.js';
import type { BaselineIdentity } from './play-baseline.js';
import { playBaseline } from './play-baseline.js';

/** One target opened on one benchmark: its improve context (the caller's engineer), baseline identity. */
export interface OpenedTarget {
  /** The SPEC as the user gave it (the row's name). */
  spec: string;
  context: ImproveContext;
  identity: BaselineIdentity;
}

/** One benchmark opened with every target of a multi-target experiment; `close` releases all of it. */
export interface OpenedBench {
  name: string;
  split: string;
  /** The heading of the benchmark's success column (and its score column, where it has one) in the paper's tables. */
  columns: { success: string; score?: string };
  taskIndices: number[];
  /** The no-harness environment the baselines are played in. */
  environment: Environment;
  targets: OpenedTarget[];
  close(): Promise<void>;
}

/**
 * `ctx` moved to a cell's folder, its progress events prefixed with the cell's name, so the stderr lines
 * of a matrix say which cell they are about.
 */
export function cellContext(ctx: ImproveContext, rootDir: string, name: string): ImproveContext {
  const base = ctx.onProgress;
  return { ...ctx, rootDir, ...(base ? { onProgress: (e) => base({ ...e, batchTag: `${name} ${e.batchTag}` }) } : {}) };
}

/** The no-harness baseline of a cell in `<dir>/baseline` (played once, resumed, refused for another target). */
export function playCellBaseline(ctx: ImproveContext, bench: OpenedBench, target: OpenedTarget, dir: string): Promise<Map<number, EpisodeRecord>> {
  return playBaseline(ctx, bench.environment, target.identity, bench.taskIndices, new ImproveRunDir(dir).baselineDir);
}

/** The folder name of the i-th target (0-based): `t1`, `t2`, … (SPECs hold characters no folder name should). */
export function targetFolder(i: number): string {
  return `t${i + 1}`;
}
