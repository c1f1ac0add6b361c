import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';

import { playAllGoldPurchases, playGoldPurchase } from './gold-purchase.js';
import { writeTestCatalogue } from './test-catalogue.js';
import { loadWebShopEngine } from './webshop-engine.js';

const dir = writeTestCatalogue({ human: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('playGoldPurchase', () => {
  it('searches, opens the goal product, picks the goal options and buys (synthetic goals)', () => {
    const engine = loadWebShopEngine({ dataDir: dir, goals: 'synthetic' });
    const report = playAllGoldPurchases(engine);
    expect(report).toMatchObject({ scored: 9, total: 9, misses: [] });
    expect(report.steps).toBeGreaterThan(9 * 3);
  });

  it('maps human goal options (values without names) onto the product’s option values', () => {
    const engine = loadWebShopEngine({ dataDir: dir, goals: 'human' });
    const index = engine.goalSet.goals.findIndex((g) => g.asin === 'B000SHOE01');
    const result = playGoldPurchase(engine, index);
    // "black" → "black | red" (both normalise to the colour "black"), "10" → "10".
    expect(result).toMatchObject({ reward: 1, query: 'Trail Running Shoe for Men, Breathable Mesh' });
    expect(result.rewardInfo).toMatchObject({ optionMatches: 2, attributeMatches: 1 });
  });
});
