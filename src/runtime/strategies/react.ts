import type { ChatMessage } from '../../episode/index.js';
import type { ChatModel, ChatRequest, ChatResponse } from '../../models/chat-model.js';
import { REACT_MARKER, reactBlock } from './strategy-prompts.js';

/**
 * The conversation with the ReAct block at the end of the first system message (or a system message of its
 * own in front when there is none). Idempotent: a conversation that already holds the block is sent as is.
 */
export function withReactBlock(messages: readonly ChatMessage[], textProtocol: boolean): ChatMessage[] {
  const block = reactBlock(textProtocol);
  const out = [...messages];
  const at = out.findIndex((m) => m.role === 'system');
  if (at < 0) return [{ role: 'system', content: block }, ...out];
  const system = out[at] as { role: 'system'; content: string };
  if (!system.content.includes(REACT_MARKER)) out[at] = { role: 'system', content: `${system.content.trimEnd()}\n\n${block}` };
  return out;
}

/**
 * ReAct as the release's client agent plays it: one model call per turn, the system prompt asking for a
 * visible Thought before exactly one Action. The turn's record notes how long the thought was and how many
 * tool calls came back; nothing else changes.
 */
export function reactModel(inner: ChatModel): ChatModel {
  return {
    label: inner.label,
    simulated: inner.simulated,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      const textProtocol = !request.tools || request.tools.length === 0;
      const response = await inner.complete({ ...request, messages: withReactBlock(request.messages, textProtocol) });
      const thought = (response.message.content ?? '').trim();
      return { ...response, calls: response.calls ?? 1, strategy: { strategy: 'react', thoughtChars: thought.length, toolCalls: response.message.toolCalls.length } };
    },
    ...(inner.close ? { close: () => inner.close!() } : {}),
  };
}
