import { normalizeTextActionValue, type TextActionParser } from '../../../engineer/text-actions.js';

/** WebShop v0.2: `Action: search[…]` or `Action: click[…]` (AgentBench's pattern), read as the FC tool call. */
export const parseWebShopTextAction: TextActionParser = (text) => {
  const match = /[Aa]ction: *\n* *((search|click)\[(.+?)\])/.exec(text);
  if (!match) return undefined;
  return { name: match[2] === 'search' ? 'search_action' : 'click_action', value: normalizeTextActionValue(match[3] ?? '') };
};

/** The argument each WebShop tool names its value with. */
export const WEBSHOP_ARGUMENT_KEYS: Readonly<Record<string, string>> = { search_action: 'keywords', click_action: 'value' };
