import { readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { PROJECT_ROOT } from '../config/data-dir.js';
import { createPythonRandom } from '../python/python-random.js';

// Values printed by CPython (test/fixtures/splits/make_golden.py) for every generator call the split
// builder makes, seeded with the paper's seeds: a fresh random.Random(seed) per call list.
interface GeneratorCase {
  seed: number;
  shuffle: Record<string, number[]>;
  sample: { n: number; k: number; result: number[] }[];
  randbelow: Record<string, number[]>;
  getrandbits: Record<string, number[]>;
}
const golden = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'test/fixtures/splits/python-golden.json'), 'utf8')) as {
  python: string;
  generator: GeneratorCase[];
};

describe('random.Random semantics used by the split builder (CPython golden values)', () => {
  it('covers the five split seeds', () => {
    expect(golden.generator.map((c) => c.seed)).toEqual(expect.arrayContaining([20260603, 20260623, 20260614, 20260609, 20260625]));
    expect(golden.python).toMatch(/^3\.11\./);
  });

  for (const c of golden.generator) {
    it(`seed ${c.seed}: shuffle, sample (both branches), _randbelow and getrandbits`, () => {
      for (const [n, expected] of Object.entries(c.shuffle)) {
        const items = Array.from({ length: Number(n) }, (_, i) => i);
        createPythonRandom(c.seed).shuffle(items);
        expect(items, `shuffle(range(${n}))`).toEqual(expected);
      }
      for (const s of c.sample) {
        const population = Array.from({ length: s.n }, (_, i) => i);
        expect(createPythonRandom(c.seed).sample(population, s.k), `sample(range(${s.n}), ${s.k})`).toEqual(s.result);
      }
      for (const [n, expected] of Object.entries(c.randbelow)) {
        const rng = createPythonRandom(c.seed);
        expect(expected.map(() => rng.randbelow(Number(n))), `_randbelow(${n})`).toEqual(expected);
      }
      for (const [k, expected] of Object.entries(c.getrandbits)) {
        const rng = createPythonRandom(c.seed);
        expect(expected.map(() => rng.getrandbits(Number(k))), `getrandbits(${k})`).toEqual(expected);
      }
    });
  }
});
