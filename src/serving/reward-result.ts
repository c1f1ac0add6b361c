import type { EvalStatus } from '../episode/eval-status.js';
import type { RewardDecision } from '../evaluation/improve/decide-reward.js';

/** One reward as the service answers it (the shared HTTP contract's `Result`). */
export interface RewardResult {
  job_id: string;
  state: 'done' | 'queued' | 'running';
  eval_key: string;
  reward?: number;
  status?: EvalStatus;
  /** Whether the reward is a result: false for a missing evaluation (and a baseline with nothing scored), which trainers mask. */
  scored?: boolean;
  /** The measured delta of the rerun (also when it is not credited, e.g. an inert patch); null without a rerun. */
  delta?: number | null;
  baseline_pass?: number;
  patched_pass?: number | null;
  rescued?: number;
  regressed?: number;
  /** Why the patch was rejected, when it was. */
  rejection?: string | null;
  cached?: boolean;
  error?: string | null;
}

/** What a finished job keeps (persisted): everything of the answer but the per-request fields. */
export type FinishedReward = Required<Pick<RewardResult, 'reward' | 'status' | 'scored' | 'delta' | 'baseline_pass' | 'patched_pass' | 'rescued' | 'regressed' | 'rejection' | 'error'>>;

const NOT_A_RESULT: ReadonlySet<EvalStatus> = new Set(['missing_evaluation', 'no_scored_baseline']);

/** The reward of a decision of the reward path, as improve credits it. */
export function finishedReward(decision: RewardDecision, baselinePass: number, rejection: string | null, error: string | null = null): FinishedReward {
  const raw = decision.raw;
  return {
    reward: decision.score,
    status: decision.status,
    scored: !NOT_A_RESULT.has(decision.status),
    delta: raw ? raw.score : null,
    baseline_pass: raw ? raw.baselinePass : baselinePass,
    patched_pass: raw ? raw.patchedPass : null,
    rescued: raw ? raw.rescued.length : 0,
    regressed: raw ? raw.regressed.length : 0,
    rejection,
    error,
  };
}

/** A job that could not be evaluated at all (the reward path failed): reported as a missing evaluation, never scored. */
export function failedReward(baselinePass: number, error: string): FinishedReward {
  return { reward: 0, status: 'missing_evaluation', scored: false, delta: null, baseline_pass: baselinePass, patched_pass: null, rescued: 0, regressed: 0, rejection: null, error };
}
