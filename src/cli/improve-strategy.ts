import type { EpisodeRecord } from '../episode/index.js';
import type { ImproveSummary } from '../evaluation/improve/improve-run.js';
import { successAt2, type SuccessAt2 } from '../evaluation/success-at-2.js';
import { ImproveRunDir } from '../run-dir/improve-run-dir.js';
import type { StrategyName } from '../runtime/strategies/index.js';
import { RunStore } from '../store/run-store.js';
import { strategyHeader } from './experiment-strategy.js';

/** One batch's success@2, before and with its patch (the rerun where the patch was installed, else the baseline). */
export interface BatchSuccessAt2 {
  tag: string;
  baseline: SuccessAt2;
  patched: SuccessAt2;
}

export interface ImproveStrategyReport {
  json: { name: StrategyName; reward: 'success@1'; successAt2?: { baseline: SuccessAt2; batches: BatchSuccessAt2[] } };
  lines: string[];
}

const pct = (s: SuccessAt2) => `${s.success2}/${s.tasks} (${(s.successAt2 * 100).toFixed(1)}%)`;

/**
 * What improve says about its strategy: the reward is success@1 of baseline and rerun, both played with
 * it; for Reflection, success@2 of the baseline and of each batch's patched tasks, on its own, never the reward.
 */
export function strategyReport(strategy: StrategyName, runDir: string, baseline: readonly EpisodeRecord[], summary: ImproveSummary): ImproveStrategyReport {
  const lines = [strategyHeader(strategy, 'baseline and every rerun')];
  if (strategy !== 'reflection') return { json: { name: strategy, reward: 'success@1' }, lines };
  const run = new ImproveRunDir(runDir);
  const byIndex = new Map(baseline.map((r) => [r.task.index, r]));
  const batches: BatchSuccessAt2[] = [];
  for (const row of summary.batches) {
    const result = run.batch(row.tag).readResult();
    if (!result) continue;
    const tasks = Object.keys(result.baseline.rewards).map(Number);
    const before = tasks.map((t) => byIndex.get(t)).filter((r): r is EpisodeRecord => r !== undefined);
    let after = before;
    if ((result.status === 'scored' || result.status === 'inert') && result.rerun && RunStore.exists(run.rerunDir(result.rerun.cacheKey))) {
      const store = RunStore.open(run.rerunDir(result.rerun.cacheKey));
      try {
        const rerun = new Map(store.records().map((r) => [r.task.index, r]));
        after = tasks.map((t) => rerun.get(t)).filter((r): r is EpisodeRecord => r !== undefined);
      } finally {
        store.close();
      }
    }
    batches.push({ tag: row.tag, baseline: successAt2(before), patched: successAt2(after) });
  }
  const all = successAt2(baseline);
  lines.push(`reflection: success@2 of the baseline ${pct(all)} — its own figure, not comparable with success@1 and never the reward`);
  for (const b of batches) lines.push(`  ${b.tag}: success@2 ${pct(b.baseline)} → with the patch ${pct(b.patched)}`);
  return { json: { name: strategy, reward: 'success@1', successAt2: { baseline: all, batches } }, lines };
}
