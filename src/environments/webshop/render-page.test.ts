import { describe, expect, it } from 'vitest';

import type { WebShopProduct } from './clean-product.js';
import { formatAvailableActions, renderPage } from './render-page.js';

const product: WebShopProduct = {
  asin: 'B0TEST0001',
  name: 'Plain Mug',
  title: 'Plain Mug',
  description: '',
  bulletPoints: ['  Holds 12 oz  ', '', ' ', '\n '],
  category: 'kitchen',
  query: 'mug',
  productCategory: 'Home › Kitchen',
  pricing: [5],
  priceTag: '$5.0',
  options: [
    { name: 'color', values: ['white', 'small'] },
    { name: 'size', values: ['small', ''] },
  ],
  attributes: [],
  rating: 'N.A.',
};

describe('renderPage', () => {
  it('follows BeautifulSoup text-node rules: empty text vanishes, spaces-only text is an empty segment, newline-whitespace is dropped', () => {
    const features = renderPage({ kind: 'sub', product, section: 'Features' }, 'buy a mug');
    expect(features.observation).toBe('Instruction: [SEP] buy a mug [SEP] Back to Search [SEP] < Prev [SEP] Holds 12 oz [SEP] ');
    expect(renderPage({ kind: 'sub', product, section: 'Description' }, 'buy a mug').observation.endsWith('< Prev')).toBe(true);
  });

  it('keeps a repeated option value once, in its first position, pointing at the last option group', () => {
    const item = renderPage({ kind: 'item', product }, 'buy a mug');
    expect([...item.clickables.keys()]).toEqual(['back to search', '< prev', 'description', 'features', 'reviews', 'buy now', 'white', 'small', '']);
    expect(item.clickables.get('small')).toEqual({ kind: 'option', optionName: 'size' });
    expect(item.observation).toContain('color [SEP] white [SEP] small [SEP] size [SEP] small [SEP] Plain Mug [SEP] Price: $5.0');
  });

  it('prints available actions as a Python dict', () => {
    expect(formatAvailableActions({ hasSearchBar: false, clickables: ['back to search', "men's"] })).toBe(
      `{'has_search_bar': False, 'clickables': ['back to search', "men's"]}`,
    );
  });
});
