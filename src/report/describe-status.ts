import type { EvalStatus } from '../episode/eval-status.js';

const STATUS_TEXT: Record<EvalStatus, string> = {
  scored: 'valid patch, complete rerun, and at least one hook effect applied: the delta is the batch reward',
  inert: 'valid patch and complete rerun, but no hook effect was applied in any episode: scored 0',
  invalid_patch_treated_as_no_patch: 'the patch failed validation: scored 0, as if no patch had been proposed',
  runtime_noop_patch_treated_as_no_patch: 'the patch can never change an episode at runtime: scored 0, as no patch',
  engineer_request_failed_treated_as_no_patch: 'the engineer gave no usable answer: scored 0, as no patch',
  no_patch_proposed: 'the engineer found nothing worth patching: scored 0',
  no_failures: 'every baseline task of the batch passed: nothing to repair, the engineer was not asked',
  missing_evaluation: 'the rerun could not be completed for infrastructure reasons: a missing evaluation, not a result',
  no_scored_baseline: 'no baseline episode of the batch was scored (each ended in an infrastructure failure): nothing measured, not a result',
  generated: 'generate-only run: the patch was validated and written out for a later rerun (--patch-source), not rerun here: no reward, not a result',
};

/** One sentence saying what a batch status means for its reward. */
export function describeStatus(status: EvalStatus): string {
  return STATUS_TEXT[status];
}
