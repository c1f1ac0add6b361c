/** Which delta is a batch's score (protocol.md §6.1). The reference score of pass/fail benchmarks is `delta_pass_rate`. */
export type RewardMetric = 'delta_pass_rate' | 'delta_average_reward';

export const REWARD_METRICS: readonly RewardMetric[] = ['delta_pass_rate', 'delta_average_reward'];
