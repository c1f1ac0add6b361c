import { describe, expect, it } from 'vitest';

import type { GoalOptions } from './clean-product.js';
import { computeReward, typeReward } from './reward.js';

// The edges of WebShop's `get_type_reward` (web_agent_site/engine/goal.py): r_type is halved unless the query
// matches, two category segments match, or the title score is strictly above 0.2; a goal name without nouns
// has a title score of exactly 0.2, so it is halved too unless the query or the category matches.
// Noun lists are given directly here, so each title score is an exact fraction.

const nounsOf: Record<string, string[]> = {
  'five nouns': ['alpha', 'bravo', 'charlie', 'delta', 'echo'],
  'one of five': ['alpha', 'zulu'],
  'two of nine': ['alpha', 'bravo', 'zulu'],
  'nine nouns': ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india'],
  'ten nouns': ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliett'],
  'repeated bar': ['bar', 'bar', 'stool', 'seat', 'cushion'],
  'a bar': ['bar'],
  'no nouns': [],
  'unrelated': ['yankee'],
};
const nouns = (name: string): string[] => nounsOf[name] ?? [];
const goal = { query: 'goal query', productCategory: 'Home › Kitchen › Furniture', name: 'five nouns' };
const other = { query: 'other query', productCategory: 'Beauty › Hair › Shampoo', name: 'one of five' };

describe('typeReward at the 0.2 title-score boundary', () => {
  it('halves r_type at a title score of exactly 0.2 (1 of 5 nouns) when nothing else matches', () => {
    const r = typeReward(other, goal, nouns);
    expect(r.titleScore).toBe(0.2);
    expect([r.queryMatch, r.categoryMatch]).toEqual([false, false]);
    expect(r.rType).toBe(0.5);
  });

  it('keeps r_type at 1 just above 0.2 (2 of 9 nouns)', () => {
    const r = typeReward({ ...other, name: 'two of nine' }, { ...goal, name: 'nine nouns' }, nouns);
    expect(r.titleScore).toBeCloseTo(2 / 9, 15);
    expect(r.rType).toBe(1);
  });

  it('keeps r_type at 1 at 0.2 when the query or two category segments match', () => {
    expect(typeReward({ ...other, query: 'goal query' }, goal, nouns).rType).toBe(1);
    expect(typeReward({ ...other, productCategory: 'Garden › Kitchen › Furniture' }, goal, nouns).rType).toBe(1);
    expect(typeReward({ ...other, productCategory: 'Garden › Kitchen › Lamps' }, goal, nouns).rType).toBe(0.5);
  });

  it('counts shared nouns once but divides by every goal noun, repeats included (1 / 5 = 0.2, halved)', () => {
    const r = typeReward({ ...other, name: 'a bar' }, { ...goal, name: 'repeated bar' }, nouns);
    expect(r.titleScore).toBe(0.2);
    expect(r.rType).toBe(0.5);
  });

  it('is not cut to 0.1 at a title score of exactly 0.1 (1 of 10), only below it', () => {
    const r = typeReward(other, { ...goal, name: 'ten nouns' }, nouns);
    expect(r.titleScore).toBe(0.1);
    expect(r.rType).toBe(0.5);
  });
});

describe('typeReward with an empty noun list', () => {
  it('gives a goal name without nouns a title score of 0.2: halved unless query or category match', () => {
    const empty = { ...goal, name: 'no nouns' };
    expect(typeReward(other, empty, nouns)).toEqual({ rType: 0.5, queryMatch: false, categoryMatch: false, titleScore: 0.2 });
    expect(typeReward({ ...other, query: 'goal query' }, empty, nouns).rType).toBe(1);
    // Even a purchased product with no nouns at all: the score comes from the goal's (empty) list.
    expect(typeReward({ ...other, name: 'no nouns' }, empty, nouns).titleScore).toBe(0.2);
  });

  it('scores 0 when the goal has nouns and the purchased name shares none, whatever else matches', () => {
    const r = typeReward({ ...goal, name: 'no nouns' }, goal, nouns);
    expect([r.queryMatch, r.categoryMatch, r.titleScore, r.rType]).toEqual([true, true, 0, 0]);
    expect(typeReward({ ...goal, name: 'unrelated' }, goal, nouns).rType).toBe(0);
  });

  it('halves the whole reward of a right purchase whose goal name has no nouns', () => {
    const goalOptions: GoalOptions = { kind: 'list', values: ['black'] };
    const product = { ...other, title: 'A black steel bar', description: '', bulletPoints: [], attributes: ['steel'] };
    const shopGoal = { ...goal, name: 'no nouns', attributes: ['steel'], goalOptions, priceUpper: 30 };
    const r = computeReward({ product, goal: shopGoal, price: 20, options: new Map([['color', 'black']]) }, { nouns });
    // (1 attribute + 1 option + price) / 3, times r_type 0.5.
    expect(r.rType).toBe(0.5);
    expect(r.reward).toBe(0.5);
  });
});
