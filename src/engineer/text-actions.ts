/**
 * Reading a text protocol's turns as the function-calling protocol would have recorded them, so evidence
 * readers (packet signals, the symbolic engineer) need one code path. Each benchmark brings the parser of
 * its own protocol and the argument key of each tool.
 */
import type { ChatMessage, EpisodeRecord } from '../episode/index.js';

/** An action read from a text turn: the tool the FC protocol would have called and its lower-cased value. */
export interface TextAction {
  name: string;
  value: string;
}

export type TextActionParser = (text: string) => TextAction | undefined;

/** How a value read from a text turn is compared: trimmed, whitespace runs collapsed, lower-cased. */
export function normalizeTextActionValue(value: string): string {
  return value.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * A text-protocol record (one with a `preamble`) as a tool-calling one: the preamble is dropped, the
 * first task message stays a user message, each assistant turn that names an action gets that action as a
 * tool call, and the user message that answers it becomes its tool message. Turns that name no action stay
 * text-only. Other records are returned unchanged.
 */
export function asToolCallView(record: EpisodeRecord, parse: TextActionParser, argumentKeys: Readonly<Record<string, string>>): EpisodeRecord {
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
        messages.push({ role: 'assistant', content: message.content, toolCalls: [{ id: pendingId, name: action.name, arguments: JSON.stringify({ [argumentKeys[action.name] ?? 'value']: action.value }) }] });
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
