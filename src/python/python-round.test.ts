import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { pyRound } from './python-round.js';

interface RoundCase {
  x: number;
  digits: number;
  rounded: number;
}

const golden = JSON.parse(readFileSync(fileURLToPath(new URL('../../test/fixtures/statistics/golden.json', import.meta.url)), 'utf8')) as { round: RoundCase[] };

describe('pyRound = Python round(x, digits) (golden values from CPython)', () => {
  it('covers exact ties, near-ties and random values', () => {
    expect(golden.round.length).toBeGreaterThan(2000);
    expect(golden.round.some((c) => c.x === 0.125 && c.digits === 2 && c.rounded === 0.12)).toBe(true);
  });

  it('gives the float Python gives, sign of zero included', () => {
    const wrong = golden.round.filter((c) => !Object.is(pyRound(c.x, c.digits), c.rounded));
    expect(wrong.map((c) => `round(${c.x}, ${c.digits}) = ${c.rounded}, got ${pyRound(c.x, c.digits)}`)).toEqual([]);
  });

  it('differs from toFixed exactly on ties, which go to the even neighbour', () => {
    expect([pyRound(0.125, 2), Number((0.125).toFixed(2))]).toEqual([0.12, 0.13]);
    expect([pyRound(2.5, 0), pyRound(3.5, 0), pyRound(-0.375, 2)]).toEqual([2, 4, -0.38]);
    expect(pyRound(2.675, 2)).toBe(2.67);
  });
});
