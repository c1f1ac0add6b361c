import { execFileSync } from 'node:child_process';

import { describe, expect, it } from 'vitest';

import { seededSample } from './seeded-sample.js';

const hasPython = (() => {
  try {
    execFileSync('python3', ['-c', 'pass']);
    return true;
  } catch {
    return false;
  }
})();

/** Golden values computed with `random.Random(seed).sample(range(n), k)` (CPython 3.11+). */
const GOLDEN: [number, number, number, number[]][] = [
  [20260720, 60, 10, [9, 22, 58, 19, 48, 18, 46, 25, 37, 20]],
  [20260721, 20, 5, [19, 5, 12, 17, 16]],
  [7, 500, 10, [165, 485, 77, 202, 333, 24, 37, 420, 274, 48]],
];

describe('seededSample', () => {
  it('draws k distinct items, the same for the same seed', () => {
    const population = Array.from({ length: 40 }, (_, i) => i * 3);
    const a = seededSample(population, 10, 5);
    expect(new Set(a).size).toBe(10);
    expect(a.every((x) => population.includes(x))).toBe(true);
    expect(seededSample(population, 10, 5)).toEqual(a);
    expect(seededSample(population, 10, 6)).not.toEqual(a);
    expect(seededSample(population, 40, 1).sort((x, y) => x - y)).toEqual(population);
    expect(() => seededSample(population, 41, 1)).toThrow(/Cannot sample 41 of 40/);
  });

  it('gives the stored golden draws (pool strategy for n = 60 and 20, set strategy for n = 500)', () => {
    for (const [seed, n, k, expected] of GOLDEN) expect(seededSample(Array.from({ length: n }, (_, i) => i), k, seed)).toEqual(expected);
  });

  it.skipIf(!hasPython)('equals random.Random(seed).sample in python3, for both of its strategies', () => {
    for (const [seed, n, k] of [...GOLDEN, [99, 86, 10], [3, 85, 10], [11, 12, 7]] as const) {
      const py = JSON.parse(execFileSync('python3', ['-c', `import random, json; print(json.dumps(random.Random(${seed}).sample(range(${n}), ${k})))`], { encoding: 'utf8' })) as number[];
      expect(seededSample(Array.from({ length: n }, (_, i) => i), k, seed)).toEqual(py);
    }
  });
});
