import { normalizeColor } from './normalize-color.js';
import type { RewardBreakdown } from './reward.js';
import { goalOptionValues } from './reward.js';
import { createWebShopSession } from './session.js';
import type { WebShopSession, WebShopStepResult } from './session.js';
import { tokenSetRatio } from './token-set-ratio.js';
import type { WebShopEngine } from './webshop-engine.js';

/** How one goal's gold purchase went. */
export interface GoldPurchaseResult {
  index: number;
  asin: string;
  reward: number;
  /** Environment steps taken after reset. */
  steps: number;
  /** The search text that surfaced the product, if any did. */
  query?: string;
  /** Why the purchase could not be completed as intended. */
  problem?: string;
  rewardInfo?: RewardBreakdown;
}

export interface GoldPurchaseReport {
  /** Goals whose gold purchase scored exactly 1.0. */
  scored: number;
  total: number;
  misses: GoldPurchaseResult[];
  steps: number;
}

const MAX_RESULT_PAGES = 5;

/**
 * Plays a goal's gold purchase through the environment as an agent would: search for the goal
 * product (by its title, then by the instruction), page through the results until its ASIN is
 * clickable, open it, click the goal's option values, buy. Human goals list option values without
 * their option names, so each is mapped to the product's closest option value (exact, else the best
 * token_set_ratio above 85 after colour normalisation, the reward's own criterion).
 */
export function playGoldPurchase(engine: WebShopEngine, index: number, session: WebShopSession = createWebShopSession({ engine })): GoldPurchaseResult {
  let step = session.reset(index);
  const goal = session.goal;
  const product = engine.catalogue.byAsin.get(goal.asin);
  let steps = 0;
  const act = (action: string): WebShopStepResult => {
    steps++;
    step = session.step(action);
    return step;
  };
  const base = { index, asin: goal.asin };
  if (!product) return { ...base, reward: 0, steps, problem: 'goal product is not in the catalogue' };

  const target = goal.asin.toLowerCase();
  let query: string | undefined;
  for (const candidate of [product.title, goal.instructionText].map(searchable).filter((q) => q !== '')) {
    act(`search[${candidate}]`);
    for (let page = 1; page < MAX_RESULT_PAGES && !step.clickables.includes(target) && step.clickables.includes('next >'); page++) act('click[next >]');
    if (step.clickables.includes(target)) {
      query = candidate;
      break;
    }
  }
  if (query === undefined) return { ...base, reward: 0, steps, problem: 'not in the search results for its title or instruction' };
  act(`click[${target}]`);

  const wanted = goalOptionValues(goal.goalOptions);
  const available = step.clickables.slice(step.clickables.indexOf('buy now') + 1);
  for (const value of wanted) {
    const choice = matchOptionValue(value, available);
    if (choice === undefined) return { ...base, reward: 0, steps, query, problem: `goal option '${value}' matches no option value on the product page` };
    act(`click[${choice}]`);
  }
  const bought = act('click[buy now]');
  const result: GoldPurchaseResult = { ...base, reward: bought.reward, steps, query };
  if (bought.rewardInfo) result.rewardInfo = bought.rewardInfo;
  if (!bought.done) result.problem = 'buy now did not end the episode';
  return result;
}

/** Plays the gold purchase of every goal (or of `indices`) and counts those scoring 1.0. */
export function playAllGoldPurchases(
  engine: WebShopEngine,
  options: { indices?: readonly number[]; onProgress?: (done: number, total: number) => void } = {},
): GoldPurchaseReport {
  const indices = options.indices ?? engine.goalSet.goals.map((_, i) => i);
  const session = createWebShopSession({ engine });
  const misses: GoldPurchaseResult[] = [];
  let scored = 0;
  let steps = 0;
  indices.forEach((index, n) => {
    const result = playGoldPurchase(engine, index, session);
    steps += result.steps;
    if (result.reward === 1) scored++;
    else misses.push(result);
    options.onProgress?.(n + 1, indices.length);
  });
  return { scored, total: indices.length, misses, steps };
}

/** Search text an action can carry: brackets and line breaks would change how the action parses. */
function searchable(text: string): string {
  return text.replace(/[[\]\r\n]/g, ' ').trim();
}

/**
 * The clickable option value that stands for a goal option: the same text, else the value whose colour-
 * normalized token-set ratio with it is highest and above 85 (the reward's own option match).
 */
export function matchOptionValue(wanted: string, available: readonly string[]): string | undefined {
  const lower = wanted.toLowerCase();
  if (available.includes(lower)) return lower;
  let best: { value: string; score: number } | undefined;
  for (const value of available) {
    const score = tokenSetRatio(normalizeColor(value), normalizeColor(lower));
    if (score > 85 && (!best || score > best.score)) best = { value, score };
  }
  return best?.value;
}
