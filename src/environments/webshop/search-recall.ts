import { pyCollapseWhitespace, pyLower } from '../../python/python-text.js';
import { isJsSpaceCode, trimEndOf } from '../../python/text-scan.js';
import type { WebShopCatalogue } from './load-catalogue.js';
import type { WebShopSearch } from './search.js';

/** A search query with the product it should find. */
export interface LabelledQuery {
  query: string;
  asin: string;
  /** The instruction the query was written for, when there is one. */
  instruction?: string;
}

export interface RecallReport {
  k: number;
  hits: number;
  total: number;
  /** hits / total; 0 when there is nothing to measure. */
  recall: number;
  misses: LabelledQuery[];
}

/** Recall@k: how often the labelled product is among the top k BM25 results of its query. */
export function measureRecallAtK(search: WebShopSearch, queries: readonly LabelledQuery[], k = 10): RecallReport {
  const misses: LabelledQuery[] = [];
  for (const labelled of queries) {
    if (!search.rank(labelled.query, k).some((hit) => hit.product.asin === labelled.asin)) misses.push(labelled);
  }
  const total = queries.length;
  return { k, hits: total - misses.length, total, recall: total === 0 ? 0 : (total - misses.length) / total, misses };
}

/** How instructions are compared across files: lower-cased, whitespace collapsed, trailing dots dropped. */
export function normalizeInstruction(text: string): string {
  return trimEndOf(pyCollapseWhitespace(pyLower(text)), (code) => code === 0x2e || isJsSpaceCode(code));
}

/**
 * The human queries of `goal_query_map.json` (instruction → list of queries) labelled with the
 * instruction's product, for the instructions whose product is in the catalogue. Only human
 * instructions tie an instruction to a product, so this needs the catalogue loaded with human goals
 * (`items_human_ins.json`); without them the list is empty.
 */
export function labelHumanQueries(catalogue: WebShopCatalogue, goalQueryMap: Readonly<Record<string, readonly string[]>>): LabelledQuery[] {
  const asinOf = new Map<string, string>();
  for (const product of catalogue.products) {
    for (const instruction of product.humanInstructions ?? []) asinOf.set(normalizeInstruction(instruction.instruction), product.asin);
  }
  const labelled: LabelledQuery[] = [];
  for (const [instruction, queries] of Object.entries(goalQueryMap)) {
    const asin = asinOf.get(normalizeInstruction(instruction));
    if (asin === undefined) continue;
    for (const query of queries) labelled.push({ query, asin, instruction });
  }
  return labelled;
}

/**
 * A proxy when human instructions are absent: each synthetic instruction of `items_ins_v2*.json`
 * used as the query for its own product. Easier than human queries (the instructions share wording
 * with the attributes), so read it as an upper-side sanity check of the search, not as WebShop recall.
 */
export function labelSyntheticInstructions(catalogue: WebShopCatalogue): LabelledQuery[] {
  return catalogue.products.flatMap((p) => (p.syntheticInstruction ? [{ query: p.syntheticInstruction.text, asin: p.asin }] : []));
}
