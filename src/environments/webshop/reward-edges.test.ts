import { describe, expect, it } from 'vitest';

import { tokenSetRatio } from './token-set-ratio.js';
import { attributeReward, computeReward, optionReward, type RewardGoal, type RewardProduct } from './reward.js';

// Edges of WebShop's attribute and option rewards (web_agent_site/engine/goal.py): fuzzy matches need a
// token_set_ratio strictly above 85; a goal attribute may also be a substring of the title, of the bullet
// points joined by one space, or of the description.

// Two made-up single-token values whose token_set_ratio is exactly 85 (17 of 20 characters in common).
const A = 'abcdefghijklmnopqrst';
const B = 'abcdefghijklmnopqxyz';

const product: RewardProduct = {
  name: 'Cotton Bath Towel',
  title: 'Cotton Bath Towel Set',
  description: 'Absorbent towels.',
  bulletPoints: ['Extra soft', 'Cotton blend fabric'],
  attributes: ['machine washable'],
  query: 'bath towel',
  productCategory: 'Home › Bath › Towels',
};

describe('attributeReward', () => {
  it('does not count a fuzzy match of exactly 85', () => {
    expect(tokenSetRatio(A, B)).toBe(85);
    expect(attributeReward({ ...product, attributes: [A] }, [B]).matches).toBe(0);
    expect(attributeReward({ ...product, attributes: [A] }, [A]).matches).toBe(1);
  });

  it('does not count an attribute found nowhere, however many product attributes there are', () => {
    expect(attributeReward(product, ['wireless charging'])).toEqual({ rAtt: 0, matches: 0 });
    expect(attributeReward(product, ['machine washable', 'wireless charging'])).toEqual({ rAtt: 0.5, matches: 1 });
  });

  it('finds an attribute across two bullet points joined by one space', () => {
    expect(attributeReward({ ...product, attributes: [] }, ['soft cotton']).matches).toBe(1);
  });

  it('gives 0, not NaN, for a goal without attributes', () => {
    expect(attributeReward(product, [])).toEqual({ rAtt: 0, matches: 0 });
  });
});

describe('optionReward', () => {
  it('does not count a fuzzy match of exactly 85', () => {
    expect(optionReward([A], [B])).toEqual({ rOption: 0, matches: 0 });
    expect(optionReward([A], [A])).toEqual({ rOption: 1, matches: 1 });
  });
});

describe('computeReward without goal options', () => {
  it('has no option term at all: no rOption and no wOption in the breakdown', () => {
    const goal: RewardGoal = { name: 'Cotton Bath Towel', query: 'bath towel', productCategory: product.productCategory, attributes: ['machine washable'], goalOptions: { kind: 'list', values: [] }, priceUpper: 30 };
    const r = computeReward({ product, goal, price: 20, options: new Map() }, { nouns: () => ['towel'] });
    expect(Object.keys(r)).not.toContain('rOption');
    expect(Object.keys(r)).not.toContain('wOption');
    expect(r.reward).toBe(1);
  });
});
