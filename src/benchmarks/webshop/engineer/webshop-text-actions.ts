import { normalizeTextActionValue, type TextActionParser } from '../../../engineer/text-actions.js';
import { scanWebShopTextAction } from '../../../environments/webshop/text-action-scan.js';

/** WebShop v0.2: `Action: search[…]` or `Action: click[…]` (AgentBench's pattern), read as the FC tool call. */
export const parseWebShopTextAction: TextActionParser = (text) => {
  // `/[Aa]ction: *\n* *((search|click)\[(.+?)\])/` with JavaScript's `.`, as a linear scan.
  const match = scanWebShopTextAction(text, 'javascript');
  if (!match) return undefined;
  return { name: match.verb === 'search' ? 'search_action' : 'click_action', value: normalizeTextActionValue(match.value) };
};

/** The argument each WebShop tool names its value with. */
export const WEBSHOP_ARGUMENT_KEYS: Readonly<Record<string, string>> = { search_action: 'keywords', click_action: 'value' };
