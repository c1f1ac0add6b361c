import type { RewardMetric } from '../../episode/index.js';
import type { BatchReward } from '../../run-dir/batch-artifacts.js';

export { REWARD_METRICS, type RewardMetric } from '../../episode/index.js';
export type { BatchReward };

/**
 * Reward of a patch on a batch, against the stored baseline (never a fresh unpatched rerun):
 * `delta_pass_rate = (patched_pass − baseline_pass) / max(1, batch_size)` and
 * `delta_average_reward = mean(patched) − mean(baseline)` (protocol.md §6.1).
 */
export function computeBatchReward(options: {
  baseline: ReadonlyMap<number, number>;
  patched: ReadonlyMap<number, number>;
  threshold?: number;
  metric?: RewardMetric;
}): BatchReward {
  const threshold = options.threshold ?? 1;
  const metric = options.metric ?? 'delta_pass_rate';
  const batchSize = options.baseline.size;
  const passes = (m: ReadonlyMap<number, number>) => [...m.values()].filter((r) => r >= threshold).length;
  const mean = (m: ReadonlyMap<number, number>) => (m.size === 0 ? 0 : [...m.values()].reduce((a, b) => a + b, 0) / m.size);
  const baselinePass = passes(options.baseline);
  const patchedPass = passes(options.patched);
  const rescued: number[] = [];
  const regressed: number[] = [];
  let unchanged = 0;
  for (const [index, before] of [...options.baseline.entries()].sort((a, b) => a[0] - b[0])) {
    const after = options.patched.get(index);
    if (after === undefined) continue;
    const was = before >= threshold;
    const now = after >= threshold;
    if (!was && now) rescued.push(index);
    else if (was && !now) regressed.push(index);
    else unchanged++;
  }
  const deltaPassRate = (patchedPass - baselinePass) / Math.max(1, batchSize);
  const deltaAverageReward = mean(options.patched) - mean(options.baseline);
  return {
    batchSize,
    baselinePass,
    patchedPass,
    baselineAverage: mean(options.baseline),
    patchedAverage: mean(options.patched),
    deltaPassRate,
    deltaAverageReward,
    metric,
    score: metric === 'delta_pass_rate' ? deltaPassRate : deltaAverageReward,
    rescued,
    regressed,
    unchanged,
  };
}
