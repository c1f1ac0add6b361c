import { describe, expect, it } from 'vitest';

import type { EpisodeRecord } from '../episode/index.js';
import { improveSuccessAt2 } from './improve-success-at-2.js';

/** A record as Reflection leaves it: a failed first episode may carry its second episode's outcome. */
const rec = (index: number, outcome: string, retry?: string): EpisodeRecord =>
  ({ task: { index }, outcome, reward: outcome === 'success' ? 1 : 0, detail: retry ? { reflection: { text: 'r', retry: { outcome: retry } } } : {} }) as unknown as EpisodeRecord;

describe('improveSuccessAt2', () => {
  // Baseline: task 0 passes, 1 is rescued by its second episode, 2 and 3 fail twice.
  const baseline = [rec(0, 'success'), rec(1, 'failure', 'success'), rec(2, 'failure', 'failure'), rec(3, 'failure', 'failure')];
  // The patched rerun of tasks 2 and 3: task 2 now passes at once, task 3 is rescued by its second episode.
  const rerun = [rec(2, 'success'), rec(3, 'failure', 'success')];

  it('counts the whole baseline, and per batch its tasks before and with the installed patch', () => {
    const at2 = improveSuccessAt2(baseline, [
      { tag: 'b0', status: 'no_failures', tasks: [0, 1], rerun: null },
      { tag: 'b1', status: 'scored', tasks: [2, 3], rerun },
    ]);
    expect(at2.baseline).toMatchObject({ tasks: 4, success1: 1, success2: 2, retried: 3, rescued: 1 });
    expect(at2.batches[0]).toMatchObject({ tag: 'b0', baseline: { tasks: 2, success2: 2 }, patched: { tasks: 2, success2: 2 } });
    expect(at2.batches[1]!.baseline).toMatchObject({ tasks: 2, success1: 0, success2: 0 });
    expect(at2.batches[1]!.patched).toMatchObject({ tasks: 2, success1: 1, success2: 2, retried: 1, rescued: 1 });
  });

  it('an inert patch was installed (its rerun counts); a rejected one had no intervention (the baseline stands)', () => {
    const inert = improveSuccessAt2(baseline, [{ tag: 'b1', status: 'inert', tasks: [2, 3], rerun }]);
    expect(inert.batches[0]!.patched.success2).toBe(2);
    const rejected = improveSuccessAt2(baseline, [{ tag: 'b1', status: 'invalid_patch_treated_as_no_patch', tasks: [2, 3], rerun }]);
    expect(rejected.batches[0]!.patched).toEqual(rejected.batches[0]!.baseline);
  });
});
