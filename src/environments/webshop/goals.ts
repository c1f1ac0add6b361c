import { InternalError } from '../../episode/index.js';
import { compareCodePoints } from '../../python/python-json-compact.js';
import { createPythonRandom, type PythonRandom } from '../../python/python-random.js';
import { trimBothOf } from '../../python/text-scan.js';
import type { GoalOptions, WebShopProduct } from './clean-product.js';
import type { GoalMode } from './load-catalogue.js';

/** WebShop's goal seed: `random.seed(233); random.shuffle(goals)`. AgentBench's sample i is goals[i]. */
export const DEFAULT_GOAL_SEED = 233;

/** A shopping goal, with the fields (and Python types) of the original goal dict. */
export interface WebShopGoal {
  asin: string;
  category: string;
  query: string;
  /** The target product's name; the type reward compares nouns against it. */
  name: string;
  productCategory: string;
  /** What the agent reads, including the price clause. */
  instructionText: string;
  attributes: string[];
  /** The price cap; 1,000,000 (a Python int) when no cap was drawn. */
  priceUpper: number;
  /** Whether `priceUpper` is a drawn cap (a Python float) rather than the int 1,000,000. */
  hasPriceCap: boolean;
  goalOptions: GoalOptions;
  /** 1 (an int) for human goals; inverse attribute frequency (a float) for synthetic goals. */
  weight: number;
}

export interface GoalSet {
  mode: GoalMode;
  goalSeed: number;
  priceSeed: number;
  goals: WebShopGoal[];
  /** The reward price of every product (asin → price), in catalogue order. */
  prices: Map<string, number>;
  /** Human instructions skipped for having no attributes. */
  skippedInstructions: number;
  /** The generator right after the shuffle, which WebShop's `<r>` search keeps drawing from. */
  afterShuffle: PythonRandom;
}

export interface BuildGoalsOptions {
  products: readonly WebShopProduct[];
  mode: GoalMode;
  /** Seed of the goal shuffle; 233 unless an experiment says otherwise. */
  goalSeed?: number;
  /**
   * Seed for the random draws the original makes with an unseeded `random` at start-up (the reward
   * price of a product with a price range, and each goal's price cap). Defaults to the goal seed: the
   * result equals a Python run that called `random.seed(priceSeed)` before building the server.
   */
  priceSeed?: number;
}

const PRICE_RANGE = Array.from({ length: 99 }, (_, i) => 10.0 * (i + 1));
const NO_CAP = 1000000;

/**
 * Builds WebShop's goal list: product prices (one price, or `uniform(low, high)` for a range), goals
 * from human instructions (one per instruction with attributes) or synthetic ones (one per option
 * combination of each product with a synthetic instruction), each with a price cap drawn from the
 * first four multiples of 10 above the price, then the seeded shuffle.
 */
export function buildGoalSet(options: BuildGoalsOptions): GoalSet {
  const goalSeed = options.goalSeed ?? DEFAULT_GOAL_SEED;
  const priceSeed = options.priceSeed ?? goalSeed;
  const rng = createPythonRandom(priceSeed);
  const prices = generateProductPrices(options.products, rng);
  const built = options.mode === 'human' ? humanGoals(options.products, prices, rng) : { goals: syntheticGoals(options.products, prices, rng), skipped: 0 };
  const afterShuffle = createPythonRandom(goalSeed);
  afterShuffle.shuffle(built.goals);
  return { mode: options.mode, goalSeed, priceSeed, goals: built.goals, prices, skippedInstructions: built.skipped, afterShuffle };
}

/** `generate_product_prices`: the single price, or `random.uniform(low, high)` for a range. */
export function generateProductPrices(products: readonly WebShopProduct[], rng: PythonRandom): Map<string, number> {
  const prices = new Map<string, number>();
  for (const product of products) {
    const [low, high] = product.pricing;
    if (low === undefined) prices.set(product.asin, 100.0);
    else prices.set(product.asin, high === undefined ? low : rng.uniform(low, high));
  }
  return prices;
}

/** The price cap and the instruction's price clause for a product price. */
export function drawPriceCap(price: number, rng: PythonRandom): { priceUpper: number; hasPriceCap: boolean; text: string } {
  const candidates = PRICE_RANGE.filter((p) => p > price).slice(0, 4);
  if (candidates.length < 2) return { priceUpper: NO_CAP, hasPriceCap: false, text: '' };
  const pair = rng.sample(candidates, 2);
  const priceUpper = Math.max(pair[0]!, pair[1]!);
  return { priceUpper, hasPriceCap: true, text: `, and price lower than ${priceUpper.toFixed(2)} dollars` };
}

function priceOf(prices: Map<string, number>, asin: string): number {
  const price = prices.get(asin);
  if (price === undefined) throw new InternalError({ message: `No reward price for product ${asin}.` });
  return price;
}

function humanGoals(products: readonly WebShopProduct[], prices: Map<string, number>, rng: PythonRandom): { goals: WebShopGoal[]; skipped: number } {
  const goals: WebShopGoal[] = [];
  let skipped = 0;
  for (const product of products) {
    for (const instruction of product.humanInstructions ?? []) {
      if (instruction.attributes.length === 0) {
        skipped++;
        continue;
      }
      const cap = drawPriceCap(priceOf(prices, product.asin), rng);
      goals.push({
        asin: product.asin,
        category: product.category,
        query: product.query,
        name: product.name,
        productCategory: product.productCategory,
        instructionText: stripDots(instruction.instruction) + cap.text,
        attributes: instruction.attributes,
        priceUpper: cap.priceUpper,
        hasPriceCap: cap.hasPriceCap,
        goalOptions: instruction.options,
        weight: 1,
      });
    }
  }
  return { goals, skipped };
}

function syntheticGoals(products: readonly WebShopProduct[], prices: Map<string, number>, rng: PythonRandom): WebShopGoal[] {
  const goals: WebShopGoal[] = [];
  const attributeCounts = new Map<string, number>();
  for (const product of products) {
    const synthetic = product.syntheticInstruction;
    if (!synthetic) continue;
    if (synthetic.attributes.length === 0) {
      throw new InternalError({ message: `Synthetic instruction of ${product.asin} has no attributes.` });
    }
    const cap = drawPriceCap(priceOf(prices, product.asin), rng);
    const names = product.options.map((o) => o.name).sort(compareCodePoints);
    const valuesByName = new Map(product.options.map((o) => [o.name, o.values]));
    for (const combination of cartesian(names.map((n) => valuesByName.get(n) ?? []))) {
      const entries = names.map((name, i): [string, string] => [name, combination[i]!]);
      const optionText = entries.length === 0 ? '' : ` with ${entries.map(([k, v]) => `${k}: ${v}`).join(', and ')}`;
      goals.push({
        asin: product.asin,
        category: product.category,
        query: product.query,
        name: product.title,
        productCategory: product.productCategory,
        instructionText: `${synthetic.text}${optionText}${cap.text}`,
        attributes: synthetic.attributes,
        priceUpper: cap.priceUpper,
        hasPriceCap: cap.hasPriceCap,
        goalOptions: { kind: 'dict', entries },
        weight: 0,
      });
      for (const attribute of synthetic.attributes) attributeCounts.set(attribute, (attributeCounts.get(attribute) ?? 0) + 1);
    }
  }
  for (const goal of goals) {
    goal.weight = goal.attributes.reduce((sum, a) => sum + 1 / (attributeCounts.get(a) ?? 1), 0) / goal.attributes.length;
  }
  return goals;
}

/** `itertools.product(*lists)`. */
function* cartesian(lists: readonly (readonly string[])[]): Generator<string[]> {
  if (lists.some((l) => l.length === 0)) return;
  const index = lists.map(() => 0);
  for (;;) {
    yield index.map((i, n) => lists[n]![i]!);
    let n = lists.length - 1;
    while (n >= 0 && ++index[n]! >= lists[n]!.length) index[n--] = 0;
    if (n < 0) return;
  }
}

/** Python `s.strip('.')`. */
function stripDots(text: string): string {
  return trimBothOf(text, '.');
}

export { compareCodePoints };
