import { ConfigError, InternalError } from '../../episode/index.js';
import { pyStringRepr } from '../../python/python-text.js';
import type { WebShopGoal } from './goals.js';
import type { ClickTarget, RenderedPage, SubPageSection, WebShopPage } from './render-page.js';
import { renderPage } from './render-page.js';
import type { RewardBreakdown } from './reward.js';
import { computeReward } from './reward.js';
import { PRODUCT_WINDOW } from './search.js';
import type { WebShopEngine } from './webshop-engine.js';

/** What one `reset` or `step` returns. */
export interface WebShopStepResult {
  observation: string;
  hasSearchBar: boolean;
  /** The clickable values of the current page (`get_available_actions()['clickables']`). */
  clickables: string[];
  /** The purchase reward on the step that clicks "buy now"; 0 otherwise. */
  reward: number;
  done: boolean;
  /** The reward components, on the purchase step. */
  rewardInfo?: RewardBreakdown;
}

/** Where the session is, for hooks and debugging. */
export interface WebShopSessionState {
  goalIndex: number;
  page: WebShopPage['kind'];
  keywords: string[] | null;
  resultsPage: number | null;
  asin: string | null;
  options: Record<string, string>;
  done: boolean;
}

export interface WebShopSession {
  readonly goal: WebShopGoal;
  readonly instruction: string;
  /** Starts goal `goalIndex` (AgentBench's sample index) on the search page. */
  reset(goalIndex: number): WebShopStepResult;
  /** Runs `search[keywords]` or `click[value]`; anything else (or an unknown click) changes nothing. */
  step(action: string): WebShopStepResult;
  state(): WebShopSessionState;
}

const SUB_PAGES: Record<string, SubPageSection> = { description: 'Description', features: 'Features', reviews: 'Reviews' };

/**
 * One WebShop episode in text ("simple") observation mode, following the original `SimServer`
 * transitions (benchmarks.md §2.5): search from any page resets page, product and options; "< prev"
 * goes back one page on results, to the results from a product, to the product from a sub-page; an
 * ASIN opens the product with no options chosen; an option value selects it; "buy now" scores the
 * purchase and ends the episode. Page-dependent clicks ("next >", "< prev") are resolved from the
 * address the original would be on, including its substring test of that address.
 * Each session has its own copy of the post-shuffle random state for `<r>` searches.
 */
export function createWebShopSession(options: { engine: WebShopEngine; sessionId?: string }): WebShopSession {
  const { engine } = options;
  let goalIndex = -1;
  let goal: WebShopGoal | undefined;
  let page: WebShopPage = { kind: 'search' };
  let url = '';
  let keywords: string[] | null = null;
  let resultsPage: number | null = null;
  let asin: string | null = null;
  let chosen = new Map<string, string>();
  let done = false;
  let rendered: RenderedPage | undefined;
  let rng = engine.goalSet.afterShuffle.clone();
  const sessionId = options.sessionId ?? 'session';

  const current = (): WebShopGoal => {
    if (!goal) throw new InternalError({ message: 'WebShop session used before reset().' });
    return goal;
  };
  const show = (next: WebShopPage, nextUrl: string): void => {
    page = next;
    url = nextUrl;
    rendered = renderPage(next, current().instructionText);
  };
  const result = (reward = 0, rewardInfo?: RewardBreakdown): WebShopStepResult => {
    const view = rendered!;
    const out: WebShopStepResult = { observation: view.observation, hasSearchBar: view.hasSearchBar, clickables: [...view.clickables.keys()], reward, done };
    if (rewardInfo) out.rewardInfo = rewardInfo;
    return out;
  };
  const pageName = (): string => ['search_results', 'item_page', 'item_sub_page', 'done'].find((name) => url.includes(name)) ?? '';
  const keywordPath = (): string => (keywords ?? []).join('+');
  const optionsJson = (): string => JSON.stringify(Object.fromEntries(chosen));
  const optionsRepr = (): string => `{${[...chosen].map(([k, v]) => `${pyStringRepr(k)}: ${pyStringRepr(v)}`).join(', ')}}`;

  const showSearch = (): void => {
    keywords = null;
    resultsPage = null;
    asin = null;
    chosen = new Map();
    show({ kind: 'search' }, `/${sessionId}`);
  };
  const showResults = (words: string[], pageNumber: number): void => {
    keywords = words;
    resultsPage = pageNumber;
    asin = null;
    chosen = new Map();
    const all = engine.search.search(words, rng);
    const slice = all.slice(Math.max(0, (pageNumber - 1) * PRODUCT_WINDOW), Math.max(0, pageNumber * PRODUCT_WINDOW));
    show({ kind: 'results', page: pageNumber, total: all.length, products: slice }, `/search_results/${sessionId}/${keywordPath()}/${pageNumber}`);
  };
  const showItem = (): void => {
    const product = engine.catalogue.byAsin.get(asin ?? '');
    if (!product) throw new InternalError({ message: `WebShop product ${String(asin)} is not in the catalogue.` });
    show({ kind: 'item', product }, `/item_page/${sessionId}/${asin}/${keywordPath()}/${resultsPage}/${optionsJson()}`);
  };
  const click = (name: string, target: ClickTarget): WebShopStepResult => {
    if (name === 'buy now') return buy();
    if (name === 'back to search') showSearch();
    else if (name === 'next >' && pageName() === 'search_results') showResults(keywords ?? [], (resultsPage ?? 1) + 1);
    else if (name === '< prev' && pageName() === 'search_results') showResults(keywords ?? [], (resultsPage ?? 1) - 1);
    else if (name === '< prev' && pageName() === 'item_sub_page') showItem();
    else if (name === '< prev' && pageName() === 'item_page') showResults(keywords ?? [], resultsPage ?? 1);
    else if (SUB_PAGES[name]) {
      const product = engine.catalogue.byAsin.get(asin ?? '');
      if (!product) throw new InternalError({ message: `WebShop sub-page requested without a product (${String(asin)}).` });
      show({ kind: 'sub', product, section: SUB_PAGES[name] }, `/item_sub_page/${sessionId}/${asin}/${keywordPath()}/${resultsPage}/${SUB_PAGES[name]}/${optionsRepr()}`);
    } else {
      if (target.kind === 'product') asin = name.toUpperCase();
      else if (target.kind === 'option') chosen.set(target.optionName.toLowerCase(), name);
      showItem();
    }
    return result();
  };
  const buy = (): WebShopStepResult => {
    const product = engine.catalogue.byAsin.get(asin ?? '');
    if (!product) throw new InternalError({ message: `WebShop purchase without a product (${String(asin)}).` });
    const info = computeReward({ product, goal: current(), price: engine.goalSet.prices.get(product.asin) ?? 0, options: chosen }, engine.rewardOptions);
    done = true;
    show({ kind: 'done', reward: info.reward }, `/done/${sessionId}/${asin}/${optionsRepr()}`);
    return result(info.reward, info);
  };

  return {
    get goal() {
      return current();
    },
    get instruction() {
      return current().instructionText;
    },
    reset(index) {
      const next = engine.goalSet.goals[index];
      if (!Number.isInteger(index) || !next) throw new ConfigError({ message: `WebShop goal index ${index} is out of range: there are ${engine.goalSet.goals.length} goals (0..${engine.goalSet.goals.length - 1}).`, field: 'taskIndex' });
      goalIndex = index;
      goal = next;
      done = false;
      rng = engine.goalSet.afterShuffle.clone();
      showSearch();
      return result();
    },
    step(action) {
      current();
      if (done) return { ...result(), clickables: [] };
      const parsed = parseAction(action);
      const arg = parsed.arg?.toLowerCase();
      if (parsed.name === 'search' && arg !== undefined && arg !== '') {
        showResults(arg.split(' '), 1);
        return result();
      }
      const target = arg === undefined ? undefined : rendered!.clickables.get(arg);
      if (parsed.name === 'click' && arg !== undefined && target && arg !== 'search') return click(arg, target);
      return result();
    },
    state: () => ({
      goalIndex,
      page: page.kind,
      keywords: keywords === null ? null : [...keywords],
      resultsPage,
      asin,
      options: Object.fromEntries(chosen),
      done,
    }),
  };
}

/** The engine's `parse_action`: `re.match(r'(.+)\[(.+)\]', action)` (greedy, anchored at the start only). */
export function parseAction(action: string): { name: string; arg: string | undefined } {
  // `/^([^\n]+)\[([^\n]+)\]/` by index: on the first line, the last `]`, then the last `[` that leaves a
  // non-empty name before it and a non-empty argument before that `]` (as the greedy groups settle). The
  // regex retried its second group for every `[`, which is quadratic in a line of brackets.
  const lineEnd = action.indexOf('\n');
  const line = lineEnd < 0 ? action : action.slice(0, lineEnd);
  const close = line.lastIndexOf(']');
  const open = close < 2 ? -1 : line.lastIndexOf('[', close - 2);
  return open >= 1 ? { name: line.slice(0, open), arg: line.slice(open + 1, close) } : { name: action, arg: undefined };
}
