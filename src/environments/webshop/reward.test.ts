import { describe, expect, it } from 'vitest';

import type { RewardGoal, RewardProduct } from './reward.js';
import { computeReward, optionReward, typeReward } from './reward.js';

const goal: RewardGoal = {
  name: 'Tea Tree Shampoo Bottle',
  query: 'shampoo',
  productCategory: 'Beauty › Hair Care › Shampoo',
  attributes: ['tea tree', 'essential oils', 'natural ingredients'],
  goalOptions: { kind: 'list', values: ['grey', 'x-large'] },
  priceUpper: 40.0,
};
const product: RewardProduct = {
  name: 'Tea Tree Shampoo Bottle',
  title: 'Tea Tree Shampoo Bottle',
  description: '',
  bulletPoints: [],
  attributes: ['tea tree', 'essential oil', 'natural ingredients'],
  query: 'shampoo',
  productCategory: 'Beauty › Hair Care › Shampoo',
};
const chosen = new Map([['color', 'grey'], ['size', 'x-large']]);

describe('computeReward (worked examples)', () => {
  it('the exact product with the goal options at an allowed price scores 1: (3 + 2 + 1) / (3 + 2 + 1) × 1', () => {
    const r = computeReward({ product, goal, price: 35, options: chosen });
    expect(r.reward).toBe(1);
    expect(r).toMatchObject({ rType: 1, rAtt: 1, rOption: 1, rPrice: true, attributeMatches: 3, optionMatches: 2, wAtt: 0.5, wOption: 2 / 6, wPrice: 1 / 6 });
  });

  it('goal attributes found in bullets and description count: (2 + 2 + 1) / 6', () => {
    const textual = { ...product, title: 'Herbal Shampoo Bottle', attributes: [], bulletPoints: ['This shampoo has essential oils'], description: 'Made with Natural Ingredients' };
    const r = computeReward({ product: textual, goal, price: 35, options: chosen });
    expect(r.attributeMatches).toBe(2);
    expect(r.reward).toBeCloseTo(5 / 6, 12);
  });

  it('a price above the cap loses the price point: (3 + 2 + 0) / 6', () => {
    expect(computeReward({ product, goal, price: 40.01, options: chosen }).reward).toBeCloseTo(5 / 6, 12);
    expect(computeReward({ product, goal, price: 40.0, options: chosen }).reward).toBe(1);
  });

  it('counts goal options hit by some selected value: (3 + 1 + 1) / (3 + 3 + 1)', () => {
    const threeOptions = { ...goal, goalOptions: { kind: 'list' as const, values: ['grey', 'x-large', 'pack of 12'] } };
    const r = computeReward({ product, goal: threeOptions, price: 35, options: new Map([['color', 'blue'], ['size', 'x-large']]) });
    expect(r.optionMatches).toBe(1);
    expect(r.reward).toBeCloseTo(5 / 7, 12);
  });

  it('a goal without options has no option term: (3 + 1) / (3 + 0 + 1)', () => {
    const r = computeReward({ product, goal: { ...goal, goalOptions: { kind: 'list', values: [] } }, price: 35, options: new Map() });
    expect(r.reward).toBe(1);
    expect(r.rOption).toBeUndefined();
  });

  it('reads synthetic goals’ name → value options by value', () => {
    const synthetic = { ...goal, goalOptions: { kind: 'dict' as const, entries: [['color', 'grey'], ['size', 'x-large']] as [string, string][] } };
    expect(computeReward({ product, goal: synthetic, price: 35, options: chosen }).reward).toBe(1);
  });

  it('multiplies by r_type: a different product type halves the score', () => {
    const other = {
      ...product,
      name: 'BRST AC Power Cord Outlet Socket Cable Plug Lead for Panasonic SC-HT830V DVD/VCR Combo Home Theater System',
      query: 'power cord',
      productCategory: 'Electronics › Accessories › Cables',
    };
    const goalCord = { ...goal, name: 'Saireed UL Listed 2 Prong Power Cord for JBL Bar 3.1 Bar 2.1 Channel 4K Ultra HD Soundbar' };
    const r = computeReward({ product: other, goal: goalCord, price: 35, options: chosen });
    // Goal nouns: saireed ul prong power cord jbl bar bar channel ultra hd soundbar (12); shared: power, cord.
    expect(r.titleScore).toBeCloseTo(2 / 12, 12);
    expect(r.rType).toBe(0.5);
    expect(r.reward).toBeCloseTo(0.5, 12);
  });
});

describe('typeReward', () => {
  const base = { query: 'q1', productCategory: 'a › b › c', name: 'Name One' };
  it('matches categories as sets of segments, needing two in common', () => {
    expect(typeReward({ ...base, productCategory: 'b › c › a' }, base).categoryMatch).toBe(true);
    expect(typeReward({ ...base, productCategory: 'a › d › b' }, base).categoryMatch).toBe(true);
    expect(typeReward({ ...base, productCategory: 'a › a › d' }, base).categoryMatch).toBe(false);
  });

  it('scores title nouns: 6 of the goal’s 7 nouns shared', () => {
    const r = typeReward(
      { ...base, name: 'adidas Unisex-Adult D.o.n. Issue 2 Indoor Court Shoe' },
      { ...base, name: 'adidas Unisex-Adult D.o.n. Issue 2 Basketball Shoe' },
    );
    expect(r.titleScore).toBeCloseTo(6 / 7, 12);
    expect(r.rType).toBe(1);
  });

  it('drops to 0.1 below a title score of 0.1 and to 0 with no shared noun, whatever else matches', () => {
    const goal11 = { ...base, name: 'Alpha Bravo Charlie Delta Echo Foxtrot Golf Hotel India Juliett Kilo' };
    expect(typeReward({ ...base, name: 'Alpha Zulu' }, goal11).rType).toBe(0.1);
    expect(typeReward({ ...base, name: 'Zulu Yankee' }, goal11).rType).toBe(0);
  });

  it('gives a title score of 0.2 to a goal name without nouns', () => {
    expect(typeReward({ ...base, name: 'anything' }, { ...base, name: '2 of 3' }).titleScore).toBe(0.2);
  });
});

describe('optionReward', () => {
  it('normalises colours to the first listed colour word on both sides', () => {
    // "navy blue" → "blue" (blue precedes navy in the list); "dark grey" → "dark" (dark precedes grey).
    expect(optionReward(['blue'], ['navy blue']).matches).toBe(1);
    expect(optionReward(['dark grey'], ['grey']).matches).toBe(0);
  });

  it('fuzzy-matches above 85 only', () => {
    expect(optionReward(['6.76 fl oz (pack of 1)'], ['6.76 fl oz']).matches).toBe(1);
    expect(optionReward(['x-large'], ['xx-large']).matches).toBe(1);
    expect(optionReward(['small'], ['large']).matches).toBe(0);
    // Substring colour matching: both contain "ash", a listed colour.
    expect(optionReward(['machine wash'], ['hand wash']).matches).toBe(1);
  });
});
