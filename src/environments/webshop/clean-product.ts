import { pyFloatRepr, pyLower, pyStrip } from '../../python/python-text.js';

/** One buying option of a product: a lower-cased name and its cleaned values, in catalogue order. */
export interface WebShopOption {
  name: string;
  values: string[];
}

/** A goal's required options: a list of values (human goals) or name → value pairs (synthetic goals). */
export type GoalOptions = { kind: 'list'; values: string[] } | { kind: 'dict'; entries: [string, string][] };

/** One human instruction from `items_human_ins.json`, as WebShop turns it into a goal. */
export interface HumanInstruction {
  instruction: string;
  attributes: string[];
  options: GoalOptions;
}

/**
 * A catalogue product after WebShop's load-time cleaning (`engine.load_products`). Field names follow
 * the original's capitalised keys where they differ from the raw file: `title` is `Title`,
 * `bulletPoints` is `BulletPoints`, `priceTag` is the displayed `Price`.
 */
export interface WebShopProduct {
  asin: string;
  /** The raw `name`; the type reward parses it for nouns. */
  name: string;
  title: string;
  description: string;
  bulletPoints: string[];
  category: string;
  /** Lower-cased and stripped. */
  query: string;
  productCategory: string;
  /** One price, or the first two of a range. */
  pricing: number[];
  /** `$X` or `$X to $Y`, with Python float formatting (`$100.0`). */
  priceTag: string;
  options: WebShopOption[];
  /** From `items_ins_v2*.json`; `['DUMMY_ATTR']` when the product has no entry there. */
  attributes: string[];
  /** Always `N.A.`: WebShop's small setting loads no ratings or reviews. */
  rating: string;
  /** Human instructions, when `items_human_ins.json` was loaded and has this ASIN. */
  humanInstructions?: HumanInstruction[];
  /** The synthetic instruction of `items_ins_v2*.json`, when the product has one. */
  syntheticInstruction?: { text: string; attributes: string[] };
}

/** Why a raw record could not be cleaned (the original would crash while loading). */
export interface CleanProductError {
  asin: string;
  message: string;
}

/** Extra per-ASIN data joined in while cleaning. */
export interface ProductExtras {
  attributes?: string[];
  syntheticInstruction?: { text: string; attributes: string[] };
  humanInstructions?: HumanInstruction[];
}

/**
 * Cleans one raw catalogue record as WebShop does at load time: Title/Description/BulletPoints,
 * pricing split on `$` (everything but digits and dots removed; no price → [100.0]), options with
 * lower-cased names and values trimmed, `/` → ` | `, lower-cased (later duplicates of a lower-cased name
 * replace the values but keep the first position, as a Python dict does), and the lower-cased query.
 * Skipping of bad or duplicate ASINs is the caller's job.
 */
export function cleanProduct(raw: Record<string, unknown>, extras: ProductExtras): WebShopProduct | CleanProductError {
  const asin = String(raw.asin);
  const fields = ['name', 'full_description', 'category', 'query', 'product_category'] as const;
  for (const field of fields) {
    if (typeof raw[field] !== 'string') return { asin, message: `field '${field}' is not a string` };
  }
  const small = raw.small_description;
  const bulletPoints = Array.isArray(small) ? small.map(String) : [String(small ?? '')];
  const prices = parsePricing(raw.pricing);
  if ('message' in prices) return { asin, message: prices.message };
  const product: WebShopProduct = {
    asin,
    name: raw.name as string,
    title: raw.name as string,
    description: raw.full_description as string,
    bulletPoints,
    category: raw.category as string,
    query: pyStrip(pyLower(raw.query as string)),
    productCategory: raw.product_category as string,
    pricing: prices.pricing,
    priceTag: prices.priceTag,
    options: cleanOptions(raw.customization_options),
    attributes: extras.attributes ?? ['DUMMY_ATTR'],
    rating: 'N.A.',
  };
  if (extras.humanInstructions) product.humanInstructions = extras.humanInstructions;
  if (extras.syntheticInstruction) product.syntheticInstruction = extras.syntheticInstruction;
  return product;
}

/** WebShop's price cleaning: `float(Decimal(re.sub(r'[^\d.]', '', piece)))` for each `$`-piece. */
export function parsePricing(pricing: unknown): { pricing: number[]; priceTag: string } | { message: string } {
  if (pricing === null || pricing === undefined || pricing === '' || pricing === false) {
    return { pricing: [100.0], priceTag: '$100.0' };
  }
  if (typeof pricing !== 'string') return { message: `pricing ${JSON.stringify(pricing)} is not a string` };
  const values: number[] = [];
  for (const piece of pricing.split('$').slice(1)) {
    const digits = piece.replace(/[^0-9.]/g, '');
    if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(digits)) return { message: `pricing '${pricing}' has a piece that is not a number ('${digits}')` };
    values.push(Number(digits));
  }
  if (values.length === 0) return { message: `pricing '${pricing}' has no '$' amount` };
  if (values.length === 1) return { pricing: values, priceTag: `$${pyFloatRepr(values[0]!)}` };
  const range = values.slice(0, 2);
  return { pricing: range, priceTag: `$${pyFloatRepr(range[0]!)} to $${pyFloatRepr(range[1]!)}` };
}

function cleanOptions(raw: unknown): WebShopOption[] {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return [];
  const byName = new Map<string, string[]>();
  for (const [name, contents] of Object.entries(raw as Record<string, unknown>)) {
    if (contents === null || contents === undefined || !Array.isArray(contents)) continue;
    const values = contents.map((content) => {
      const value = (content as { value?: unknown } | null)?.value;
      return pyLower(pyStrip(String(value ?? '')).replaceAll('/', ' | '));
    });
    byName.set(pyLower(name), values);
  }
  return [...byName].map(([name, values]) => ({ name, values }));
}
