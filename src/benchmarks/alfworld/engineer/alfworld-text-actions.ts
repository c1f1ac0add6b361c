import { normalizeTextActionValue, type TextActionParser } from '../../../engineer/text-actions.js';

/** ALFWorld v0.2: the rest of the line after `ACTION:`, read as a `take_action` call. */
export const parseAlfworldTextAction: TextActionParser = (text) => {
  const match = /ACTION:(.*)/.exec(text);
  return match ? { name: 'take_action', value: normalizeTextActionValue(match[1] ?? '') } : undefined;
};

/** The argument each ALFWorld tool names its value with. */
export const ALFWORLD_ARGUMENT_KEYS: Readonly<Record<string, string>> = { take_action: 'action' };
