import type { HookPoint } from '../environment.js';
import { parseCurrentPrice, parseRequirements, type WebShopRequirements } from './requirement-parser.js';

export type WebShopPageType = 'home' | 'search_results' | 'product_detail' | 'unknown';
export type AttributeCategory = 'color' | 'size' | 'spec' | 'other';

/** Price tolerance of `product_price_over_budget` (the original's default 0.05). */
export const PRICE_TOLERANCE = 0.05;

/** `state.remaining_steps` when the remaining budget is not known. */
const UNKNOWN_REMAINING = 999;

/** Page type from an observation and its clickables (protocol.md §4.2). */
export function detectPageType(observation: string, hasSearchBar: boolean, clickables: readonly string[]): WebShopPageType {
  if (hasSearchBar) return 'home';
  if (observation.includes('Total results:')) return 'search_results';
  if (clickables.includes('buy now')) return 'product_detail';
  if (observation.includes('Description') && observation.includes('Features') && observation.includes('Reviews')) return 'product_detail';
  return 'unknown';
}

function categoryOf(name: string): AttributeCategory {
  const n = name.toLowerCase();
  if (n.includes('color') || n.includes('colour')) return 'color';
  if (n.includes('size') || n.includes('length') || n.includes('width')) return 'size';
  if (/style|spec|configuration|capacity|pattern|flavor|scent|model|pack|count|material|edition|design|type/.test(n)) return 'spec';
  return 'other';
}

/**
 * Option groups of a product page: between `< Prev` and the title, a segment that is not clickable names
 * a group and the clickable segments after it are its values. Returns category → values (a category seen
 * twice collects both groups).
 */
export function parseAttributeOptions(observation: string, clickables: readonly string[]): Record<string, string[]> {
  const segments = observation.split('[SEP]').map((s) => s.trim());
  const start = segments.findIndex((s) => s.toLowerCase() === '< prev');
  if (start < 0) return {};
  const clickable = new Set(clickables);
  const options: Record<string, string[]> = {};
  let current: string[] | undefined;
  for (const segment of segments.slice(start + 1)) {
    if (segment.startsWith('Price:')) break;
    const value = segment.toLowerCase();
    if (clickable.has(value) && current) {
      current.push(value);
    } else {
      const category = categoryOf(segment);
      current = options[category] ?? [];
      options[category] = current;
    }
  }
  for (const [category, values] of Object.entries(options)) if (values.length === 0) delete options[category];
  return options;
}

/** `_match_option_in_list`: exact, then containment either way, then equal after dropping spaces, `-` and `_`. */
export function matchOptionInList(required: string, options: readonly string[]): string | undefined {
  const want = required.toLowerCase().trim();
  if (want === '') return undefined;
  if (options.includes(want)) return want;
  const squash = (s: string) => s.replace(/[\s_-]+/g, '');
  return options.find((o) => o.includes(want) || want.includes(o)) ?? options.find((o) => squash(o) === squash(want));
}

/** What the runtime knows of a WebShop episode (H1 page state, requirements, counters), fed into every ctx. */
export class WebShopEpisodeState {
  readonly requirements: WebShopRequirements;
  /** The current observation as ctx shows it; a text-only turn replaces it with the nudge. */
  observation: string;
  hasSearchBar: boolean;
  clickables: string[];
  pageType: WebShopPageType = 'unknown';
  backToSearchCount = 0;
  readonly searchQueries: string[] = [];
  productStallTurns = 0;
  readonly asinsVisited: string[] = [];
  currentAsin = '';
  selectedAttributes: Record<string, string> = {};
  attributeOptions: Record<string, string[]> = {};
  currentPrice: number | null = null;
  private pageClickables: string[] = [];

  constructor(initialObservation: string, hasSearchBar: boolean, clickables: readonly string[]) {
    this.requirements = parseRequirements(initialObservation);
    this.observation = initialObservation;
    this.hasSearchBar = hasSearchBar;
    this.clickables = clickables.map((c) => c.toLowerCase());
  }

  /** The highest repeat count of any single search query. */
  get duplicateSearchCount(): number {
    const counts = new Map<string, number>();
    let max = 0;
    for (const q of this.searchQueries) {
      const n = (counts.get(q) ?? 0) + 1;
      counts.set(q, n);
      max = Math.max(max, n);
    }
    return max;
  }

  noteTextOnly(nudge: string): void {
    this.observation = nudge;
  }

  /** The H1 page-state update after an env step with `action` (`search[…]` / `click[…]`). */
  updateAfterStep(action: string, result: { observation: string; hasSearchBar: boolean; clickables: readonly string[] }): void {
    const m = /^(search|click)\[(.*)\]$/s.exec(action.trim());
    const verb = m?.[1] ?? '';
    const value = (m?.[2] ?? '').trim().toLowerCase();
    const previousAsin = this.currentAsin;
    const previousPage = this.pageType;
    const previousOptions = this.attributeOptions;
    this.observation = result.observation;
    this.hasSearchBar = result.hasSearchBar;
    this.clickables = result.clickables.map((c) => c.toLowerCase());
    this.pageType = detectPageType(result.observation, result.hasSearchBar, this.clickables);

    if (verb === 'search' && value !== '') {
      this.searchQueries.push(value);
      this.selectedAttributes = {};
    }
    if (verb === 'click' && value === 'back to search') {
      this.backToSearchCount++;
      this.selectedAttributes = {};
    }
    if (verb === 'click' && previousPage === 'search_results' && /^[a-z0-9]{10}$/.test(value) && this.pageType === 'product_detail') {
      this.currentAsin = value.toUpperCase();
      this.asinsVisited.push(this.currentAsin);
      this.selectedAttributes = {};
    }
    if (verb === 'click' && previousPage === 'product_detail' && this.pageType === 'product_detail') {
      for (const [category, values] of Object.entries(previousOptions)) {
        if (values.includes(value)) this.selectedAttributes[category] = value;
      }
    }
    if (this.pageType === 'product_detail') {
      this.attributeOptions = parseAttributeOptions(result.observation, this.clickables);
      this.pageClickables = this.clickables;
      this.currentPrice = parseCurrentPrice(result.observation);
      this.productStallTurns = this.productStallTurns > 0 && this.currentAsin === previousAsin ? this.productStallTurns + 1 : 1;
    } else if (this.pageType === 'unknown' && this.productStallTurns > 0) {
      // A product's sub-page (description, features, reviews) is still time spent on that product.
      this.productStallTurns++;
    } else if (this.pageType === 'search_results' || this.pageType === 'home') {
      this.productStallTurns = 0;
      this.currentPrice = null;
      this.attributeOptions = {};
    }
  }

  /**
   * `_buy_now_precheck` without recording or the safety valve: on a product page, a required colour
   * (or an alternative spelling), size or spec is offered but not selected; or nothing at all is
   * selected while colour, size or other groups have options.
   */
  requiredOptionsUnselected(): boolean {
    if (this.pageType !== 'product_detail') return false;
    const req = this.requirements;
    const selected = this.selectedAttributes;
    const unselected = (category: AttributeCategory, wanted: readonly string[]): boolean => {
      const options = this.attributeOptions[category] ?? [];
      const offered = wanted.map((w) => matchOptionInList(w, options)).find((m) => m !== undefined);
      if (offered === undefined) return false;
      const chosen = selected[category];
      return chosen === undefined || !wanted.some((w) => matchOptionInList(w, [chosen]) !== undefined);
    };
    if (req.requiredColor && unselected('color', [req.requiredColor, ...req.colorAlternatives])) return true;
    if (req.requiredSize && unselected('size', [req.requiredSize])) return true;
    for (const spec of Object.values(req.requiredSpecs)) {
      if (unselected('spec', [spec]) || unselected('other', [spec])) return true;
    }
    const anySelected = Object.keys(selected).length > 0;
    const groupsWithOptions = (['color', 'size', 'other'] as const).some((c) => (this.attributeOptions[c] ?? []).length > 0);
    return !anySelected && groupsWithOptions;
  }

  priceOverBudget(): boolean {
    const max = this.requirements.priceMax;
    return this.currentPrice !== null && max !== null && this.currentPrice > max * (1 + PRICE_TOLERANCE);
  }

  /** Clickables of the last product page (used by tests and the precheck). */
  get productClickables(): readonly string[] {
    return this.pageClickables;
  }
}

/** The action being decided, for `on_before_action`. */
export interface WebShopActionView {
  tool: string;
  value: unknown;
  finalAction: string | null;
}

/**
 * The WebShop hook ctx of protocol.md §4.2: `action`, `state`, `task`, `predicates`, `observation`,
 * `step`, `max_step`, `remaining_steps`, `webshop`. on_init sees no clickables and no search bar;
 * on_post_step sees an empty action. Built-in H2 is off, so its counters are 0 and its predicates false.
 */
export function buildWebShopHookContext(point: HookPoint, st: WebShopEpisodeState, maxStep: number, view?: WebShopActionView): Record<string, unknown> {
  const step = point.round === 0 ? 0 : point.round - 1;
  const remaining = Number.isFinite(point.remaining) ? point.remaining : UNKNOWN_REMAINING;
  const isInit = point.hook === 'on_init';
  const tool = point.hook === 'on_before_action' ? (view?.tool ?? point.call.tool) : '';
  const rawValue = point.hook === 'on_before_action' ? (view?.value ?? point.call.firstValue) : '';
  const value = typeof rawValue === 'string' ? rawValue : rawValue === undefined || rawValue === null ? '' : JSON.stringify(rawValue);
  const valueNormalized = value.toLowerCase().trim();
  const clickables = isInit ? [] : [...st.clickables];
  const hasSearchBar = isInit ? false : st.hasSearchBar;
  const buyNowAvailable = clickables.includes('buy now');
  const duplicateSearch = st.duplicateSearchCount;
  const req = st.requirements;
  const action = {
    tool,
    value,
    value_normalized: valueNormalized,
    final_action: point.hook === 'on_before_action' ? (view?.finalAction ?? null) : null,
  };
  const state = {
    page_type: st.pageType,
    has_search_bar: hasSearchBar,
    clickables,
    buy_now_available: buyNowAvailable,
    back_to_search_count: st.backToSearchCount,
    duplicate_search_count: duplicateSearch,
    product_stall_turns: st.productStallTurns,
    same_click_count: 0,
    remaining_steps: remaining,
    current_price: st.currentPrice,
    price_max: req.priceMax,
  };
  const task = {
    task_type: req.taskType,
    required_color: req.requiredColor,
    required_size: req.requiredSize,
    required_material: req.requiredMaterial,
  };
  const webshop = {
    search_queries: [...st.searchQueries],
    asins_visited: [...st.asinsVisited],
    current_asin: st.currentAsin,
    selected_attributes: { ...st.selectedAttributes },
    attribute_options: structuredClone(st.attributeOptions),
  };
  const predicates = {
    required_options_unselected: tool === 'click_action' && valueNormalized === 'buy now' && st.requiredOptionsUnselected(),
    product_price_over_budget: st.priceOverBudget(),
    same_click_repeated: false,
    duplicate_search_repeated: duplicateSearch >= 2,
    search_loop_detected: st.backToSearchCount >= 2 || duplicateSearch >= 2,
    product_page_stalled: st.productStallTurns >= 2,
    buy_now_available: buyNowAvailable,
    search_not_available: !hasSearchBar,
    action_not_admissible: false,
  };
  return { action, state, task, predicates, observation: st.observation, step, max_step: maxStep, remaining_steps: remaining, webshop };
}
