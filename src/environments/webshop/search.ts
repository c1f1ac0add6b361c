import { pyLower, pyStrip } from '../../python/python-text.js';
import { createBm25Index } from './bm25-index.js';
import type { Bm25Options } from './bm25-index.js';
import type { WebShopProduct } from './clean-product.js';
import { createTextAnalyzer } from './lucene-analyzer.js';
import type { PythonRandom } from '../../python/python-random.js';

/** WebShop returns at most this many search results ("Total results: N"). */
export const SEARCH_RETURN_N = 50;
/** Results per page. */
export const PRODUCT_WINDOW = 10;

export interface WebShopSearch {
  /**
   * The engine's `get_top_n_product_from_keywords`: `keywords` is the search text split on single
   * spaces. A first keyword `<r>` samples 50 products with `rng`; `<a> attr`, `<c> category` and
   * `<q> query` list products by attribute, category or query; anything else is a BM25 search for the
   * keywords joined by spaces, top 50.
   */
  search(keywords: readonly string[], rng: PythonRandom): WebShopProduct[];
  /** BM25 only, with the hit scores. */
  rank(text: string, k?: number): { product: WebShopProduct; score: number }[];
}

/**
 * The indexed text of a product, as WebShop's index builder writes it: lower-cased
 * `Title Description BulletPoints[0] option_text`, where option_text is
 * `name: v1, v2, and name2: w1, …`.
 */
export function documentText(product: WebShopProduct): string {
  const optionText = product.options.map((o) => `${o.name}: ${o.values.join(', ')}`).join(', and ');
  return pyLower([product.title, product.description, product.bulletPoints[0] ?? '', optionText].join(' '));
}

/**
 * Builds the search engine over the catalogue, one document per product in catalogue order, with the
 * analyzer and BM25 of the original pyserini index (k1 0.9, b 0.4 unless overridden). BM25 results are
 * memoised per query text (the result pages of one query re-run the search on every page turn).
 */
export function createWebShopSearch(products: readonly WebShopProduct[], options: Bm25Options = {}): WebShopSearch {
  const analyzeText = createTextAnalyzer();
  const index = createBm25Index(
    products.map((p) => ({ id: p.asin, terms: analyzeText(documentText(p)) })),
    options,
  );
  const memo = new Map<string, { product: WebShopProduct; score: number }[]>();
  const rank = (text: string, k = SEARCH_RETURN_N): { product: WebShopProduct; score: number }[] => {
    const key = `${k}\u0000${text}`;
    const cached = memo.get(key);
    if (cached) return cached;
    const hits = index.search(analyzeText(text), k).map((h) => ({ product: products[h.doc]!, score: h.score }));
    if (memo.size >= 512) memo.delete(memo.keys().next().value!);
    memo.set(key, hits);
    return hits;
  };
  const rest = (keywords: readonly string[]): string => pyStrip(keywords.slice(1).join(' '));
  return {
    rank,
    search(keywords, rng) {
      switch (keywords[0]) {
        case '<r>':
          return rng.sample(products, Math.min(SEARCH_RETURN_N, products.length));
        case '<a>': {
          // The original passes no attribute map here and crashes; this is what the code intends.
          const attribute = rest(keywords);
          return products.filter((p) => p.attributes.includes(attribute));
        }
        case '<c>': {
          const category = keywords[1] === undefined ? undefined : pyStrip(keywords[1]);
          return products.filter((p) => p.category === category);
        }
        case '<q>': {
          const query = rest(keywords);
          return products.filter((p) => p.query === query);
        }
        default:
          return rank(keywords.join(' ')).map((h) => h.product);
      }
    },
  };
}
