/**
 * Conversion between our chat vocabulary (camelCase `toolCalls`, `toolCallId`) and the OpenAI chat wire
 * format (`tool_calls`, `tool_call_id`). Used by the OpenAI-compatible adapter in both directions and by
 * fake-server handlers (simulated targets) that want to read a request as ChatMessages.
 */
import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';

import type { ChatMessage, ToolCall, ToolSpec } from '../episode/index.js';

/** Which response field carries reasoning text; `auto` prefers `reasoning` and falls back to `reasoning_content`. */
export type ReasoningField = 'reasoning' | 'reasoning_content' | 'auto' | 'none';

export const REASONING_FIELDS: readonly ReasoningField[] = ['reasoning', 'reasoning_content', 'auto', 'none'];

/** Our message → the wire message. Reasoning of earlier assistant turns is not sent back. */
export function toWireMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant': {
      const toolCalls = message.toolCalls ?? [];
      if (toolCalls.length === 0) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        content: message.content,
        tool_calls: toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        })),
      };
    }
  }
}

export function toWireTools(tools: readonly ToolSpec[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

/**
 * Reads `tool_calls` from a wire message leniently: non-function entries are skipped, a missing id becomes
 * `call_<index>`, and object arguments (sent by some servers instead of a JSON string) are serialized.
 */
export function fromWireToolCalls(value: unknown): ToolCall[] {
  if (!Array.isArray(value)) return [];
  const calls: ToolCall[] = [];
  value.forEach((entry: unknown, index) => {
    if (!isRecord(entry)) return;
    if (entry.type !== undefined && entry.type !== 'function') return;
    const fn = isRecord(entry.function) ? entry.function : {};
    const rawArguments = fn.arguments;
    calls.push({
      id: typeof entry.id === 'string' && entry.id !== '' ? entry.id : `call_${index}`,
      name: typeof fn.name === 'string' ? fn.name : '',
      arguments:
        typeof rawArguments === 'string' ? rawArguments : rawArguments === undefined ? '' : JSON.stringify(rawArguments),
    });
  });
  return calls;
}

/** Picks the reasoning text out of a wire assistant message according to the server's setting. */
export function readReasoning(message: Record<string, unknown>, field: ReasoningField): string | undefined {
  const read = (key: string): string | undefined => {
    const value = message[key];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  switch (field) {
    case 'none':
      return undefined;
    case 'reasoning':
      return read('reasoning');
    case 'reasoning_content':
      return read('reasoning_content');
    case 'auto':
      return read('reasoning') ?? read('reasoning_content');
  }
}

/**
 * Reads wire messages (as a request body carries them) into ChatMessages. Content given as an array of
 * parts keeps only its text parts. Throws a plain Error naming the bad message when a role is unknown.
 */
export function fromWireMessages(messages: unknown): ChatMessage[] {
  if (!Array.isArray(messages)) throw new Error('messages must be an array');
  return messages.map((message: unknown, index): ChatMessage => {
    if (!isRecord(message)) throw new Error(`messages[${index}] must be an object`);
    const content = textOf(message.content);
    switch (message.role) {
      case 'system':
      case 'developer':
        return { role: 'system', content: content ?? '' };
      case 'user':
        return { role: 'user', content: content ?? '' };
      case 'tool':
        return { role: 'tool', toolCallId: typeof message.tool_call_id === 'string' ? message.tool_call_id : '', content: content ?? '' };
      case 'assistant': {
        const toolCalls = fromWireToolCalls(message.tool_calls);
        const reasoning = readReasoning(message, 'auto');
        return {
          role: 'assistant',
          content,
          ...(toolCalls.length > 0 ? { toolCalls } : {}),
          ...(reasoning === undefined ? {} : { reasoning }),
        };
      }
      default:
        throw new Error(`messages[${index}].role must be system, developer, user, assistant or tool, got ${JSON.stringify(message.role)}`);
    }
  });
}

function textOf(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) => (isRecord(part) && typeof part.text === 'string' ? part.text : ''))
      .join('');
  }
  return null;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
