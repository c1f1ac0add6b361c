import { describe, expect, it } from 'vitest';

import { rejectionOf, selectCandidate, type CandidateFacts } from './sft-filter.js';

const scored = (sample: number, delta: number, extra: Partial<CandidateFacts> = {}): CandidateFacts => ({
  sample, incomplete: null, status: 'scored', delta, rescued: delta > 0 ? [1] : [], regressed: [], chars: 100, ...extra,
});

describe('SFT filter: one reason per rejected candidate', () => {
  const cases: [string, CandidateFacts, ReturnType<typeof rejectionOf>, { allowRegressions?: boolean; keepInert?: boolean }?][] = [
    ['no answer', { ...scored(0, 0), status: 'engineer_request_failed_treated_as_no_patch', delta: null }, 'request_failed'],
    ['nothing proposed', { ...scored(0, 0), status: 'no_patch_proposed', delta: null }, 'no_patch'],
    ['no patch block', { ...scored(0, 0), incomplete: 'missing_patch_block', status: null, delta: null }, 'incomplete'],
    ['no think block', { ...scored(0, 0), incomplete: 'missing_think_block', status: null, delta: null }, 'incomplete'],
    ['broken JSON', { ...scored(0, 0), status: 'invalid_patch_treated_as_no_patch', delta: null }, 'invalid_patch'],
    ['runtime no-op', { ...scored(0, 0), status: 'runtime_noop_patch_treated_as_no_patch', delta: null }, 'runtime_noop'],
    ['rerun incomplete', { ...scored(0, 0.3), status: 'missing_evaluation' }, 'missing_evaluation'],
    ['no hook effect', { ...scored(0, 0), status: 'inert' }, 'inert'],
    ['no hook effect, kept on request', { ...scored(0, 0), status: 'inert' }, null, { keepInert: true }],
    ['worse than the baseline', scored(0, -0.1, { regressed: [4] }), 'negative_delta'],
    ['worse than the baseline, regressions allowed', scored(0, -0.1, { regressed: [4] }), 'negative_delta', { allowRegressions: true }],
    ['a task regressed at delta 0', scored(0, 0, { rescued: [2], regressed: [4] }), 'regressed_task'],
    ['a task regressed at delta > 0', scored(0, 0.1, { rescued: [2, 3], regressed: [4] }), 'regressed_task'],
    ['a task regressed, regressions allowed', scored(0, 0.1, { rescued: [2, 3], regressed: [4] }), null, { allowRegressions: true }],
    ['delta 0, nothing regressed', scored(0, 0), null],
    ['positive delta', scored(0, 0.2), null],
  ];
  it.each(cases)('%s', (_name, facts, expected, options) => {
    expect(rejectionOf(facts, options)).toBe(expected);
  });
});

describe('SFT selection: at most one per packet', () => {
  it('keeps the best delta', () => {
    const s = selectCandidate([scored(0, 0.1), scored(1, 0.3), scored(2, 0.2)]);
    expect(s.kept).toBe(1);
    expect([...s.verdicts]).toEqual([[0, 'not_best'], [1, null], [2, 'not_best']]);
  });

  it('breaks a delta tie by the shorter assistant turn, then by the lower sample', () => {
    expect(selectCandidate([scored(0, 0.2, { chars: 900 }), scored(1, 0.2, { chars: 400 }), scored(2, 0.2, { chars: 700 })]).kept).toBe(1);
    expect(selectCandidate([scored(3, 0.2, { chars: 400 }), scored(1, 0.2, { chars: 400 })]).kept).toBe(1);
  });

  it('never keeps a rejected candidate, however good its delta', () => {
    const s = selectCandidate([scored(0, 0.9, { regressed: [5] }), scored(1, 0.5, { status: 'missing_evaluation' }), scored(2, 0.1)]);
    expect(s.kept).toBe(2);
    expect(s.verdicts.get(0)).toBe('regressed_task');
    expect(s.verdicts.get(1)).toBe('missing_evaluation');
  });

  it('keeps none when every candidate is rejected', () => {
    const s = selectCandidate([scored(0, -0.2), { ...scored(1, 0), incomplete: 'missing_patch_block', status: null, delta: null }]);
    expect(s.kept).toBeNull();
    expect([...s.verdicts.values()]).toEqual(['negative_delta', 'incomplete']);
  });
});
