import type { EpisodeRecord } from '../../../episode/index.js';
import { countTextOnlyTurns } from '../../../engineer/symbolic/bench-tally.js';

/**
 * WebShop failure signatures, read only from what the target saw and did: the instruction and pages in
 * the observation messages, the clickables listed with them, and the searches and clicks it sent. Never
 * `detail`, never the goal files.
 */
export const WEBSHOP_SIGNATURE_IDS = ['premature_buy', 'over_budget_buy', 'search_loop', 'product_stall', 'text_only_turns', 'invalid_click'] as const;

export type WebShopSignatureId = (typeof WEBSHOP_SIGNATURE_IDS)[number];

export const WEBSHOP_SIGNATURE_DESCRIPTIONS: Readonly<Record<WebShopSignatureId, string>> = Object.freeze({
  premature_buy: 'buy now clicked on a page with option groups before one value of each group was chosen',
  over_budget_buy: "buy now clicked on a product whose price is over the instruction's price limit",
  search_loop: 'the same search sent again, or back to search clicked over and over',
  product_stall: 'three or more turns on one product (description, features, reviews, < prev) without buying',
  text_only_turns: 'an assistant turn with no tool call',
  invalid_click: 'a click on a value that was not among the clickables of the page',
});

/** One action with the page it was taken on. */
export interface WebShopEvent {
  tool: string;
  value: string;
  /** The page text before the action and its clickables (lower-cased). */
  page: string;
  clickables: string[];
}

function firstArgument(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (parsed !== null && typeof parsed === 'object') {
      const first = Object.values(parsed)[0];
      return typeof first === 'string' ? first : first === undefined ? '' : JSON.stringify(first);
    }
  } catch {
    return '';
  }
  return '';
}

/** The observation and clickables inside an observation message, or undefined for any other message. */
function pageOf(content: string): { page: string; clickables: string[] } | undefined {
  const m = /(?:^|\n)(?:The initial observation:|Observation:)\n([\s\S]*?)\n\nAvailable Actions:\n([\s\S]*)$/.exec(content);
  if (!m) return undefined;
  const list = /'clickables': \[([\s\S]*)\]/.exec(m[2] ?? '')?.[1] ?? '';
  const clickables = [...list.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)].map((x) => (x[1] ?? x[2] ?? '').toLowerCase());
  return { page: m[1] ?? '', clickables };
}

export function observeWebShop(record: EpisodeRecord): { instruction: string; events: WebShopEvent[] } {
  const events: WebShopEvent[] = [];
  let current = { page: '', clickables: [] as string[] };
  let instruction = '';
  for (const m of record.messages) {
    if (m.role === 'user' || m.role === 'tool') {
      const seen = pageOf(m.content);
      if (seen && !seen.page.startsWith('You must call a tool')) current = seen;
      if (instruction === '' && seen) instruction = /Instruction: \[SEP\] (.*?) \[SEP\]/.exec(seen.page)?.[1] ?? '';
    } else if (m.role === 'assistant') {
      const call = m.toolCalls?.[0];
      if (call) events.push({ tool: call.name, value: firstArgument(call.arguments).trim().toLowerCase(), page: current.page, clickables: current.clickables });
    }
  }
  return { instruction, events };
}

/** The price limit an instruction states ("price lower than 30.00 dollars"), or undefined. */
export function priceLimit(instruction: string): number | undefined {
  const m = /(?:lower than|less than|under|below|<)\s*\$?\s*(\d+(?:\.\d+)?)/i.exec(instruction);
  return m ? Number(m[1]) : undefined;
}

/** The lowest price on a product page ("Price: $12.99" or "Price: $10.00 to $14.00"). */
export function pagePrice(page: string): number | undefined {
  const m = /Price: \$(\d[\d,]*(?:\.\d+)?)/.exec(page);
  return m ? Number(m[1]!.replace(/,/g, '')) : undefined;
}

/** Whether a product page shows option groups: segments between `< Prev` and the title. */
export function hasOptionGroups(page: string): boolean {
  const segments = page.split('[SEP]').map((s) => s.trim());
  const start = segments.findIndex((s) => s.toLowerCase() === '< prev');
  const price = segments.findIndex((s) => s.startsWith('Price:'));
  return start >= 0 && price > start && price - start - 2 >= 2;
}

const PRODUCT_TABS = new Set(['description', 'features', 'reviews', '< prev']);

export function detectWebShopSignatures(record: EpisodeRecord): Set<WebShopSignatureId> {
  const { instruction, events } = observeWebShop(record);
  const found = new Set<WebShopSignatureId>();
  if (countTextOnlyTurns(record) > 0) found.add('text_only_turns');
  const limit = priceLimit(instruction);
  const queries = new Set<string>();
  let backToSearch = 0;
  let optionClicks = 0;
  let productPage = '';
  let tabTurns = 0;
  for (const e of events) {
    if (e.tool === 'search_action') {
      if (queries.has(e.value)) found.add('search_loop');
      queries.add(e.value);
      continue;
    }
    if (e.tool !== 'click_action') continue;
    if (e.clickables.length > 0 && !e.clickables.includes(e.value)) found.add('invalid_click');
    if (e.value === 'back to search' && ++backToSearch >= 3) found.add('search_loop');
    if (/^[a-z0-9]{10}$/.test(e.value) && e.page.includes('Total results:')) {
      optionClicks = 0;
      tabTurns = 0;
      productPage = '';
      continue;
    }
    if (e.page.includes('[SEP] Buy Now')) productPage = e.page;
    if (e.value === 'buy now') {
      const page = productPage || e.page;
      if (hasOptionGroups(page) && optionClicks === 0) found.add('premature_buy');
      const price = pagePrice(page);
      if (limit !== undefined && price !== undefined && price > limit * 1.05) found.add('over_budget_buy');
    } else if (PRODUCT_TABS.has(e.value)) {
      if (++tabTurns >= 3) found.add('product_stall');
    } else if (e.clickables.includes(e.value) && e.page.includes('[SEP] Buy Now')) {
      optionClicks++;
    }
  }
  return found;
}
