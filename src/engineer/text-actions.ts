/**
 * Reading the v0.2 text protocols' turns as the function-calling protocol would have recorded them, so
 * evidence readers (packet signals, the symbolic engineer) need one code path. The parsers follow the
 * protocols' own rules: ALFWorld takes the rest of the line after `ACTION:`, WebShop the first
 * `Action: search[…]` / `Action: click[…]`.
 */
import type { ChatMessage, EpisodeRecord } from '../episode/index.js';
import { scanWebShopTextAction } from '../environments/webshop/text-action-scan.js';

/** An action read from a text turn: the tool the FC protocol would have called and its lower-cased value. */
export interface TextAction {
  name: 'take_action' | 'search_action' | 'click_action';
  value: string;
}

export type TextActionParser = (text: string) => TextAction | undefined;

function normalize(value: string): string {
  return value.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** ALFWorld v0.2: the rest of the line after `ACTION:`. */
export const parseAlfworldTextAction: TextActionParser = (text) => {
  const match = /ACTION:(.*)/.exec(text);
  return match ? { name: 'take_action', value: normalize(match[1] ?? '') } : undefined;
};

/** WebShop v0.2: `Action: search[…]` or `Action: click[…]` (AgentBench's pattern). */
export const parseWebShopTextAction: TextActionParser = (text) => {
  // `/[Aa]ction: *\n* *((search|click)\[(.+?)\])/` with JavaScript's `.`, as a linear scan.
  const match = scanWebShopTextAction(text, 'javascript');
  if (!match) return undefined;
  return { name: match.verb === 'search' ? 'search_action' : 'click_action', value: normalize(match.value) };
};

const ARGUMENT_KEY: Readonly<Record<TextAction['name'], string>> = { take_action: 'action', search_action: 'keywords', click_action: 'value' };

/**
 * A text-protocol record (one with a `preamble`) as a tool-calling one: the preamble is dropped, the
 * first task message stays a user message, each assistant turn that names an action gets that action as a
 * tool call, and the user message that answers it becomes its tool message. Turns that name no action stay
 * text-only. Other records are returned unchanged.
 */
export function asToolCallView(record: EpisodeRecord, parse: TextActionParser): EpisodeRecord {
  const preamble = record.preamble ?? 0;
  if (preamble <= 0) return record;
  const messages: ChatMessage[] = [];
  let pendingId: string | undefined;
  let calls = 0;
  let seenTask = false;
  for (const message of record.messages.slice(preamble)) {
    if (message.role === 'assistant') {
      const action = parse(message.content ?? '');
      if (action) {
        pendingId = `text-${calls++}`;
        messages.push({ role: 'assistant', content: message.content, toolCalls: [{ id: pendingId, name: action.name, arguments: JSON.stringify({ [ARGUMENT_KEY[action.name]]: action.value }) }] });
      } else {
        pendingId = undefined;
        messages.push({ role: 'assistant', content: message.content });
      }
    } else if (message.role === 'user') {
      if (seenTask && pendingId !== undefined) messages.push({ role: 'tool', toolCallId: pendingId, content: message.content });
      else messages.push({ role: 'user', content: message.content });
      seenTask = true;
      pendingId = undefined;
    } else {
      messages.push(message);
    }
  }
  const { preamble: _dropped, ...rest } = record;
  return { ...rest, messages };
}
