/** GRPO's normalisation constant: advantages are (r − mean) / (std + ε). */
export const ADVANTAGE_EPSILON = 1e-6;

export interface GroupStats {
  rewards: number[];
  mean: number;
  /** Population standard deviation of the rewards. */
  std: number;
  /** (r − mean) / (std + ε); all 0 when the group has no variance. */
  advantages: number[];
  /** Every reward equal: GRPO learns nothing from the group. */
  zeroVariance: boolean;
}

/** The group statistics GRPO computes from one group's rewards. */
export function groupStats(rewards: readonly number[]): GroupStats {
  const n = rewards.length;
  const mean = n === 0 ? 0 : rewards.reduce((a, b) => a + b, 0) / n;
  const std = n === 0 ? 0 : Math.sqrt(rewards.reduce((a, r) => a + (r - mean) ** 2, 0) / n);
  const zeroVariance = rewards.every((r) => r === rewards[0]);
  const advantages = rewards.map((r) => (zeroVariance ? 0 : (r - mean) / (std + ADVANTAGE_EPSILON)));
  return { rewards: [...rewards], mean, std, advantages, zeroVariance };
}

/** The same statistics over a set of groups: reward distribution per group and the share GRPO learns nothing from. */
export function summarizeGroups(groups: readonly { rewards: readonly number[] }[]): { groups: number; zeroVarianceGroups: number; zeroVarianceShare: number; perGroup: { mean: number; std: number; min: number; max: number }[] } {
  const perGroup = groups.map((g) => {
    const s = groupStats(g.rewards);
    return { mean: s.mean, std: s.std, min: Math.min(...g.rewards), max: Math.max(...g.rewards) };
  });
  const zero = groups.filter((g) => groupStats(g.rewards).zeroVariance).length;
  return { groups: groups.length, zeroVarianceGroups: zero, zeroVarianceShare: groups.length === 0 ? 0 : zero / groups.length, perGroup };
}
