import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';

import { loadCatalogue } from './load-catalogue.js';
import { createPythonRandom } from '../../python/python-random.js';
import { createWebShopSearch, documentText } from './search.js';
import { writeTestCatalogue } from './test-catalogue.js';

const dir = writeTestCatalogue();
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const { products, byAsin } = loadCatalogue({ dataDir: dir, goals: 'synthetic' });
const search = createWebShopSearch(products);
const rng = () => createPythonRandom(233);

describe('documentText', () => {
  it('joins title, description, first bullet and options, lower-cased', () => {
    expect(documentText(byAsin.get('B000SHOE01')!)).toBe(
      'trail running shoe for men, breathable mesh trail running shoe for men, breathable mesh. made with care. about trail running shoe for men, breathable mesh color: black | red, navy blue, and size: 9, 10, 11',
    );
  });
});

describe('createWebShopSearch', () => {
  it('ranks with BM25 and returns at most 50 products', () => {
    expect(search.search(['tea', 'tree'], rng()).map((p) => p.asin)).toEqual(['B000TEA003']);
    expect(search.search(['running'], rng())).toHaveLength(23);
    expect(search.search(['the', 'and'], rng())).toEqual([]);
  });

  it('supports the engine’s <r>, <a>, <c> and <q> prefixes', () => {
    expect(search.search(['<r>'], rng())).toHaveLength(24);
    expect(search.search(['<a>', 'rubber', 'sole'], rng()).map((p) => p.asin)).toEqual(['B000SHOE01']);
    expect(search.search(['<c>', 'shampoo'], rng()).map((p) => p.asin)).toEqual(['B000TEA003']);
    expect(search.search(['<q>', 'running', 'shoes'], rng()).map((p) => p.asin)).toEqual(['B000SHOE01', 'B000SHOE02']);
    expect(search.search(['<c>'], rng())).toEqual([]);
  });
});
