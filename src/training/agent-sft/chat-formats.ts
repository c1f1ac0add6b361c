/**
 * A stored episode's conversation in the two shapes trainers read:
 *
 * - OpenAI chat (`messages` + `tools`): assistant turns keep their `tool_calls` (`{id, type: "function",
 *   function: {name, arguments}}`, arguments as the JSON text the model sent), tool results are `role: "tool"`
 *   with `tool_call_id`, reasoning is `reasoning_content`. TRL's SFT trainer reads these rows as they are.
 * - LLaMA-Factory sharegpt with tools: every turn is `{role, content}`; a tool-calling turn becomes a
 *   `function_call` turn whose content is the JSON list of calls (`[{name, arguments}]`), tool results become
 *   one `observation` turn, and `tools` is the tool list as a JSON string. Sharegpt has no place for the text
 *   an assistant wrote beside its tool calls: it is dropped there (and kept in the OpenAI rows).
 *
 * Text protocols (AgentBench v0.2) offer no tools and hold only user and assistant turns, so both shapes
 * are plain alternating chats.
 */
import type { ChatMessage, ToolSpec } from '../../episode/index.js';

export interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type OpenAiMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string; tool_calls?: OpenAiToolCall[]; reasoning_content?: string }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface OpenAiTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** One stored message in OpenAI's wire shape (null content becomes "", as trainers expect a string). */
export function toOpenAiMessage(message: ChatMessage): OpenAiMessage {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant': {
      const out: OpenAiMessage = { role: 'assistant', content: message.content ?? '' };
      if (message.toolCalls && message.toolCalls.length > 0) {
        out.tool_calls = message.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
      }
      if (message.reasoning !== undefined && message.reasoning !== '') out.reasoning_content = message.reasoning;
      return out;
    }
  }
}

export function toOpenAiTools(tools: readonly ToolSpec[]): OpenAiTool[] {
  return tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

/**
 * The conversation a trainer learns from: everything up to the agent's last turn. Observations after the
 * last assistant turn (the environment's reply to the final action) teach nothing and would leave the
 * sample ending on a non-assistant turn, which LLaMA-Factory refuses.
 */
export function trimToLastAssistant(messages: readonly ChatMessage[]): ChatMessage[] {
  let end = messages.length;
  while (end > 0 && messages[end - 1]!.role !== 'assistant') end--;
  return messages.slice(0, end);
}

export interface SharegptTurn {
  role: 'system' | 'user' | 'assistant' | 'function_call' | 'observation';
  content: string;
}

/** The role tags of the sharegpt rows, as `dataset_info.json` declares them. */
export const SHAREGPT_TAGS = {
  role_tag: 'role',
  content_tag: 'content',
  user_tag: 'user',
  assistant_tag: 'assistant',
  system_tag: 'system',
  function_tag: 'function_call',
  observation_tag: 'observation',
} as const;

/** The parsed arguments when they are a JSON object, else the text as sent. */
function argumentsValue(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : text;
  } catch {
    return text;
  }
}

/**
 * The conversation as LLaMA-Factory sharegpt turns. What reaches the agent between two of its turns becomes
 * one turn, since sharegpt alternates: consecutive tool results are one observation, and a message a hook
 * injected beside a tool result (a harness hint before or after it, a blocked call's prompt) joins it.
 */
export function toSharegptTurns(messages: readonly ChatMessage[]): SharegptTurn[] {
  const turns: SharegptTurn[] = [];
  for (const m of messages) {
    const last = turns[turns.length - 1];
    if ((m.role === 'tool' || m.role === 'user') && (last?.role === 'observation' || last?.role === 'user')) {
      last.content = `${last.content}\n\n${m.content}`;
      continue;
    }
    if (m.role === 'tool') {
      turns.push({ role: 'observation', content: m.content });
      continue;
    }
    if (m.role === 'assistant' && m.toolCalls && m.toolCalls.length > 0) {
      turns.push({ role: 'function_call', content: JSON.stringify(m.toolCalls.map((c) => ({ name: c.name, arguments: argumentsValue(c.arguments) }))) });
      continue;
    }
    turns.push({ role: m.role, content: m.role === 'assistant' ? (m.content ?? '') : m.content });
  }
  return turns;
}

/**
 * Why LLaMA-Factory's sharegpt reader would skip these turns, or null when it reads them: after an optional
 * leading system turn, turns alternate user/observation and assistant/function_call, starting with the
 * former, and end on the latter.
 */
export function sharegptProblem(turns: readonly SharegptTurn[]): string | null {
  const body = turns[0]?.role === 'system' ? turns.slice(1) : turns;
  if (body.length === 0) return 'no turns after the system prompt';
  for (const [i, t] of body.entries()) {
    const wanted = i % 2 === 0 ? ['user', 'observation'] : ['assistant', 'function_call'];
    if (!wanted.includes(t.role)) return `turn ${i + 1} is ${t.role}, expected ${wanted.join(' or ')}`;
  }
  if (body.length % 2 !== 0) return 'the conversation does not end on an assistant turn';
  return null;
}
