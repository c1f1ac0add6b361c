import { pyLower, pyStrip } from '../../python/python-text.js';
import type { GoalOptions } from './clean-product.js';
import { normalizeColor } from './normalize-color.js';
import { titleNouns } from './title-nouns.js';
import { tokenSetRatio } from './token-set-ratio.js';

/** The product fields the reward reads. */
export interface RewardProduct {
  name: string;
  title: string;
  description: string;
  bulletPoints: readonly string[];
  attributes: readonly string[];
  query: string;
  productCategory: string;
}

/** The goal fields the reward reads. */
export interface RewardGoal {
  name: string;
  query: string;
  productCategory: string;
  attributes: readonly string[];
  goalOptions: GoalOptions;
  priceUpper: number;
}

export interface RewardOptions {
  /** Noun extraction for the title score; the documented approximation of spaCy by default. */
  nouns?: (name: string) => string[];
}

/** WebShop's verbose reward info, plus the match counts. */
export interface RewardBreakdown {
  reward: number;
  rType: number;
  queryMatch: boolean;
  categoryMatch: boolean;
  titleScore: number;
  rAtt: number;
  wAtt: number;
  attributeMatches: number;
  /** Absent when the goal has no options. */
  rOption?: number;
  wOption?: number;
  optionMatches: number;
  rPrice: boolean;
  wPrice: number;
}

/**
 * WebShop's `get_reward` as AgentBench runs it (benchmarks.md §2.7):
 * (matched attributes + matched options + [price ≤ cap]) / (#attributes + #goal options + 1) × r_type.
 * `options` are the selected option values by option name; `price` is the product's reward price.
 */
export function computeReward(
  input: { product: RewardProduct; goal: RewardGoal; price: number; options: ReadonlyMap<string, string> },
  options: RewardOptions = {},
): RewardBreakdown {
  const { product, goal, price } = input;
  const type = typeReward(product, goal, options.nouns ?? titleNouns);
  const rPrice = price <= goal.priceUpper;
  const attributes = attributeReward(product, goal.attributes);
  const goalValues = goalOptionValues(goal.goalOptions);
  const optionResult = optionReward([...input.options.values()], goalValues);
  const denominator = goal.attributes.length + goalValues.length + 1;
  const reward = ((attributes.matches + optionResult.matches + (rPrice ? 1 : 0)) / denominator) * type.rType;
  const breakdown: RewardBreakdown = {
    reward,
    ...type,
    rAtt: attributes.rAtt,
    wAtt: goal.attributes.length / denominator,
    attributeMatches: attributes.matches,
    optionMatches: optionResult.matches,
    rPrice,
    wPrice: 1 / denominator,
  };
  if (optionResult.rOption !== undefined) {
    breakdown.rOption = optionResult.rOption;
    breakdown.wOption = goalValues.length / denominator;
  }
  return breakdown;
}

/** The goal's option values: the list itself, or the values of a name → value dict. */
export function goalOptionValues(goalOptions: GoalOptions): string[] {
  return goalOptions.kind === 'list' ? goalOptions.values : goalOptions.entries.map(([, value]) => value);
}

/**
 * `get_type_reward`: r_type is 1, lowered to 0.5 when neither the query, two category segments, nor
 * more than 0.2 of the goal name's nouns match; to 0.1 when the title score is below 0.1; to 0 when it is 0.
 */
export function typeReward(
  purchased: Pick<RewardProduct, 'query' | 'productCategory' | 'name'>,
  goal: Pick<RewardGoal, 'query' | 'productCategory' | 'name'>,
  nouns: (name: string) => string[] = titleNouns,
): { rType: number; queryMatch: boolean; categoryMatch: boolean; titleScore: number } {
  const queryMatch = purchased.query === goal.query;
  const purchasedCategory = new Set(purchased.productCategory.split('›').map(pyStrip));
  const goalCategory = new Set(goal.productCategory.split('›').map(pyStrip));
  const categoryMatch = [...purchasedCategory].filter((c) => goalCategory.has(c)).length >= 2;
  const purchasedNouns = new Set(nouns(purchased.name));
  const desiredNouns = nouns(goal.name);
  const shared = new Set(desiredNouns.filter((n) => purchasedNouns.has(n))).size;
  const titleScore = desiredNouns.length === 0 ? 0.2 : shared / desiredNouns.length;
  let rType = 1.0;
  if (!(queryMatch || categoryMatch || titleScore > 0.2)) rType = 0.5;
  if (titleScore < 0.1) rType = 0.1;
  if (titleScore === 0) rType = 0.0;
  return { rType, queryMatch, categoryMatch, titleScore };
}

/**
 * `get_attribute_reward`: a goal attribute matches when some product attribute has token_set_ratio
 * above 85, or when it is a substring of the lower-cased title, joined bullet points or description.
 */
export function attributeReward(product: Pick<RewardProduct, 'attributes' | 'title' | 'bulletPoints' | 'description'>, goalAttributes: readonly string[]): { rAtt: number; matches: number } {
  const title = pyLower(product.title);
  const bullets = pyLower(product.bulletPoints.join(' '));
  const description = pyLower(product.description);
  let matches = 0;
  for (const goalAttribute of goalAttributes) {
    const fuzzy = product.attributes.some((p) => tokenSetRatio(p, goalAttribute) > 85);
    if (fuzzy || title.includes(goalAttribute) || bullets.includes(goalAttribute) || description.includes(goalAttribute)) matches++;
  }
  // The original divides by zero here; goals always have attributes, so this only guards misuse.
  return { rAtt: goalAttributes.length === 0 ? 0 : matches / goalAttributes.length, matches };
}

/**
 * `get_option_reward` (AgentBench's version): after colour normalisation of both sides, a goal option
 * matches when some selected value has token_set_ratio above 85 with it. `rOption` is undefined when
 * the goal has no options.
 */
export function optionReward(selectedValues: readonly string[], goalValues: readonly string[]): { rOption: number | undefined; matches: number } {
  const selected = selectedValues.map(normalizeColor);
  const wanted = goalValues.map(normalizeColor);
  let matches = 0;
  for (const goalValue of wanted) {
    if (selected.some((value) => tokenSetRatio(value, goalValue) > 85)) matches++;
  }
  return { rOption: wanted.length > 0 ? matches / wanted.length : undefined, matches };
}
