import { pyStringRepr, pyStrip } from '../../python/python-text.js';
import type { WebShopProduct } from './clean-product.js';

/** The sub-pages of a product page. */
export type SubPageSection = 'Description' | 'Features' | 'Reviews';

/** One WebShop page, as the server would render it. */
export type WebShopPage =
  | { kind: 'search' }
  | { kind: 'results'; page: number; total: number; products: readonly WebShopProduct[] }
  | { kind: 'item'; product: WebShopProduct }
  | { kind: 'sub'; product: WebShopProduct; section: SubPageSection }
  | { kind: 'done'; reward: number };

/** What a clickable does: a button, a product link (by ASIN) or an option radio (by option name). */
export type ClickTarget = { kind: 'button' } | { kind: 'product'; asin: string } | { kind: 'option'; optionName: string };

export interface RenderedPage {
  /** The "simple" text observation: visible text nodes joined with ` [SEP] `. */
  observation: string;
  hasSearchBar: boolean;
  /**
   * Clickable text → target, in `get_available_actions` order: lower-cased button and product-link
   * texts, then option values. Like the original dict, a repeated text keeps its first position and
   * its last target.
   */
  clickables: Map<string, ClickTarget>;
}

/**
 * Renders a page to WebShop's text observation and clickables without going through HTML
 * (benchmarks.md §2.4). Each dynamic text becomes one node, treated as BeautifulSoup would: an empty
 * text gives no node, whitespace-only text with a newline is dropped, other whitespace-only text
 * becomes an empty segment, anything else is stripped.
 */
export function renderPage(page: WebShopPage, instruction: string): RenderedPage {
  const nodes: string[] = [];
  const clickables = new Map<string, ClickTarget>();
  const text = (value: string): void => {
    const segment = textNode(value);
    if (segment !== undefined) nodes.push(segment);
  };
  const button = (label: string): void => {
    nodes.push(label);
    clickables.set(label.toLowerCase(), { kind: 'button' });
  };
  const header = (): void => {
    nodes.push('Instruction:');
    text(instruction);
    button('Back to Search');
  };
  switch (page.kind) {
    case 'search':
      nodes.push('WebShop', 'Instruction:');
      text(instruction);
      button('Search');
      return { observation: nodes.join(' [SEP] '), hasSearchBar: true, clickables };
    case 'results': {
      header();
      nodes.push(`Page ${page.page} (Total results: ${page.total})`);
      if (page.page > 1) button('< Prev');
      button('Next >');
      for (const product of page.products) {
        text(product.asin);
        text(product.title);
        text(product.priceTag);
      }
      for (const product of page.products) clickables.set(product.asin.toLowerCase(), { kind: 'product', asin: product.asin });
      break;
    }
    case 'item': {
      const { product } = page;
      header();
      button('< Prev');
      for (const option of product.options) {
        text(option.name);
        for (const value of option.values) text(value);
      }
      text(product.title);
      nodes.push(pyStrip(`Price: ${product.priceTag}`), pyStrip(`Rating: ${product.rating}`));
      for (const label of ['Description', 'Features', 'Reviews', 'Buy Now']) button(label);
      for (const option of product.options) {
        for (const value of option.values) clickables.set(value, { kind: 'option', optionName: option.name });
      }
      break;
    }
    case 'sub': {
      header();
      button('< Prev');
      if (page.section === 'Description') text(page.product.description);
      if (page.section === 'Features') for (const bullet of page.product.bulletPoints) text(bullet);
      break;
    }
    case 'done':
      nodes.push('Thank you for shopping with us!', 'Your score (min 0.0, max 1.0)', String(page.reward));
      break;
  }
  return { observation: nodes.join(' [SEP] '), hasSearchBar: false, clickables };
}

/** A BeautifulSoup text node of `value`, stripped; undefined when it would be absent or dropped. */
function textNode(value: string): string | undefined {
  if (value === '') return undefined;
  if (/^[ \t\n\r\f]+$/.test(value)) return value.includes('\n') ? undefined : '';
  return pyStrip(value);
}

/** The available actions as AgentBench prints them: a Python dict repr. */
export function formatAvailableActions(actions: { hasSearchBar: boolean; clickables: readonly string[] }): string {
  const list = actions.clickables.map(pyStringRepr).join(', ');
  return `{'has_search_bar': ${actions.hasSearchBar ? 'True' : 'False'}, 'clickables': [${list}]}`;
}
