import { describe, expect, it } from 'vitest';

import { byte4ToInt, createBm25Index, intToByte4 } from './bm25-index.js';

describe('Lucene length norms', () => {
  it('keep lengths below 24 exact and round longer ones down to 4 significant bits', () => {
    for (let n = 0; n < 24; n++) expect(byte4ToInt(intToByte4(n))).toBe(n);
    expect(intToByte4(100)).toBe(57);
    expect(byte4ToInt(57)).toBe(96);
    let previous = -1;
    for (let n = 0; n < 5000; n++) {
      const decoded = byte4ToInt(intToByte4(n));
      expect(decoded).toBeLessThanOrEqual(n);
      expect(decoded).toBeGreaterThanOrEqual(previous);
      previous = decoded;
    }
  });
});

describe('createBm25Index', () => {
  const docs = [
    { id: 'B2', terms: ['red', 'shoe'] },
    { id: 'B1', terms: ['red', 'shoe'] },
    { id: 'B3', terms: ['blue', 'shoe', 'shoe', 'lace'] },
    { id: 'B4', terms: ['red', 'hat'] },
  ];
  const index = createBm25Index(docs);

  it('scores with Lucene 8 BM25 (k1 0.9, b 0.4) in float precision', () => {
    const [top] = index.search(['blue'], 10);
    // N=4, df=1: idf = ln(1 + 3.5/1.5); avgdl = 10/4; dl = 4; tf = 1.
    const idf = Math.fround(Math.log(1 + 3.5 / 1.5));
    const norm = Math.fround(1 / Math.fround(0.9 * (0.6 + (0.4 * 4) / 2.5)));
    expect(top?.id).toBe('B3');
    expect(top?.score).toBeCloseTo(idf - idf / (1 + norm), 6);
  });

  it('breaks ties by document id, not by index order', () => {
    expect(index.search(['red', 'shoe'], 10).map((h) => h.id)).toEqual(['B1', 'B2', 'B3', 'B4']);
  });

  it('weights repeated query terms and ignores unknown ones', () => {
    const once = index.search(['hat', 'zzz'], 1)[0]!;
    const twice = index.search(['hat', 'hat'], 1)[0]!;
    expect(twice.score).toBeCloseTo(once.score * 2, 5);
    expect(index.search(['zzz'], 10)).toEqual([]);
  });
});
