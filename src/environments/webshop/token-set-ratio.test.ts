import { describe, expect, it } from 'vitest';

import { sequenceMatcherRatio } from './sequence-matcher.js';
import { tokenSetRatio } from './token-set-ratio.js';

// Expected scores computed with CPython 3.11's difflib and thefuzz 0.19's token_set_ratio algorithm.
const PAIRS: [string, string, number][] = [
  ['essential oil', 'essential oils', 96],
  ['tea tree', 'tea tree', 100],
  ['powder snow', 'cool powder snow', 100],
  ['natural ingredients', 'essential oils', 36],
  ['x-large', 'xx-large', 93],
  ['6.76 fl oz (pack of 1)', '6.76 fl oz', 100],
  ['high heel', 'high heels', 95],
  ['long lasting', 'long-lasting', 100],
  ['black', 'blue', 44],
  ['Café crème', 'cafe creme', 89],
  ['', 'x', 0],
  ['machine wash', 'hand wash', 67],
  ['easy clean', 'easy to clean', 100],
  ['gluten free', 'sugar free', 57],
  ['3x-large', 'x-large', 93],
  ['stainless steel', 'steel', 100],
];

describe('tokenSetRatio', () => {
  it.each(PAIRS)('%j vs %j → %i', (a, b, expected) => {
    expect(tokenSetRatio(a, b)).toBe(expected);
  });

  it('can use the python-Levenshtein ratio instead of difflib', () => {
    expect(tokenSetRatio('essential oil', 'essential oils', { ratio: 'levenshtein' })).toBe(96);
  });
});

describe('sequenceMatcherRatio', () => {
  it('matches difflib, including the autojunk heuristic for long strings', () => {
    expect(sequenceMatcherRatio('private Thread currentThread;', 'private volatile Thread currentThread;')).toBe(0.8656716417910447);
    expect(sequenceMatcherRatio('abcab'.repeat(50), `${'bacab'.repeat(45)}zz`)).toBe(0);
    expect(sequenceMatcherRatio('', '')).toBe(1);
  });
});
