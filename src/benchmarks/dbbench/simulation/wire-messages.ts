/**
 * The OpenAI chat wire format as the simulated target receives it (roles system/user/assistant/tool,
 * `tool_calls`, `tool_call_id`), the turn it answers with, and a lenient reader that turns a request
 * body into messages the policy can walk.
 */

export type WireContent = string | { type: string; text?: string }[] | null;

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type WireMessage =
  | { role: 'system' | 'developer'; content: WireContent }
  | { role: 'user'; content: WireContent }
  | { role: 'assistant'; content: WireContent; tool_calls?: WireToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: WireContent };

export interface WireRequest {
  messages: WireMessage[];
  tools?: unknown[];
}

/** A tool call the target makes; `arguments` is an object, serialized by the wire handler. */
export interface SimToolCall {
  name: 'execute_sql' | 'commit_final_answer';
  arguments: { query: string } | { answers: string[] };
}

/** Why the target acted as it did: the plan step or failure mode behind the call (for tests and logs). */
export type SimActionTag =
  | 'early_commit'
  | 'give_up'
  | 'inspect'
  | 'probe'
  | 'main'
  | 'repeat'
  | 'repair'
  | 'verify'
  | 'commit';

/**
 * One assistant turn of the simulated target: a single tool call (with a short explanation), or text
 * only. `problem` is set on text turns that mean the request cannot be played (the server answers
 * those with HTTP 400).
 */
export type WireTurn =
  | { kind: 'tool_calls'; toolCalls: SimToolCall[]; content?: string; tag: SimActionTag; taskKey: string }
  | { kind: 'text'; content: string; problem?: { code: 'unknown_task' | 'bad_request'; message: string } };

/** A message reduced to what the policy reads. */
export type ReadMessage =
  | { role: 'system'; text: string }
  | { role: 'user'; text: string }
  | { role: 'assistant'; text: string; calls: ReadToolCall[] }
  | { role: 'tool'; callId: string; text: string };

export interface ReadToolCall {
  id: string;
  name: string;
  /** Parsed arguments, or undefined when they were not a JSON object. */
  args: Record<string, unknown> | undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: unknown) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('');
  return '';
}

function readArguments(raw: unknown): Record<string, unknown> | undefined {
  if (isRecord(raw)) return raw;
  if (typeof raw !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Reads a request body; a shape the policy cannot walk gives a message naming what is wrong. */
export function readWireRequest(body: unknown): { ok: true; messages: ReadMessage[]; toolNames: string[] | undefined } | { ok: false; message: string } {
  if (!isRecord(body)) return { ok: false, message: 'The request body must be a JSON object.' };
  if (!Array.isArray(body.messages)) return { ok: false, message: "The request needs a 'messages' array." };
  const messages: ReadMessage[] = [];
  for (let i = 0; i < body.messages.length; i++) {
    const message: unknown = body.messages[i];
    if (!isRecord(message)) return { ok: false, message: `messages[${i}] must be an object.` };
    const text = textOf(message.content);
    switch (message.role) {
      case 'system':
      case 'developer':
        messages.push({ role: 'system', text });
        break;
      case 'user':
        messages.push({ role: 'user', text });
        break;
      case 'tool':
        messages.push({ role: 'tool', callId: typeof message.tool_call_id === 'string' ? message.tool_call_id : '', text });
        break;
      case 'assistant': {
        const calls: ReadToolCall[] = [];
        if (Array.isArray(message.tool_calls)) {
          message.tool_calls.forEach((entry: unknown, index) => {
            if (!isRecord(entry)) return;
            const fn = isRecord(entry.function) ? entry.function : {};
            calls.push({
              id: typeof entry.id === 'string' ? entry.id : `call_${index}`,
              name: typeof fn.name === 'string' ? fn.name : '',
              args: readArguments(fn.arguments),
            });
          });
        }
        messages.push({ role: 'assistant', text, calls });
        break;
      }
      default:
        return { ok: false, message: `messages[${i}].role must be system, developer, user, assistant or tool, got ${JSON.stringify(message.role)}.` };
    }
  }
  let toolNames: string[] | undefined;
  if (Array.isArray(body.tools)) {
    toolNames = body.tools.flatMap((tool: unknown) => {
      if (!isRecord(tool)) return [];
      const fn = isRecord(tool.function) ? tool.function : tool;
      return typeof fn.name === 'string' ? [fn.name] : [];
    });
  }
  return { ok: true, messages, toolNames };
}
