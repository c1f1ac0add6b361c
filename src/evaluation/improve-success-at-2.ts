import type { EpisodeRecord, EvalStatus } from '../episode/index.js';
import { successAt2, type SuccessAt2 } from './success-at-2.js';

/** One batch's success@2, before and with its patch (the rerun where the patch was installed, else the baseline). */
export interface BatchSuccessAt2 {
  tag: string;
  baseline: SuccessAt2;
  patched: SuccessAt2;
}

/** What a batch contributes: its scored tasks, its status and the final records of its rerun (null when it has none). */
export interface BatchAt2Input {
  tag: string;
  status: EvalStatus;
  /** The batch's scored tasks (the keys of its result's baseline rewards). */
  tasks: readonly number[];
  rerun: readonly EpisodeRecord[] | null;
}

/**
 * Reflection's success@2 of an improve run: the whole baseline, and per batch its tasks before and with
 * the patch. A scored or inert batch installed its patch, so its rerun episodes count; every other batch
 * had no intervention and keeps the baseline episodes. Never the reward, never ranked against success@1.
 */
export function improveSuccessAt2(baseline: readonly EpisodeRecord[], batches: readonly BatchAt2Input[]): { baseline: SuccessAt2; batches: BatchSuccessAt2[] } {
  const byIndex = new Map(baseline.map((r) => [r.task.index, r]));
  const rows = batches.map((b): BatchSuccessAt2 => {
    const before = b.tasks.map((t) => byIndex.get(t)).filter((r): r is EpisodeRecord => r !== undefined);
    let after = before;
    if ((b.status === 'scored' || b.status === 'inert') && b.rerun) {
      const rerun = new Map(b.rerun.map((r) => [r.task.index, r]));
      after = b.tasks.map((t) => rerun.get(t)).filter((r): r is EpisodeRecord => r !== undefined);
    }
    return { tag: b.tag, baseline: successAt2(before), patched: successAt2(after) };
  });
  return { baseline: successAt2(baseline), batches: rows };
}
