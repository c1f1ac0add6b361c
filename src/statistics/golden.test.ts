import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { mcnemarExact } from './mcnemar.js';
import { createMersenneTwister } from './mersenne-twister.js';
import { pairedBootstrap } from './paired-bootstrap.js';
import { meanSd } from './seed-spread.js';

interface Golden {
  python: string;
  generator: { seed: number; words: Record<string, number>; random: number[]; below: Record<string, number[]> }[];
  mcnemar: { b: number; c: number; p: number; midP: number }[];
  bootstrap: {
    baseline: number[];
    patched: number[];
    resamples: number;
    confidence: number;
    seed: number;
    delta: number;
    low: number;
    high: number;
    firstMeans: number[];
  }[];
  spread: { values: number[]; mean: number; sd: number | null }[];
}

const goldenPath = fileURLToPath(new URL('../../test/fixtures/statistics/golden.json', import.meta.url));
const generatorPath = fileURLToPath(new URL('../../bench/statistics-golden/make-golden.py', import.meta.url));
const golden = JSON.parse(readFileSync(goldenPath, 'utf8')) as Golden;

describe('seeded generator = CPython random.Random (MT19937)', () => {
  it('gives the same 32-bit words, floats and randrange draws for every golden seed', () => {
    expect(golden.generator.map((g) => g.seed)).toEqual([0, 1, 20260720, 2 ** 32 + 5, 2 ** 53 - 1]);
    for (const g of golden.generator) {
      const rng = createMersenneTwister(g.seed);
      const last = Math.max(...Object.keys(g.words).map(Number));
      const words: number[] = [];
      for (let i = 0; i <= last; i++) words.push(rng.nextUint32());
      for (const [position, word] of Object.entries(g.words)) expect(words[Number(position)], `seed ${g.seed} word ${position}`).toBe(word);
      const floats = createMersenneTwister(g.seed);
      expect(g.random.map(() => floats.random())).toEqual(g.random);
      for (const [n, draws] of Object.entries(g.below)) {
        const below = createMersenneTwister(g.seed);
        expect(draws.map(() => below.below(Number(n))), `seed ${g.seed} randrange(${n})`).toEqual(draws);
      }
    }
  });
});

describe('exact McNemar test (golden values from exact rationals)', () => {
  it('covers small, large, empty, one-sided and tied discordant counts', () => {
    const keys = golden.mcnemar.map((m) => `${m.b},${m.c}`);
    for (const required of ['50,2', '102,59', '0,0', '1,0', '500,480', '1100,1000', '2600,2400']) expect(keys).toContain(required);
  });

  it('gives the correctly rounded exact p and mid-p for every case', () => {
    for (const m of golden.mcnemar) {
      const result = mcnemarExact(m.b, m.c);
      expect([result.p, result.midP], `(${m.b}, ${m.c})`).toEqual([m.p, m.midP]);
      expect(result.n).toBe(m.b + m.c);
    }
  });
});

describe('paired bootstrap (golden values from random.randrange and statistics.quantiles)', () => {
  it('draws the same resamples and the same percentile interval', () => {
    expect(golden.bootstrap.length).toBeGreaterThanOrEqual(7);
    for (const [i, g] of golden.bootstrap.entries()) {
      const ci = pairedBootstrap(g.baseline, g.patched, { resamples: g.resamples, confidence: g.confidence, seed: g.seed });
      expect(ci.delta, `case ${i} delta`).toBe(g.delta);
      expect(Math.abs(ci.low - g.low), `case ${i} low`).toBeLessThan(1e-12);
      expect(Math.abs(ci.high - g.high), `case ${i} high`).toBeLessThan(1e-12);
      expect(ci.low).toBeLessThanOrEqual(ci.high);
    }
  });

  it('resample r is the mean over n consecutive randrange(n) draws', () => {
    for (const g of golden.bootstrap) {
      const n = g.baseline.length;
      const rng = createMersenneTwister(g.seed);
      const means = g.firstMeans.map(() => {
        let sum = 0;
        for (let i = 0; i < n; i++) {
          const j = rng.below(n);
          sum += g.patched[j]! - g.baseline[j]!;
        }
        return sum / n;
      });
      expect(means).toEqual(g.firstMeans);
    }
  });

  it('uses 10,000 resamples, 95% and seed 0 when no option is given', () => {
    const g = golden.bootstrap.find((c) => c.resamples === 10_000 && c.confidence === 0.95 && c.seed === 0)!;
    const ci = pairedBootstrap(g.baseline, g.patched);
    expect([ci.resamples, ci.confidence, ci.seed]).toEqual([10_000, 0.95, 0]);
    expect(Math.abs(ci.low - g.low)).toBeLessThan(1e-12);
    expect(Math.abs(ci.high - g.high)).toBeLessThan(1e-12);
  });
});

describe('mean ± sample sd over seeds (golden values from statistics.mean / stdev)', () => {
  it('matches for n = 1, 2, 3 and more; n = 1 has no sd', () => {
    expect(golden.spread.map((s) => s.values.length)).toEqual(expect.arrayContaining([1, 2, 3, 4]));
    for (const s of golden.spread) {
      const spread = meanSd(s.values);
      expect(Math.abs(spread.mean - s.mean), `mean of ${s.values.join(',')}`).toBeLessThanOrEqual(Math.abs(s.mean) * 1e-15);
      if (s.sd === null) expect(spread.sd).toBeNull();
      else expect(Math.abs(spread.sd! - s.sd), `sd of ${s.values.join(',')}`).toBeLessThanOrEqual(s.sd * 1e-14);
    }
  });
});

const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const hasPython = python.status === 0;

describe.skipIf(!hasPython)('golden fixture is current', () => {
  it('rerunning the Python generator here gives the stored file', () => {
    const fresh = JSON.parse(execFileSync('python3', [generatorPath], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 })) as Golden;
    expect({ ...fresh, python: golden.python }).toEqual(golden);
  });
});
