import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';

import { buildGoalSet, drawPriceCap } from './goals.js';
import { loadCatalogue } from './load-catalogue.js';
import { createPythonRandom } from '../../python/python-random.js';
import { writeTestCatalogue } from './test-catalogue.js';

const dir = writeTestCatalogue({ human: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const { products } = loadCatalogue({ dataDir: dir, goals: 'human' });

// Expected values from CPython 3.11 running the same sequence of random calls after random.seed(233).
describe('buildGoalSet', () => {
  it('builds human goals: one per instruction with attributes, price clause, seed-233 order', () => {
    const set = buildGoalSet({ products, mode: 'human' });
    expect(set.skippedInstructions).toBe(1);
    expect(set.prices.get('B000SHOE02')).toBe(53.63953827894706);
    expect(set.goals.map((g) => [g.asin, g.instructionText, g.priceUpper])).toEqual([
      ['B000TEA003', 'tea tree shampoo, and price lower than 50.00 dollars', 50],
      ['B000SHOE01', 'I need black running shoes in size 10, and price lower than 70.00 dollars', 70],
    ]);
    expect(set.goals[1]!.goalOptions).toEqual({ kind: 'list', values: ['black', '10'] });
    expect(set.goals.every((g) => g.weight === 1 && g.hasPriceCap)).toBe(true);
  });

  it('builds synthetic goals: every option combination, sorted option names, inverse-frequency weights', () => {
    const set = buildGoalSet({ products, mode: 'synthetic' });
    const summary = set.goals.map((g) => [g.asin, ...(g.goalOptions.kind === 'dict' ? g.goalOptions.entries.map(([, v]) => v) : [])]);
    expect(summary).toEqual([
      ['B000SHOE01', 'navy blue', '11'],
      ['B000TEA003'],
      ['B000SHOE01', 'black | red', '9'],
      ['B000SHOE01', 'black | red', '10'],
      ['B000SHOE01', 'navy blue', '10'],
      ['B000SHOE02', '8'],
      ['B000SHOE02', '7'],
      ['B000SHOE01', 'navy blue', '9'],
      ['B000SHOE01', 'black | red', '11'],
    ]);
    const first = set.goals[0]!;
    expect(first.instructionText).toBe('i want breathable running shoes with color: navy blue, and size: 11, and price lower than 70.00 dollars');
    expect(first.weight).toBeCloseTo(1 / 6, 15);
    expect(set.goals.find((g) => g.asin === 'B000SHOE02')!.priceUpper).toBe(90);
    expect(set.goals[1]!.instructionText).toBe('tea tree shampoo please, and price lower than 30.00 dollars');
  });

  it('changes order with the goal seed and prices with the price seed', () => {
    const other = buildGoalSet({ products, mode: 'synthetic', goalSeed: 1, priceSeed: 233 });
    expect(other.goals.map((g) => g.asin)).not.toEqual(buildGoalSet({ products, mode: 'synthetic' }).goals.map((g) => g.asin));
    expect(buildGoalSet({ products, mode: 'synthetic', priceSeed: 5 }).prices.get('B000SHOE02')).not.toBe(53.63953827894706);
  });
});

describe('drawPriceCap', () => {
  it('needs two multiples of 10 above the price', () => {
    expect(drawPriceCap(985, createPythonRandom(1))).toEqual({ priceUpper: 1000000, hasPriceCap: false, text: '' });
    expect(drawPriceCap(975, createPythonRandom(1)).priceUpper).toBe(990);
  });
});
