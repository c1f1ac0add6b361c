import type { EpisodeRecord } from '../../../episode/index.js';
import { countTextOnlyTurns } from '../../../engineer/symbolic/bench-tally.js';
import { isJsLineTerminatorCode, lazyBetweenOnLine } from '../../../python/text-scan.js';

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

const PAGE_HEADERS = ['The initial observation:\n', 'Observation:\n'];
const ACTIONS = '\n\nAvailable Actions:\n';
const CLICKABLES = "'clickables': [";

/**
 * The observation and clickables inside an observation message, or undefined for any other message.
 * Index scans with the results of `/(?:^|\n)(?:The initial observation:|Observation:)\n([\s\S]*?)\n\n
 * Available Actions:\n([\s\S]*)$/` and `/'clickables': \[([\s\S]*)\]/`: as regexes they rescan the rest
 * of the message from every header that finds no actions line and every list that finds no `]`.
 */
export function pageOf(content: string): { page: string; clickables: string[] } | undefined {
  // The leftmost header start wins (at most one header fits a start); a later one would find no actions
  // line either, since the first one's search covers it.
  let best: { start: number; body: number } | undefined;
  for (const header of PAGE_HEADERS) {
    const found = content.startsWith(header) ? { start: 0, body: header.length } : lineHeader(content, header);
    if (found && (best === undefined || found.start < best.start)) best = found;
  }
  if (best === undefined) return undefined;
  const actions = content.indexOf(ACTIONS, best.body);
  if (actions < 0) return undefined;
  const rest = content.slice(actions + ACTIONS.length);
  const listAt = rest.indexOf(CLICKABLES);
  const listEnd = rest.lastIndexOf(']');
  const list = listAt >= 0 && listEnd >= listAt + CLICKABLES.length ? rest.slice(listAt + CLICKABLES.length, listEnd) : '';
  return { page: content.slice(best.body, actions), clickables: quotedItems(list).map((x) => x.toLowerCase()) };
}

function lineHeader(content: string, header: string): { start: number; body: number } | undefined {
  const at = content.indexOf(`\n${header}`);
  return at < 0 ? undefined : { start: at, body: at + 1 + header.length };
}

/**
 * The contents of the matches of `/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g`, by a forward scan. A quote
 * whose item never closes makes the regex rescan from every later quote of its kind; here a failed scan's
 * stop is remembered per kind (every such quote before it was read as an escape and would stop there too).
 */
export function quotedItems(text: string): string[] {
  const out: string[] = [];
  const stops = new Map<number, number>([
    [0x27, -1],
    [0x22, -1],
  ]);
  let p = 0;
  while (p < text.length) {
    const quote = text.charCodeAt(p);
    const stop = stops.get(quote);
    if (stop === undefined || p < stop) {
      p++;
      continue;
    }
    let j = p + 1;
    let closed = false;
    while (j < text.length) {
      const code = text.charCodeAt(j);
      if (code === quote) {
        closed = true;
        break;
      }
      if (code === 0x5c) {
        if (j + 1 >= text.length || isJsLineTerminatorCode(text.charCodeAt(j + 1))) break;
        j += 2;
      } else {
        j++;
      }
    }
    if (closed) {
      out.push(text.slice(p + 1, j));
      p = j + 1;
    } else {
      stops.set(quote, j);
      p++;
    }
  }
  return out;
}

export function observeWebShop(record: EpisodeRecord): { instruction: string; events: WebShopEvent[] } {
  const events: WebShopEvent[] = [];
  let current = { page: '', clickables: [] as string[] };
  let instruction = '';
  for (const m of record.messages) {
    if (m.role === 'user' || m.role === 'tool') {
      const seen = pageOf(m.content);
      if (seen && !seen.page.startsWith('You must call a tool')) current = seen;
      if (instruction === '' && seen) instruction = instructionOf(seen.page);
    } else if (m.role === 'assistant') {
      const call = m.toolCalls?.[0];
      if (call) events.push({ tool: call.name, value: firstArgument(call.arguments).trim().toLowerCase(), page: current.page, clickables: current.clickables });
    }
  }
  return { instruction, events };
}

/** The group of `/Instruction: \[SEP\] (.*?) \[SEP\]/` on a page, or ''. */
export function instructionOf(page: string): string {
  const at = lazyBetweenOnLine(page, 'Instruction: [SEP] ', ' [SEP]');
  return at ? page.slice(at.start, at.end) : '';
}

/** The price limit an instruction states ("price lower than 30.00 dollars"), or undefined. */
export function priceLimit(instruction: string): number | undefined {
  const m = /(?:lower than|less than|under|below|<)\s*(?:\$\s*)?(\d+(?:\.\d+)?)/i.exec(instruction);
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
