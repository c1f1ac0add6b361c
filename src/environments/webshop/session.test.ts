import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';

import { formatAvailableActions } from './render-page.js';
import { createWebShopSession, parseAction } from './session.js';
import { writeTestCatalogue } from './test-catalogue.js';
import { loadWebShopEngine } from './webshop-engine.js';

const dir = writeTestCatalogue();
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const engine = loadWebShopEngine({ dataDir: dir, goals: 'synthetic' });
// Goal 0 (seed 233): B000SHOE01 with color navy blue, size 11, price cap 70.
const INSTRUCTION = 'i want breathable running shoes with color: navy blue, and size: 11, and price lower than 70.00 dollars';

describe('createWebShopSession', () => {
  it('starts on the search page', () => {
    const session = createWebShopSession({ engine });
    const start = session.reset(0);
    expect(start.observation).toBe(`WebShop [SEP] Instruction: [SEP] ${INSTRUCTION} [SEP] Search`);
    expect(start).toMatchObject({ hasSearchBar: true, clickables: ['search'], reward: 0, done: false });
    expect(formatAvailableActions(start)).toBe("{'has_search_bar': True, 'clickables': ['search']}");
  });

  it('searches, pages through results (Next > always shown, < Prev from page 2) and opens a product', () => {
    const session = createWebShopSession({ engine });
    session.reset(0);
    const results = session.step('search[Running Shoe]');
    expect(results.observation.startsWith(`Instruction: [SEP] ${INSTRUCTION} [SEP] Back to Search [SEP] Page 1 (Total results: 23) [SEP] Next > [SEP] B000SHOE02 [SEP] Trail Running Shoe for Women [SEP] $39.99 to $59.99 [SEP] B000SHOE01 [SEP] Trail Running Shoe for Men, Breathable Mesh [SEP] $49.99 [SEP] B0000GEN04`)).toBe(true);
    expect(results.clickables.slice(0, 4)).toEqual(['back to search', 'next >', 'b000shoe02', 'b000shoe01']);
    expect(results.clickables).toHaveLength(12);
    const page3 = [session.step('click[next >]'), session.step('click[Next >]')][1]!;
    expect(page3.observation).toContain('Page 3 (Total results: 23) [SEP] < Prev [SEP] Next >');
    expect(page3.clickables.slice(0, 3)).toEqual(['back to search', '< prev', 'next >']);
    expect(page3.clickables).toHaveLength(6);
    const page4 = session.step('click[next >]');
    expect(page4.clickables).toEqual(['back to search', '< prev', 'next >']);
    session.step('click[< prev]');
    session.step('click[< prev]');
    expect(session.step('click[< prev]').observation).toContain('Page 1 (Total results: 23)');
    const item = session.step('click[B000SHOE01]');
    expect(item.observation).toBe(
      `Instruction: [SEP] ${INSTRUCTION} [SEP] Back to Search [SEP] < Prev [SEP] color [SEP] black | red [SEP] navy blue [SEP] size [SEP] 9 [SEP] 10 [SEP] 11 [SEP] ` +
        'Trail Running Shoe for Men, Breathable Mesh [SEP] Price: $49.99 [SEP] Rating: N.A. [SEP] Description [SEP] Features [SEP] Reviews [SEP] Buy Now',
    );
    expect(item.clickables).toEqual(['back to search', '< prev', 'description', 'features', 'reviews', 'buy now', 'black | red', 'navy blue', '9', '10', '11']);
    expect(session.state()).toMatchObject({ page: 'item', asin: 'B000SHOE01', keywords: ['running', 'shoe'], resultsPage: 1, options: {} });
  });

  it('shows sub-pages, returns with < Prev, keeps options, and buys with the reward', () => {
    const session = createWebShopSession({ engine });
    session.reset(0);
    session.step('search[running shoe]');
    session.step('click[b000shoe01]');
    session.step('click[navy blue]');
    const description = session.step('click[Description]');
    expect(description.observation).toBe(`Instruction: [SEP] ${INSTRUCTION} [SEP] Back to Search [SEP] < Prev [SEP] Trail Running Shoe for Men, Breathable Mesh. Made with care.`);
    expect(description.clickables).toEqual(['back to search', '< prev']);
    session.step('click[< prev]');
    const features = session.step('click[features]');
    expect(features.observation.endsWith('< Prev [SEP] About Trail Running Shoe for Men, Breathable Mesh [SEP] Second bullet')).toBe(true);
    expect(session.step('click[< prev]').observation).toContain('Buy Now');
    expect(session.step('click[reviews]').observation.endsWith('Back to Search [SEP] < Prev')).toBe(true);
    session.step('click[< prev]');
    session.step('click[11]');
    expect(session.state().options).toEqual({ color: 'navy blue', size: '11' });
    const bought = session.step('click[Buy Now]');
    expect(bought).toMatchObject({ reward: 1, done: true });
    expect(bought.rewardInfo).toMatchObject({ rType: 1, rAtt: 1, rOption: 1, rPrice: true });
    expect(session.step('click[back to search]')).toMatchObject({ reward: 0, done: true, clickables: [] });
  });

  it('clears options when leaving the product, and search works from any page', () => {
    const session = createWebShopSession({ engine });
    session.reset(0);
    session.step('search[running shoe]');
    session.step('click[b000shoe01]');
    session.step('click[9]');
    session.step('click[< prev]');
    expect(session.state()).toMatchObject({ page: 'results', asin: null, options: {} });
    session.step('click[b000shoe01]');
    expect(session.state().options).toEqual({});
    const again = session.step('search[tea tree]');
    expect(again.observation).toContain('B000TEA003');
    expect(session.step('click[back to search]').observation).toBe(`WebShop [SEP] Instruction: [SEP] ${INSTRUCTION} [SEP] Search`);
    expect(session.state()).toMatchObject({ page: 'search', keywords: null });
  });

  it('ignores invalid actions: unknown clicks, click[search], empty search, malformed brackets', () => {
    const session = createWebShopSession({ engine });
    const start = session.reset(0);
    for (const action of ['click[search]', 'click[buy now]', 'search[]', 'look around', 'search[a] [b]']) {
      expect(session.step(action)).toEqual({ ...start });
    }
    expect(parseAction('search[a] [b]')).toEqual({ name: 'search[a] ', arg: 'b' });
    expect(parseAction('click[Buy Now]\nextra')).toEqual({ name: 'click', arg: 'Buy Now' });
  });

  it('rejects goal indices out of range', () => {
    expect(() => createWebShopSession({ engine }).reset(99)).toThrow(/out of range/);
  });
});
