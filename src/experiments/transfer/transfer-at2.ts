import type { EpisodeRecord } from '../../episode/index.js';
import type { BatchResult } from '../../evaluation/improve/improve-batch.js';
import { successAt2, type SuccessAt2 } from '../../evaluation/success-at-2.js';
import { ImproveRunDir } from '../../run-dir/improve-run-dir.js';
import { RunStore } from '../../store/run-store.js';

/** Reflection's success@2 of one transfer cell, over its matched tasks: the target's baseline and with its own patches. */
export interface CellSuccessAt2 {
  baseline: SuccessAt2;
  patched: SuccessAt2;
}

/**
 * success@2 of a cell (Reflection only): the same matched tasks as the cell's success@1 delta, the
 * baseline episodes and the patched ones — a batch's rerun episode where its patch was installed and
 * rerun (the rerun's reward is the one the delta counts), the baseline episode where there was no
 * intervention. It is reported beside the delta, never in it, and never ranked against success@1.
 */
export function cellSuccessAt2(cellDir: string, matched: readonly number[], baseline: ReadonlyMap<number, EpisodeRecord>, batches: readonly BatchResult[]): CellSuccessAt2 {
  const run = new ImproveRunDir(cellDir);
  const patched = new Map<number, EpisodeRecord>();
  for (const b of batches) {
    if (!b.patched || !b.rerun || !RunStore.exists(run.rerunDir(b.rerun.cacheKey))) continue;
    const store = RunStore.open(run.rerunDir(b.rerun.cacheKey));
    try {
      for (const r of store.records()) if (b.patched.rewards[String(r.task.index)] !== undefined) patched.set(r.task.index, r);
    } finally {
      store.close();
    }
  }
  const before = matched.map((t) => baseline.get(t)!);
  const after = matched.map((t) => patched.get(t) ?? baseline.get(t)!);
  return { baseline: successAt2(before), patched: successAt2(after) };
}
