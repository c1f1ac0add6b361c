import { noPatchStatus, type PatchRejection } from '../../patch/index.js';
import { computeBatchReward, type BatchReward, type RewardMetric } from './batch-reward.js';
import type { EvalStatus } from '../../episode/eval-status.js';

/** What the patched rerun of a batch gave, as far as the reward needs it. */
export interface RerunEvidence {
  /** Rewards of the rerun episodes that ended for an agent-caused reason, by task index. */
  rewards: ReadonlyMap<number, number>;
  /** Rerun episodes that still ended in an infrastructure failure after the bounded retries. */
  infraFailures: number;
  /** Hook effects applied in the rerun, over all episodes (ignored effects and faults do not count). */
  appliedEffects: number;
}

/**
 * Everything one batch's reward depends on, stage by stage. Stages are read in order and the first one that
 * ends the batch decides, so a caller passes what it has so far and gets either the decision or `undefined`
 * ("not decided yet: run the next stage"). With a rerun there is always a decision.
 */
export interface RewardEvidence {
  /** Stored baseline rewards of the batch's tasks, baseline infrastructure failures already left out. */
  baseline: ReadonlyMap<number, number>;
  threshold: number;
  metric: RewardMetric;
  /** What the engineer gave: no answer at all, an explicit "nothing to patch", or a proposal to validate. */
  proposal?: 'request_failed' | 'no_patch' | 'proposed';
  /** The validation verdict of the proposal (a `PatchVerdict` fits). */
  verdict?: { kind: 'valid' } | { kind: 'invalid'; rejection: PatchRejection };
  rerun?: RerunEvidence;
  /** `improve --generate-only`: a valid patch is not rerun, so it ends as `generated` (no reward, not a result). */
  generateOnly?: boolean;
}

/** The status of a batch and the reward credited to its patch. */
export interface RewardDecision {
  status: EvalStatus;
  validPatch: boolean;
  /** The credited reward: the measured delta when `scored`, 0 for every other status. */
  score: number;
  /** The measured deltas, kept whenever a rerun was measured (also when they are not credited). */
  raw: BatchReward | null;
}

/** Evidence that always ends in a decision: an engineer with nothing to validate, a rejected patch, or a rerun. */
export type TerminalEvidence =
  | { proposal: 'request_failed' | 'no_patch' }
  | { verdict: { kind: 'invalid'; rejection: PatchRejection } }
  | { verdict: { kind: 'valid' }; generateOnly: true }
  | { rerun: RerunEvidence };

/**
 * The one reward decision of Harness-R1 batches (protocol.md §6.1–6.2, plus `inert`), shared by every
 * caller that turns a rerun into a reward. Stages in order, the first that ends the batch decides:
 * - no baseline task scored at all (each ended in an infrastructure failure) → `no_scored_baseline`:
 *   nothing was measured, so the batch is neither "solved" nor repairable;
 * - no baseline task below the threshold → `no_failures` (nothing to repair);
 * - engineer request failed / no patch proposed / patch rejected (invalid or runtime no-op) → that status;
 * - a valid patch in a generate-only run → `generated`: written out, never rerun, so neither scored nor a result;
 * - a rerun with infrastructure failures left, or with fewer usable tasks than the baseline →
 *   `missing_evaluation`: not a result, so nothing is credited, whatever the measured delta;
 * - a complete rerun where no hook effect was applied → `inert`: any delta is noise, 0 is credited;
 * - otherwise `scored`, credited with the metric's delta against the stored baseline.
 * Only `scored` credits a reward; `raw` keeps the measured deltas whenever a rerun was given.
 */
export function decideReward(evidence: RewardEvidence & { rerun: RerunEvidence }): RewardDecision & { raw: BatchReward };
export function decideReward(evidence: RewardEvidence & TerminalEvidence): RewardDecision;
export function decideReward(evidence: RewardEvidence): RewardDecision | undefined;
export function decideReward(evidence: RewardEvidence): RewardDecision | undefined {
  const { baseline, threshold, metric } = evidence;
  const measured = evidence.rerun && { ...evidence.rerun, raw: computeBatchReward({ baseline, patched: evidence.rerun.rewards, threshold, metric }) };
  const noScore = (status: EvalStatus): RewardDecision => ({ status, validPatch: false, score: 0, raw: measured?.raw ?? null });
  if (baseline.size === 0) return noScore('no_scored_baseline');
  if ([...baseline.values()].every((r) => r >= threshold)) return noScore('no_failures');
  if (evidence.proposal === 'request_failed') return noScore('engineer_request_failed_treated_as_no_patch');
  if (evidence.proposal === 'no_patch') return noScore('no_patch_proposed');
  if (evidence.verdict?.kind === 'invalid') return noScore(noPatchStatus(evidence.verdict.rejection));
  if (evidence.generateOnly && evidence.verdict?.kind === 'valid') return { status: 'generated', validPatch: true, score: 0, raw: null };
  if (!measured) return undefined;
  const { raw } = measured;
  if (measured.infraFailures > 0 || measured.rewards.size < baseline.size) return { status: 'missing_evaluation', validPatch: true, score: 0, raw };
  if (measured.appliedEffects === 0) return { status: 'inert', validPatch: true, score: 0, raw };
  return { status: 'scored', validPatch: true, score: raw.score, raw };
}
