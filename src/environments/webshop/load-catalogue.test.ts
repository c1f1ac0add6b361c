import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';

import { parsePricing } from './clean-product.js';
import { loadCatalogue } from './load-catalogue.js';
import { writeTestCatalogue } from './test-catalogue.js';

const dir = writeTestCatalogue({ human: true });
const noHuman = writeTestCatalogue();
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(noHuman, { recursive: true, force: true });
});

describe('parsePricing', () => {
  it('splits on $, keeps digits and dots, formats like Python floats', () => {
    expect(parsePricing('$877.80')).toEqual({ pricing: [877.8], priceTag: '$877.8' });
    expect(parsePricing('$19.99 - $27.99')).toEqual({ pricing: [19.99, 27.99], priceTag: '$19.99 to $27.99' });
    expect(parsePricing('$1,299.00')).toEqual({ pricing: [1299], priceTag: '$1299.0' });
    expect(parsePricing('$1 - $2 - $3')).toEqual({ pricing: [1, 2], priceTag: '$1.0 to $2.0' });
    expect(parsePricing('')).toEqual({ pricing: [100], priceTag: '$100.0' });
  });

  it('reports pieces the original could not parse', () => {
    expect(parsePricing('$')).toHaveProperty('message');
    expect(parsePricing('12.99')).toHaveProperty('message');
    expect(parsePricing('$1.2.3')).toHaveProperty('message');
  });
});

describe('loadCatalogue', () => {
  it('cleans products as WebShop does and drops bad or duplicate ASINs', () => {
    const catalogue = loadCatalogue({ dataDir: dir, goals: 'human' });
    expect(catalogue.products).toHaveLength(24);
    expect(catalogue.skipped.map((s) => s.reason)).toEqual(['invalid asin', 'duplicate asin']);
    const shoe = catalogue.byAsin.get('B000SHOE01')!;
    expect(shoe.options).toEqual([
      { name: 'color', values: ['black | red', 'navy blue'] },
      { name: 'size', values: ['9', '10', '11'] },
    ]);
    expect(shoe.query).toBe('running shoes');
    expect(shoe.attributes).toEqual(['breathable mesh', 'rubber sole']);
    expect(shoe.humanInstructions).toHaveLength(2);
    expect(catalogue.byAsin.get('B0000GEN04')!.attributes).toEqual(['DUMMY_ATTR']);
  });

  it('names the missing file and the mode that needs it', () => {
    expect(() => loadCatalogue({ dataDir: noHuman, goals: 'human' })).toThrow(/items_human_ins\.json.*human goals/);
    expect(() => loadCatalogue({ dataDir: noHuman, goals: 'synthetic', files: { catalogue: 'items_shuffle.json' } })).toThrow(
      /'items_shuffle\.json' not found/,
    );
    expect(loadCatalogue({ dataDir: noHuman, goals: 'synthetic' }).products).toHaveLength(24);
  });
});
