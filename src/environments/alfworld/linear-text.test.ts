import { describe, expect, it } from 'vitest';
import { splitOnSpacedWord, trimBothOf, trimEndOf } from '../../python/text-scan.js';
import { seededTexts } from '../../testing/text-oracle.js';
import { entityType, splitListedItems } from './alfworld-hook-context.js';

const MB = 1 << 20;
const REAL = [
  'a cabinet 6, a cabinet 5, a cabinet 4, a coffeemachine 1, a countertop 3, and a toaster 1',
  'a bed 1, a desk 2, a desk 1, a drawer 6, a drawer 5, a garbagecan 1, a laundryhamper 1, and a shelf 1',
  'a apple 2 and a knife 1',
  'nothing',
];

describe('ALFWorld text rules', () => {
  it('equal the regexes on observation lists and random mixes', () => {
    const fuzz = seededTexts(51, [',', ' ', '\t', '\n', 'and', 'and ', 'band', 'a', '1', ' 2', 'or'], 6000, 12);
    for (const text of [...REAL, ...fuzz]) {
      expect(splitListedItems(text), JSON.stringify(text)).toEqual(text.split(/,\s*(?:and\s+)?|\s+and\s+/));
      expect(entityType(text), JSON.stringify(text)).toBe(text.replace(/\s+\d+$/, ''));
      expect(splitOnSpacedWord(text, 'or'), JSON.stringify(text)).toEqual(text.split(/\s+or\s+/));
      expect(trimEndOf(text, '1'), JSON.stringify(text)).toBe(text.replace(/1+$/, ''));
      expect(trimBothOf(text, ' ,'), JSON.stringify(text)).toBe(text.replace(/^[ ,]+|[ ,]+$/g, ''));
    }
  });

  it('read 2 MB whitespace runs without a separator or a trailing number', () => {
    const run = `a cabinet${' '.repeat(2 * MB)}x`;
    expect(splitListedItems(run)).toEqual([run]);
    expect(splitOnSpacedWord(run, 'or')).toEqual([run]);
    expect(entityType(`cabinet${' '.repeat(2 * MB)}6x`)).toBe(`cabinet${' '.repeat(2 * MB)}6x`);
    expect(entityType(`cabinet${' '.repeat(2 * MB)}6`)).toBe('cabinet');
    expect(trimEndOf(`${'0'.repeat(2 * MB)}1`, '0')).toBe(`${'0'.repeat(2 * MB)}1`);
  });
});
