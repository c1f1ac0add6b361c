import { isAgentOutcome, type ChatMessage, type EpisodeRecord, type ToolSpec } from '../../episode/index.js';
import { isModelCallError, type ChatModel, type ChatRequest, type ChatResponse } from '../../models/chat-model.js';
import type { RunEpisodeResult } from '../run-episode.js';
import { MEMORY_MARKER, memoryBlock, reflectPrompt } from './strategy-prompts.js';

/** Tokens the reflection call may spend (the release's default for its reflection client). */
export const REFLECTION_MAX_TOKENS = 512;

/**
 * What episode-level Reflection adds to a task's record (`detail.reflection`). The record itself stays the
 * first episode, so every success@1 figure reads it as before; the second episode lives here, and
 * success@2 is read from it alone (`successAt2`).
 */
export interface ReflectionDetail {
  /** The reflection written after the failed first episode (absent when the call failed). */
  text?: string;
  /** Why no reflection could be written (the call failed or came back empty): no second episode was played. */
  error?: string;
  usage: { promptTokens: number; completionTokens: number; modelCalls: number };
  /** The second episode, played with the reflection in its system prompt. */
  retry?: Pick<EpisodeRecord, 'outcome' | 'reward' | 'rounds' | 'steps' | 'hookTrace' | 'messages' | 'usage' | 'detail'>;
}

/** The conversation with the reflection appended to its first system message (or in front of it). */
export function withMemory(messages: readonly ChatMessage[], reflection: string): ChatMessage[] {
  const block = memoryBlock(reflection);
  const out = [...messages];
  const at = out.findIndex((m) => m.role === 'system');
  if (at < 0) return [{ role: 'system', content: block }, ...out];
  const system = out[at] as { role: 'system'; content: string };
  if (!system.content.includes(MEMORY_MARKER)) out[at] = { role: 'system', content: `${system.content.trimEnd()}\n\n${block}` };
  return out;
}

/** A model that sees the reflection in the system prompt on every call of the second episode. */
export function memoryModel(inner: ChatModel, reflection: string): ChatModel {
  return {
    label: inner.label,
    simulated: inner.simulated,
    complete: (request: ChatRequest): Promise<ChatResponse> => inner.complete({ ...request, messages: withMemory(request.messages, reflection) }),
  };
}

/** Whether a first episode gets a second one: it failed as the agent's doing (an infrastructure failure does not). */
export function needsRetry(record: EpisodeRecord): boolean {
  return record.outcome !== 'success' && isAgentOutcome(record.outcome);
}

export interface ReflectOptions {
  model: ChatModel;
  first: RunEpisodeResult;
  /** The tools the target had (named in the reflection request). */
  tools?: readonly ToolSpec[];
  /** Plays the task again from the start with the given model (fresh environment and hooks). */
  playAgain(model: ChatModel): Promise<RunEpisodeResult>;
  temperature?: number;
  signal?: AbortSignal;
}

/**
 * Episode-level Reflection (the release's Reflexion retry): after a failed first episode, one call without
 * tools asks for a reflection on the whole trajectory; the task is then played once more from the start with
 * that reflection in the system prompt. Returns the first episode's record carrying `detail.reflection`.
 */
export async function reflectAndRetry(options: ReflectOptions): Promise<RunEpisodeResult> {
  const { first } = options;
  const record = first.record;
  if (!needsRetry(record)) return first;
  const ending = `${record.outcome}, reward ${record.reward}`;
  let reflection = '';
  let error: string | undefined;
  const usage = { promptTokens: 0, completionTokens: 0, modelCalls: 0 };
  const modelMs = [...first.timing.modelMs];
  try {
    const response = await options.model.complete({
      messages: [...record.messages, { role: 'user', content: reflectPrompt(ending, options.tools) }],
      maxTokens: REFLECTION_MAX_TOKENS,
      temperature: options.temperature ?? 0,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    usage.modelCalls = response.calls ?? 1;
    usage.promptTokens = response.usage.promptTokens;
    usage.completionTokens = response.usage.completionTokens;
    modelMs.push(response.latencyMs);
    reflection = (response.message.content ?? '').trim();
    if (!reflection) error = 'the reflection came back empty';
  } catch (failure) {
    if (!isModelCallError(failure) || failure.failure === 'aborted') throw failure;
    error = failure.message;
  }
  if (error !== undefined) {
    const detail: ReflectionDetail = { error, usage };
    return { record: { ...record, detail: { ...record.detail, reflection: detail } }, timing: { modelMs, totalMs: first.timing.totalMs } };
  }
  const second = await options.playAgain(memoryModel(options.model, reflection));
  const r = second.record;
  const detail: ReflectionDetail = {
    text: reflection,
    usage,
    // Stored as the model saw it: the reflection is in the system prompt of every request of this episode.
    retry: { outcome: r.outcome, reward: r.reward, rounds: r.rounds, steps: r.steps, hookTrace: r.hookTrace, messages: r.messages.length > 0 ? withMemory(r.messages, reflection) : r.messages, usage: r.usage, detail: r.detail },
  };
  return {
    record: { ...record, detail: { ...record.detail, reflection: detail } },
    timing: { modelMs: [...modelMs, ...second.timing.modelMs], totalMs: first.timing.totalMs + second.timing.totalMs },
  };
}
