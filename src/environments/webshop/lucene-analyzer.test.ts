import { describe, expect, it } from 'vitest';

import { analyzeText, standardTokens } from './lucene-analyzer.js';

describe('standardTokens (UAX#29 word boundaries as in Lucene StandardTokenizer)', () => {
  it('keeps mid-word apostrophes, periods and colons between letters, and separators between digits', () => {
    expect(standardTokens("L'eau D'issey 6.76 fl oz, 1,000 pcs")).toEqual(["L'eau", "D'issey", '6.76', 'fl', 'oz', '1,000', 'pcs']);
    expect(standardTokens('adidas D.o.n. Issue 2')).toEqual(['adidas', 'D.o.n', 'Issue', '2']);
    expect(standardTokens('size:large')).toEqual(['size:large']);
  });

  it('splits on hyphens, slashes and symbols; joins letters with digits', () => {
    expect(standardTokens('SC-HT830V DVD/VCR $64.98 4K 6.7oz')).toEqual(['SC', 'HT830V', 'DVD', 'VCR', '64.98', '4K', '6.7oz']);
  });

  it('drops trailing punctuation and lone underscores, keeps underscores inside words', () => {
    expect(standardTokens('end. a_b _ __')).toEqual(['end', 'a_b']);
  });

  it('emits Han characters and emoji one by one', () => {
    expect(standardTokens('❤️ Runs 中文')).toEqual(['❤️', 'Runs', '中', '文']);
  });
});

describe('analyzeText (DefaultEnglishAnalyzer)', () => {
  it('removes possessives and stop words, lower-cases and stems', () => {
    expect(analyzeText("Men's Running Shoes for the Women's Team")).toEqual(['men', 'run', 'shoe', 'women', 'team']);
  });

  it('analyzes a WebShop query', () => {
    expect(analyzeText("l'eau d'issey 6.76 fl oz bottle price < 100.00")).toEqual(["l'eau", "d'issei", '6.76', 'fl', 'oz', 'bottl', 'price', '100.00']);
  });
});
