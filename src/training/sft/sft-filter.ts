/**
 * The cold-start SFT filter (issue: teacher patches kept only if executable, complete and non-regressive)
 * and the choice of at most one candidate per packet. Pure: it reads what the reward path found about each
 * candidate and decides, so the rules can be checked case by case.
 *
 * A candidate is rejected, first reason that applies:
 * - `request_failed`: the teacher gave no answer (request failed, empty answer);
 * - `no_patch`: the teacher proposed nothing (the symbolic engineer's no-signature fallback counts here);
 * - `incomplete`: the answer lacks the response protocol's think block or patch block (or the think is blank,
 *   or a prefill answer opens a second `<think>`);
 * - `invalid_patch`: the patch does not parse or does not validate (JSON, rules, sandbox compile);
 * - `runtime_noop`: the patch validates but none of it can run in this benchmark's runtime;
 * - `missing_evaluation`: the rerun could not be completed (infrastructure failures left): no result;
 * - `inert`: installed and rerun, but no hook effect fired in any episode: it teaches nothing (`keepInert` keeps it);
 * - `negative_delta`: the rerun's delta against the stored baseline is below 0;
 * - `regressed_task`: delta ≥ 0 but a task that passed in the baseline fails with the patch (`allowRegressions` keeps it).
 * Among the candidates left, the kept one has the best delta, then the shortest assistant turn (characters),
 * then the lowest sample index; the others are `not_best`.
 */
import type { EvalStatus } from '../../episode/eval-status.js';

export const SFT_REJECTIONS = [
  'request_failed',
  'no_patch',
  'incomplete',
  'invalid_patch',
  'runtime_noop',
  'missing_evaluation',
  'inert',
  'negative_delta',
  'regressed_task',
] as const;
export type SftRejection = (typeof SFT_REJECTIONS)[number];

/** What the filter needs to know about one teacher answer. */
export interface CandidateFacts {
  sample: number;
  /** The structural rule the answer broke (think or patch block missing…), or null when it is complete. */
  incomplete: string | null;
  /** The reward path's status; null when the answer never reached it (incomplete). */
  status: EvalStatus | null;
  /** The measured delta of the metric against the stored baseline (null without a rerun). */
  delta: number | null;
  rescued: readonly number[];
  regressed: readonly number[];
  /** Length of the assistant turn that would be written. */
  chars: number;
}

export interface SftFilterOptions {
  /** Keep candidates that regress a task as long as the batch's delta is ≥ 0 (default false). */
  allowRegressions?: boolean;
  /** Keep valid patches whose rerun applied no hook effect (default false). */
  keepInert?: boolean;
}

const BY_STATUS: Partial<Record<EvalStatus, SftRejection>> = {
  engineer_request_failed_treated_as_no_patch: 'request_failed',
  no_patch_proposed: 'no_patch',
  invalid_patch_treated_as_no_patch: 'invalid_patch',
  runtime_noop_patch_treated_as_no_patch: 'runtime_noop',
  missing_evaluation: 'missing_evaluation',
  no_failures: 'missing_evaluation',
  no_scored_baseline: 'missing_evaluation',
};

/** Why a candidate cannot be an SFT row, or null when it is eligible. */
export function rejectionOf(c: CandidateFacts, options: SftFilterOptions = {}): SftRejection | null {
  if (c.status === 'engineer_request_failed_treated_as_no_patch' || c.status === 'no_patch_proposed') return BY_STATUS[c.status]!;
  if (c.incomplete !== null) return 'incomplete';
  if (c.status === null) return 'missing_evaluation';
  const byStatus = BY_STATUS[c.status];
  if (byStatus) return byStatus;
  if (c.status === 'inert' && !options.keepInert) return 'inert';
  if (c.delta === null) return 'missing_evaluation';
  if (c.delta < 0) return 'negative_delta';
  if (c.regressed.length > 0 && !options.allowRegressions) return 'regressed_task';
  return null;
}

export interface PacketSelection {
  /** Sample index of the kept candidate, or null when none is eligible. */
  kept: number | null;
  /** Per sample: its rejection, `not_best` for an eligible candidate that lost, null for the kept one. */
  verdicts: Map<number, SftRejection | 'not_best' | null>;
}

/** Filters a packet's candidates and keeps at most one: best delta, then fewest characters, then lowest sample. */
export function selectCandidate(candidates: readonly CandidateFacts[], options: SftFilterOptions = {}): PacketSelection {
  const verdicts = new Map<number, SftRejection | 'not_best' | null>();
  const eligible: CandidateFacts[] = [];
  for (const c of candidates) {
    const reason = rejectionOf(c, options);
    verdicts.set(c.sample, reason);
    if (reason === null) eligible.push(c);
  }
  const best = [...eligible].sort((a, b) => b.delta! - a.delta! || a.chars - b.chars || a.sample - b.sample)[0];
  for (const c of eligible) if (c !== best) verdicts.set(c.sample, 'not_best');
  return { kept: best?.sample ?? null, verdicts };
}
