/**
 * How a batch's patch ended (protocol.md §6.2, plus `inert`). Only `scored` carries a reward; every other
 * status scores 0, and `missing_evaluation` is not a result at all: the rerun could not be completed for
 * infrastructure reasons, so it is reported apart and never treated as a patch's effect.
 */
export type EvalStatus =
  /** Valid patch, complete rerun, at least one hook effect applied: the delta is the reward. */
  | 'scored'
  /** Valid patch, complete rerun, but no hook effect was applied in any episode: scored 0. */
  | 'inert'
  | 'invalid_patch_treated_as_no_patch'
  | 'runtime_noop_patch_treated_as_no_patch'
  | 'engineer_request_failed_treated_as_no_patch'
  /** The engineer found nothing worth patching (the symbolic engineer with no recurring failure). */
  | 'no_patch_proposed'
  /** The batch had no target failure: nothing to repair, scored 0 with no engineer call. */
  | 'no_failures'
  /** Infrastructure failures remained after the bounded retries: a missing evaluation, scored 0 and reported. */
  | 'missing_evaluation'
  /** Every baseline episode of the batch ended in an infrastructure failure: nothing was measured, so there is nothing to repair or compare. Not a result. */
  | 'no_scored_baseline'
  /** `improve --generate-only`: the patch was validated and written out, but not rerun: no reward, never averaged in. Not a result. */
  | 'generated';

export const EVAL_STATUSES: readonly EvalStatus[] = [
  'scored',
  'inert',
  'invalid_patch_treated_as_no_patch',
  'runtime_noop_patch_treated_as_no_patch',
  'engineer_request_failed_treated_as_no_patch',
  'no_patch_proposed',
  'no_failures',
  'missing_evaluation',
  'no_scored_baseline',
  'generated',
];
