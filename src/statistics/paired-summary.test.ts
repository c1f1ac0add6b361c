import { describe, expect, it } from 'vitest';

import { formatPairedSummary, formatPValue, formatSeedSpread } from './format-statistics.js';
import { mcnemarExact } from './mcnemar.js';
import { pairedPassesFromCounts, summarizePairedPasses, summarizePairedScores } from './paired-summary.js';
import { meanSd } from './seed-spread.js';

describe('summarizePairedPasses', () => {
  const { baseline, patched } = pairedPassesFromCounts({ tasks: 490, baselinePass: 158, rescued: 50, regressed: 2 });

  it('builds tasks in the canonical order with the given counts', () => {
    expect(baseline.length).toBe(490);
    expect(baseline.filter(Boolean).length).toBe(158);
    expect(patched.filter(Boolean).length).toBe(206);
    expect(baseline.slice(154, 160).map((b, i) => [b, patched[154 + i]])).toEqual([
      [true, true], [true, true], [true, false], [true, false], [false, true], [false, true],
    ]);
  });

  it('gives rates, delta, interval and the McNemar test on rescued (b) and regressed (c) tasks', () => {
    const s = summarizePairedPasses(baseline, patched, { resamples: 2000, seed: 1 });
    expect(s.kind).toBe('pass');
    expect([s.n, s.baseline, s.patched, s.delta]).toEqual([490, 158 / 490, 206 / 490, 48 / 490]);
    expect(s.ci).toMatchObject({ confidence: 0.95, resamples: 2000, seed: 1, method: 'paired-bootstrap-percentile' });
    expect(s.ci.low).toBeLessThan(s.delta);
    expect(s.mcnemar).toEqual(mcnemarExact(50, 2));
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });

  it('counts rescued and regressed from the outcomes whatever their order', () => {
    const s = summarizePairedPasses([true, false, false, true, false], [false, true, true, true, false], { resamples: 10 });
    expect(s.mcnemar).toMatchObject({ b: 2, c: 1, n: 3 });
  });

  it('rejects counts that do not fit and unpaired arms', () => {
    expect(() => pairedPassesFromCounts({ tasks: 10, baselinePass: 5, rescued: 6, regressed: 0 })).toThrow(/do not fit in 10 tasks/);
    expect(() => pairedPassesFromCounts({ tasks: 10, baselinePass: 5, rescued: 0, regressed: 6 })).toThrow(/do not fit/);
    expect(() => pairedPassesFromCounts({ tasks: 10, baselinePass: 1.5, rescued: 0, regressed: 0 })).toThrow(/baselinePass must be a non-negative integer/);
    expect(() => summarizePairedPasses([true], [true, false])).toThrow(/got 1 and 2/);
  });
});

describe('summarizePairedScores', () => {
  it('has an interval but no McNemar test', () => {
    const s = summarizePairedScores([0.2, 0.5, 1, 0], [0.4, 0.5, 1, 0.5], { resamples: 500 });
    expect(s.kind).toBe('score');
    expect(s.delta).toBeCloseTo(0.175, 12);
    expect(s.mcnemar).toBeNull();
  });
});

describe('mcnemarExact', () => {
  it('is symmetric in b and c and never exceeds 1', () => {
    expect(mcnemarExact(59, 102).p).toBe(mcnemarExact(102, 59).p);
    expect(mcnemarExact(7, 7)).toEqual({ b: 7, c: 7, n: 14, p: 1, midP: 1 });
    expect(mcnemarExact(0, 0)).toEqual({ b: 0, c: 0, n: 0, p: 1, midP: 1 });
  });

  it('rejects negative or fractional counts', () => {
    expect(() => mcnemarExact(-1, 2)).toThrow(/b = -1/);
    expect(() => mcnemarExact(1, 2.5)).toThrow(/c = 2.5/);
  });
});

describe('meanSd', () => {
  it('has no sd for one seed, and the sample sd (n − 1) for more', () => {
    expect(meanSd([0.089])).toEqual({ n: 1, mean: 0.089, sd: null, values: [0.089] });
    expect(meanSd([1, 3]).sd).toBeCloseTo(Math.SQRT2, 15);
    expect(meanSd([106, 135, 99]).sd).toBeCloseTo(19.0875177, 6);
  });

  it('rejects no values and non-finite values', () => {
    expect(() => meanSd([])).toThrow(/at least one value/);
    expect(() => meanSd([1, Number.POSITIVE_INFINITY])).toThrow(/Value 1 is not a finite number/);
  });
});

describe('formatters', () => {
  it('prints a pass delta with its interval and McNemar test', () => {
    const s = summarizePairedPasses(...arms(490, 158, 50, 2), { resamples: 2000, seed: 0 });
    const line = formatPairedSummary(s);
    expect(line).toMatch(/^\+9\.8 pp \[95% CI \+\d+\.\d, \+\d+\.\d\], McNemar p=6\.1e-13 \(b=50, c=2\)$/);
    expect(formatPairedSummary(s, { midP: true })).toContain('McNemar p=6.1e-13, mid-p=3.2e-13 (b=50, c=2)');
  });

  it('prints the example layout exactly for a fixed summary', () => {
    const line = formatPairedSummary({
      kind: 'pass', n: 1270, baseline: 0.433, patched: 0.522, delta: 0.0892,
      ci: { low: 0.0614, high: 0.1162, confidence: 0.95, resamples: 10_000, seed: 0, method: 'paired-bootstrap-percentile' },
      mcnemar: { b: 50, c: 2, n: 52, p: 0.0031, midP: 0.002 },
    });
    expect(line).toBe('+8.9 pp [95% CI +6.1, +11.6], McNemar p=0.003 (b=50, c=2)');
  });

  it('uses U+2212 for negative values and keeps three decimals for scores', () => {
    const s = summarizePairedScores([0.5, 0.5, 0.5], [0.4, 0.45, 0.5], { resamples: 200 });
    expect(formatPairedSummary(s)).toMatch(/^−0\.050 \[95% CI −0\.\d{3}, [+−]0\.\d{3}\]$/);
  });

  it('prints mean ± sd over seeds, or says there is no sd for one seed', () => {
    expect(formatSeedSpread(meanSd([106 / 1270, 135 / 1270, 99 / 1270]))).toBe('+8.9 ± 1.5 pp (n=3)');
    expect(formatSeedSpread(meanSd([-53 / 1270, -88 / 1270, -24 / 1270]))).toBe('−4.3 ± 2.5 pp (n=3)');
    expect(formatSeedSpread(meanSd([0.05]))).toBe('+5.0 pp (n=1, no sd)');
    expect(formatSeedSpread(meanSd([113, 120]), { unit: 'score', digits: 2 })).toBe('+116.50 ± 4.95 (n=2)');
  });

  it('prints p-values with three decimals, exponents below 0.001, and a bound at underflow', () => {
    expect([formatPValue(1), formatPValue(0.0476), formatPValue(0.000876), formatPValue(0)]).toEqual(['1.000', '0.048', '8.8e-4', '<5e-324']);
  });
});

function arms(tasks: number, baselinePass: number, rescued: number, regressed: number): [boolean[], boolean[]] {
  const { baseline, patched } = pairedPassesFromCounts({ tasks, baselinePass, rescued, regressed });
  return [baseline, patched];
}
