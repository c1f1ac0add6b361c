import { describe, expect, it } from 'vitest';

import { createMersenneTwister } from './mersenne-twister.js';
import { MAX_BOOTSTRAP_RESAMPLES, pairedBootstrap } from './paired-bootstrap.js';
import { pairedPassesFromCounts } from './paired-summary.js';

/** 0/1 outcomes with the given counts (see pairedPassesFromCounts). */
function passes(tasks: number, baselinePass: number, rescued: number, regressed: number): { baseline: number[]; patched: number[] } {
  const { baseline, patched } = pairedPassesFromCounts({ tasks, baselinePass, rescued, regressed });
  return { baseline: baseline.map(Number), patched: patched.map(Number) };
}

describe('pairedBootstrap', () => {
  const { baseline, patched } = passes(490, 158, 50, 2);

  it('is reproducible with a seed and moves with another seed', () => {
    const a = pairedBootstrap(baseline, patched, { seed: 20260720, resamples: 2000 });
    const b = pairedBootstrap(baseline, patched, { seed: 20260720, resamples: 2000 });
    expect(b).toEqual(a);
    // Pass/fail means sit on a lattice of k/n, so two seeds can share an interval; scores cannot.
    const scores = createMersenneTwister(5);
    const base = Array.from({ length: 300 }, () => scores.random());
    const pat = base.map((x) => Math.min(1, x + scores.random() * 0.1));
    const c = pairedBootstrap(base, pat, { seed: 20260720, resamples: 2000 });
    const d = pairedBootstrap(base, pat, { seed: 20260721, resamples: 2000 });
    expect(d.delta).toBe(c.delta);
    expect(d.low).not.toBe(c.low);
    expect(d.high).not.toBe(c.high);
    expect(pairedBootstrap(base, pat, { seed: 20260721, resamples: 2000 })).toEqual(d);
  });

  it('contains the point estimate, which is the mean paired difference', () => {
    const ci = pairedBootstrap(baseline, patched, { resamples: 2000 });
    expect(ci.delta).toBeCloseTo(48 / 490, 15);
    expect(ci.low).toBeLessThan(ci.delta);
    expect(ci.high).toBeGreaterThan(ci.delta);
  });

  it('narrows with more tasks at the same rates (about 1/sqrt(n))', () => {
    const small = passes(100, 40, 10, 2);
    const large = passes(1000, 400, 100, 20);
    const w100 = width(pairedBootstrap(small.baseline, small.patched, { resamples: 4000 }));
    const w1000 = width(pairedBootstrap(large.baseline, large.patched, { resamples: 4000 }));
    expect(w1000).toBeLessThan(w100 / 2.5);
    expect(w1000).toBeGreaterThan(w100 / 4);
  });

  it('widens with the confidence level', () => {
    const w90 = width(pairedBootstrap(baseline, patched, { resamples: 4000, confidence: 0.9 }));
    const w99 = width(pairedBootstrap(baseline, patched, { resamples: 4000, confidence: 0.99 }));
    expect(w99).toBeGreaterThan(w90 * 1.3);
  });

  it('has a zero-width interval when every task changes by the same amount', () => {
    const ci = pairedBootstrap([0, 0, 0, 1], [1, 1, 1, 2], { resamples: 50 });
    expect([ci.low, ci.delta, ci.high]).toEqual([1, 1, 1]);
  });

  it('covers the true delta about as often as its confidence level says', () => {
    // Synthetic population: each task is regressed (5%), unchanged (85%) or rescued (10%); true delta 0.05.
    const data = createMersenneTwister(424242);
    let covered = 0;
    const trials = 200;
    for (let t = 0; t < trials; t++) {
      const base: number[] = [];
      const pat: number[] = [];
      for (let i = 0; i < 200; i++) {
        const u = data.random();
        base.push(u < 0.05 ? 1 : 0);
        pat.push(u >= 0.05 && u < 0.15 ? 1 : 0);
      }
      const ci = pairedBootstrap(base, pat, { resamples: 500, seed: t });
      if (ci.low <= 0.05 && 0.05 <= ci.high) covered++;
    }
    expect(covered / trials).toBeGreaterThan(0.9);
    expect(covered / trials).toBeLessThan(0.99);
  });

  it('rejects unpaired, empty or non-finite input and out-of-range options with a ConfigError', () => {
    const bad: [() => unknown, RegExp][] = [
      [() => pairedBootstrap([1, 0], [1]), /one baseline and one patched value per task; got 2 and 1/],
      [() => pairedBootstrap([], []), /at least one task/],
      [() => pairedBootstrap([0, Number.NaN], [1, 1]), /Task 1 has a non-finite outcome/],
      [() => pairedBootstrap([0], [1], { resamples: 0 }), /resamples must be an integer from 1 to 1000000/],
      [() => pairedBootstrap([0], [1], { resamples: MAX_BOOTSTRAP_RESAMPLES + 1 }), /resamples/],
      [() => pairedBootstrap([0], [1], { confidence: 1 }), /strictly between 0 and 1/],
      [() => pairedBootstrap([0], [1], { seed: -1 }), /non-negative integer/],
    ];
    for (const [call, message] of bad) expect(call).toThrow(expect.objectContaining({ code: 'config_error', message: expect.stringMatching(message) }));
  });
});

function width(ci: { low: number; high: number }): number {
  return ci.high - ci.low;
}
