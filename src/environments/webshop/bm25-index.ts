/**
 * Lucene 8 BM25 (`BM25Similarity`) over pre-analyzed documents, reproducing the arithmetic that
 * decides the ranking in the original pyserini index:
 * - idf = ln(1 + (N − df + 0.5) / (df + 0.5)), cast to float; the weight is boost × idf, where the
 *   boost is how often the term occurs in the query (Anserini's bag-of-words query);
 * - the document length is stored as a one-byte norm (`SmallFloat.intToByte4`) and decoded lossily
 *   (exact below 24 tokens, then 3 significant bits), while avgdl uses the exact total length;
 * - per-term score = weight − weight / (1 + tf · cache[norm]), cache[n] = 1 / (k1 · (1 − b + b · len(n) / avgdl)),
 *   all in 32-bit float as Java computes it; term scores are summed in double and cast to float;
 * - hits are sorted by float score, ties broken by document id in string order (Anserini's
 *   `BREAK_SCORE_TIES_BY_DOCID`).
 */

const f = Math.fround;

export interface Bm25Options {
  /** Term-frequency saturation; Anserini's default 0.9 (Lucene's own default is 1.2). */
  k1?: number;
  /** Length normalisation; Anserini's default 0.4 (Lucene's own default is 0.75). */
  b?: number;
}

export interface Bm25Document {
  /** External id, used to break score ties (string order). */
  id: string;
  /** Analyzed terms in order. */
  terms: readonly string[];
}

export interface Bm25Hit {
  /** Position of the document in the indexed list. */
  doc: number;
  id: string;
  score: number;
}

export interface Bm25Index {
  readonly size: number;
  /** Top `k` hits for the analyzed query terms (duplicates raise the term's weight). */
  search(queryTerms: readonly string[], k: number): Bm25Hit[];
}

interface Posting {
  doc: number;
  tf: number;
}

export function createBm25Index(documents: readonly Bm25Document[], options: Bm25Options = {}): Bm25Index {
  const k1 = f(options.k1 ?? 0.9);
  const b = f(options.b ?? 0.4);
  const postings = new Map<string, Posting[]>();
  const norms = new Uint8Array(documents.length);
  let sumTotalTermFreq = 0;
  documents.forEach((document, doc) => {
    const counts = new Map<string, number>();
    for (const term of document.terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const [term, tf] of counts) {
      let list = postings.get(term);
      if (!list) postings.set(term, (list = []));
      list.push({ doc, tf });
    }
    norms[doc] = intToByte4(document.terms.length);
    sumTotalTermFreq += document.terms.length;
  });
  const docCount = documents.filter((d) => d.terms.length > 0).length;
  const avgdl = f(docCount === 0 ? 1 : sumTotalTermFreq / docCount);
  const cache = new Float32Array(256);
  for (let i = 0; i < 256; i++) {
    cache[i] = f(1 / f(k1 * f(f(1 - b) + f(f(b * f(LENGTH_TABLE[i]!)) / avgdl))));
  }
  const ids = documents.map((d) => d.id);

  return {
    size: documents.length,
    search(queryTerms, k) {
      const boosts = new Map<string, number>();
      for (const term of queryTerms) boosts.set(term, (boosts.get(term) ?? 0) + 1);
      const sums = new Map<number, number>();
      for (const [term, boost] of boosts) {
        const list = postings.get(term);
        if (!list) continue;
        const idf = f(Math.log(1 + (docCount - list.length + 0.5) / (list.length + 0.5)));
        const weight = f(f(boost) * idf);
        for (const { doc, tf } of list) {
          const score = f(weight - f(weight / f(1 + f(tf * cache[norms[doc]!]!))));
          sums.set(doc, (sums.get(doc) ?? 0) + score);
        }
      }
      const hits: Bm25Hit[] = [];
      for (const [doc, sum] of sums) hits.push({ doc, id: ids[doc]!, score: f(sum) });
      hits.sort((x, y) => y.score - x.score || compareCodeUnits(x.id, y.id));
      return hits.slice(0, k);
    },
  };
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Lucene `SmallFloat.longToInt4`: 4 significant bits with an implicit leading one. */
function longToInt4(i: number): number {
  const numBits = i === 0 ? 0 : Math.floor(Math.log2(i)) + 1;
  if (numBits < 4) return i;
  const shift = numBits - 4;
  let encoded = Math.floor(i / 2 ** shift) & 0x07;
  encoded |= (shift + 1) << 3;
  return encoded;
}

function int4ToLong(i: number): number {
  const bits = i & 0x07;
  const shift = (i >>> 3) - 1;
  return shift === -1 ? bits : (bits | 0x08) * 2 ** shift;
}

const MAX_INT4 = longToInt4(2 ** 31 - 1);
const NUM_FREE_VALUES = 255 - MAX_INT4;

/** Lucene `SmallFloat.intToByte4`: the one-byte length norm (as an unsigned byte). */
export function intToByte4(i: number): number {
  if (i < NUM_FREE_VALUES) return i;
  return NUM_FREE_VALUES + longToInt4(i - NUM_FREE_VALUES);
}

/** Lucene `SmallFloat.byte4ToInt`: the length a norm byte decodes to. */
export function byte4ToInt(byte: number): number {
  if (byte < NUM_FREE_VALUES) return byte;
  return NUM_FREE_VALUES + int4ToLong(byte - NUM_FREE_VALUES);
}

const LENGTH_TABLE = Array.from({ length: 256 }, (_, i) => byte4ToInt(i));
