import { describe, expect, it } from 'vitest';

import type { PatchRejection } from '../../patch/index.js';
import { decideReward, type RerunEvidence, type RewardDecision, type RewardEvidence } from './decide-reward.js';
import { EVAL_STATUSES, type EvalStatus } from '../../episode/eval-status.js';

// Batch of four tasks: #0 and #3 pass in the baseline, #1 and #2 fail.
const baseline = new Map([[0, 1], [1, 0], [2, 0], [3, 1]]);
const common: RewardEvidence = { baseline, threshold: 1, metric: 'delta_pass_rate' };
const invalid: PatchRejection = { rule: 'hook_compile', field: 'actions[0].code', message: 'hook uses forbidden syntax: Import', stage: 'normalize', exception: 'PatchValidationError' };
const runtimeNoop: PatchRejection = { rule: 'runtime_noop', field: 'actions[0].type', message: "action 0 'add_or_edit_skill' is not active in DBBench code-hook RL", stage: 'runtime_noop', exception: null };
// The rerun rescues #1 and #2 and keeps #0 and #3: +2 passes of 4.
const rescuing = new Map([[0, 1], [1, 1], [2, 1], [3, 1]]);
const rerun = (over: Partial<RerunEvidence> = {}): RerunEvidence => ({ rewards: rescuing, infraFailures: 0, appliedEffects: 3, ...over });
const valid = { kind: 'valid' } as const;

interface Row {
  name: string;
  evidence: RewardEvidence;
  status: EvalStatus;
  validPatch: boolean;
  score: number;
  /** The measured delta_pass_rate kept in `raw`, or null when nothing was measured. */
  rawDelta: number | null;
}

const ROWS: Row[] = [
  { name: 'every baseline episode ended in an infrastructure failure', evidence: { ...common, baseline: new Map() }, status: 'no_scored_baseline', validPatch: false, score: 0, rawDelta: null },
  { name: 'every baseline task passes', evidence: { ...common, baseline: new Map([[0, 1], [1, 1]]) }, status: 'no_failures', validPatch: false, score: 0, rawDelta: null },
  { name: 'the engineer request failed', evidence: { ...common, proposal: 'request_failed' }, status: 'engineer_request_failed_treated_as_no_patch', validPatch: false, score: 0, rawDelta: null },
  { name: 'the engineer proposed no patch', evidence: { ...common, proposal: 'no_patch' }, status: 'no_patch_proposed', validPatch: false, score: 0, rawDelta: null },
  { name: 'the patch failed validation', evidence: { ...common, proposal: 'proposed', verdict: { kind: 'invalid', rejection: invalid } }, status: 'invalid_patch_treated_as_no_patch', validPatch: false, score: 0, rawDelta: null },
  { name: 'the patch is a runtime no-op', evidence: { ...common, proposal: 'proposed', verdict: { kind: 'invalid', rejection: runtimeNoop } }, status: 'runtime_noop_patch_treated_as_no_patch', validPatch: false, score: 0, rawDelta: null },
  { name: 'a rerun episode still failed for infrastructure reasons', evidence: { ...common, proposal: 'proposed', verdict: valid, rerun: rerun({ rewards: new Map([[0, 1], [1, 1], [2, 1]]), infraFailures: 1 }) }, status: 'missing_evaluation', validPatch: true, score: 0, rawDelta: 0.25 },
  { name: 'no hook effect was applied although the rerun differs', evidence: { ...common, proposal: 'proposed', verdict: valid, rerun: rerun({ appliedEffects: 0 }) }, status: 'inert', validPatch: true, score: 0, rawDelta: 0.5 },
  { name: 'a valid patch in a generate-only run (not rerun)', evidence: { ...common, proposal: 'proposed', verdict: valid, generateOnly: true }, status: 'generated', validPatch: true, score: 0, rawDelta: null },
  { name: 'a complete rerun with applied effects', evidence: { ...common, proposal: 'proposed', verdict: valid, rerun: rerun() }, status: 'scored', validPatch: true, score: 0.5, rawDelta: 0.5 },
];

describe('decideReward: one row per status', () => {
  it('covers every status of eval-status.ts exactly once', () => {
    expect(ROWS.map((r) => r.status).sort()).toEqual([...EVAL_STATUSES].sort());
  });

  it.each(ROWS)('$name → $status, credited $score', (row) => {
    const decision = decideReward(row.evidence);
    expect(decision).toBeDefined();
    const d = decision as RewardDecision;
    expect([d.status, d.validPatch, d.score]).toEqual([row.status, row.validPatch, row.score]);
    expect(d.raw === null ? null : d.raw.deltaPassRate).toBe(row.rawDelta);
  });
});

describe('decideReward: the decisions that turn a delta into a reward', () => {
  it('credits nothing to an inert patch, whatever its delta, but keeps the delta measured', () => {
    const up = decideReward({ ...common, rerun: rerun({ appliedEffects: 0 }) });
    expect(up).toMatchObject({ status: 'inert', score: 0, raw: { deltaPassRate: 0.5, patchedPass: 4, rescued: [1, 2] } });
    const down = decideReward({ ...common, rerun: rerun({ appliedEffects: 0, rewards: new Map([[0, 0], [1, 0], [2, 0], [3, 0]]) }) });
    expect(down).toMatchObject({ status: 'inert', score: 0, raw: { deltaPassRate: -0.5, regressed: [0, 3] } });
  });

  it('one applied effect is enough to credit the delta; the metric picks which delta', () => {
    expect(decideReward({ ...common, rerun: rerun({ appliedEffects: 1 }) })).toMatchObject({ status: 'scored', score: 0.5 });
    const shaped = decideReward({ ...common, metric: 'delta_average_reward', rerun: rerun({ rewards: new Map([[0, 1], [1, 0.5], [2, 0], [3, 1]]) }) });
    expect(shaped.status).toBe('scored');
    expect(shaped.score).toBeCloseTo(0.125, 12);
    expect(shaped.raw.deltaPassRate).toBe(0);
  });

  it('credits a regression as a negative score', () => {
    const d = decideReward({ ...common, rerun: rerun({ rewards: new Map([[0, 0], [1, 0], [2, 0], [3, 1]]) }) });
    expect([d.status, d.score]).toEqual(['scored', -0.25]);
  });

  it('never scores a rerun with infrastructure failures, even one whose usable tasks are all there', () => {
    // An infrastructure failure is a missing evaluation, not a regression of the task that failed.
    const d = decideReward({ ...common, rerun: rerun({ infraFailures: 1 }) });
    expect(d).toMatchObject({ status: 'missing_evaluation', validPatch: true, score: 0, raw: { deltaPassRate: 0.5 } });
    const incomplete = decideReward({ ...common, rerun: rerun({ rewards: new Map([[0, 1], [1, 1], [2, 1]]) }) });
    // Task #3 has no rerun result: the measured 0.25 says nothing about it, so it is not credited.
    expect(incomplete).toMatchObject({ status: 'missing_evaluation', score: 0, raw: { deltaPassRate: 0.25, regressed: [] } });
  });

  it('uses the pass threshold for no_failures', () => {
    const shaped = new Map([[0, 0.75], [1, 0.9]]);
    expect(decideReward({ ...common, baseline: shaped, threshold: 0.7 })?.status).toBe('no_failures');
    expect(decideReward({ ...common, baseline: shaped, threshold: 0.8 })).toBeUndefined();
    // No scored baseline task is not "every task passed": nothing was measured.
    expect(decideReward({ ...common, baseline: new Map() })?.status).toBe('no_scored_baseline');
  });

  it('reads the stages in order: the first that ends the batch decides, later ones are ignored', () => {
    expect(decideReward({ ...common, baseline: new Map([[0, 1]]), proposal: 'request_failed', rerun: rerun() })?.status).toBe('no_failures');
    expect(decideReward({ ...common, proposal: 'request_failed', verdict: valid, rerun: rerun() })?.status).toBe('engineer_request_failed_treated_as_no_patch');
    expect(decideReward({ ...common, proposal: 'no_patch', rerun: rerun() })?.status).toBe('no_patch_proposed');
    const rejected = decideReward({ ...common, proposal: 'proposed', verdict: { kind: 'invalid', rejection: invalid }, rerun: rerun() });
    expect(rejected).toMatchObject({ status: 'invalid_patch_treated_as_no_patch', validPatch: false, score: 0 });
    // A rerun that was measured stays visible even when an earlier stage decided.
    expect(rejected?.raw?.deltaPassRate).toBe(0.5);
  });

  it('generate-only changes only what a valid patch ends as: earlier stages still decide', () => {
    expect(decideReward({ ...common, baseline: new Map([[0, 1]]), generateOnly: true })?.status).toBe('no_failures');
    expect(decideReward({ ...common, proposal: 'no_patch', generateOnly: true })?.status).toBe('no_patch_proposed');
    expect(decideReward({ ...common, proposal: 'proposed', verdict: { kind: 'invalid', rejection: invalid }, generateOnly: true })?.status).toBe('invalid_patch_treated_as_no_patch');
    expect(decideReward({ ...common, proposal: 'proposed', generateOnly: true })).toBeUndefined();
  });

  it('is undecided until a stage ends the batch', () => {
    expect(decideReward(common)).toBeUndefined();
    expect(decideReward({ ...common, proposal: 'proposed' })).toBeUndefined();
    expect(decideReward({ ...common, proposal: 'proposed', verdict: valid })).toBeUndefined();
  });
});
