import type { EpisodeRecord } from '../episode/index.js';
import type { ImproveSummary } from '../evaluation/improve/improve-run.js';
import { improveSuccessAt2, type BatchAt2Input, type BatchSuccessAt2 } from '../evaluation/improve-success-at-2.js';
import type { SuccessAt2 } from '../evaluation/success-at-2.js';
import { ImproveRunDir } from '../run-dir/improve-run-dir.js';
import type { StrategyName } from '../runtime/strategies/index.js';
import { RunStore } from '../store/run-store.js';
import { strategyHeader } from './experiment-strategy.js';

export type { BatchSuccessAt2 };

export interface ImproveStrategyReport {
  json: { name: StrategyName; reward: 'success@1'; successAt2?: { baseline: SuccessAt2; batches: BatchSuccessAt2[] } };
  lines: string[];
}

const pct = (s: SuccessAt2) => `${s.success2}/${s.tasks} (${(s.successAt2 * 100).toFixed(1)}%)`;

/** The final records of a run store, or null when there is none. */
function storeRecords(dir: string): EpisodeRecord[] | null {
  if (!RunStore.exists(dir)) return null;
  const store = RunStore.open(dir);
  try {
    return store.records();
  } finally {
    store.close();
  }
}

/**
 * What improve says about its strategy: the reward is success@1 of baseline and rerun, both played with
 * it; for Reflection, success@2 of the baseline and of each batch's patched tasks, on its own, never the reward.
 */
export function strategyReport(strategy: StrategyName, runDir: string, baseline: readonly EpisodeRecord[], summary: ImproveSummary): ImproveStrategyReport {
  const lines = [strategyHeader(strategy, 'baseline and every rerun')];
  if (strategy !== 'reflection') return { json: { name: strategy, reward: 'success@1' }, lines };
  const run = new ImproveRunDir(runDir);
  const inputs: BatchAt2Input[] = [];
  for (const row of summary.batches) {
    const result = run.batch(row.tag).readResult();
    if (!result) continue;
    const rerun = result.rerun ? storeRecords(run.rerunDir(result.rerun.cacheKey)) : null;
    inputs.push({ tag: row.tag, status: result.status, tasks: Object.keys(result.baseline.rewards).map(Number), rerun });
  }
  const at2 = improveSuccessAt2(baseline, inputs);
  lines.push(`reflection: success@2 of the baseline ${pct(at2.baseline)} — its own figure, not comparable with success@1 and never the reward`);
  for (const b of at2.batches) lines.push(`  ${b.tag}: success@2 ${pct(b.baseline)} → with the patch ${pct(b.patched)}`);
  return { json: { name: strategy, reward: 'success@1', successAt2: at2 }, lines };
}
