import { describe, expect, it } from 'vitest';

import { createPythonRandom } from './python-random.js';

// Expected values printed by CPython 3.11 (`import random; random.seed(...)`).
describe('createPythonRandom', () => {
  it('reproduces random(), shuffle, sample, uniform and getrandbits after seed(233)', () => {
    const rng = createPythonRandom(233);
    expect([rng.random(), rng.random(), rng.random()]).toEqual([0.6824769139473528, 0.6283202109809801, 0.5251745077282681]);
    const items = Array.from({ length: 20 }, (_, i) => i);
    rng.shuffle(items);
    expect(items).toEqual([18, 14, 9, 7, 10, 16, 5, 8, 13, 1, 0, 12, 11, 19, 4, 3, 2, 6, 17, 15]);
    expect(rng.sample([10.0, 20.0, 30.0, 40.0], 2)).toEqual([10.0, 20.0]);
    const big = Array.from({ length: 1000 }, (_, i) => i);
    expect(rng.sample(big, 50).slice(0, 8)).toEqual([496, 538, 646, 153, 897, 624, 722, 342]);
    expect(rng.uniform(12.5, 30.0)).toBe(22.398421848671617);
    expect(rng.getrandbits(32)).toBe(266931725);
  });

  it('seeds from every 32-bit word of the seed, and from 0', () => {
    expect(createPythonRandom(0).random()).toBe(0.8444218515250481);
    expect(createPythonRandom(2n ** 40n + 5n).random()).toBe(0.5043802970418443);
  });

  it('clone continues independently from the same state', () => {
    const a = createPythonRandom(7);
    a.random();
    const b = a.clone();
    expect(b.random()).toBe(a.random());
  });
});
