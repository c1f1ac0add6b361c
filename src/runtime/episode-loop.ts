import type { ChatMessage, HookName, HookTraceEntry, Outcome, StepRecord } from '../episode/index.js';
import type { EpisodeHooks } from '../hooks/hook-provider.js';
import type { ChatModel, ChatRequest, ChatResponse } from '../models/chat-model.js';
import { callHooks, type FiredEffect } from './call-hooks.js';
import type { EpisodeBase } from './environment.js';

/** Sampling options a loop sends with every model call. */
export type LoopRequest = Pick<ChatRequest, 'temperature' | 'maxTokens' | 'toolChoice' | 'parallelToolCalls'>;

/** How an episode ended, before it becomes a record. */
export interface Ending {
  outcome: Outcome;
  reward: number;
  detail: Record<string, unknown>;
}

/** What a benchmark loop accumulates: the conversation, the steps, every hook call, usage and timing. */
export class EpisodeState {
  readonly messages: ChatMessage[] = [];
  readonly steps: StepRecord[] = [];
  readonly hookTrace: HookTraceEntry[] = [];
  readonly usage = { promptTokens: 0, completionTokens: 0, modelCalls: 0 };
  readonly modelMs: number[] = [];
  rounds = 0;
  /** Text protocols: the number of leading preamble messages (see `EpisodeRecord.preamble`). */
  preamble = 0;
}

/** An error from the model, the environment or the hook machinery, kept apart so it ends as the right Outcome. */
export class InfraError extends Error {
  constructor(
    readonly source: 'model' | 'env' | 'hooks',
    readonly inner: unknown,
  ) {
    super(errorText(inner));
  }
}

export function errorText(error: unknown): string {
  if (error instanceof InfraError) return errorText(error.inner);
  return error instanceof Error ? error.message : String(error);
}

export function outcomeOfInfraError(error: InfraError): Outcome {
  return error.source === 'model' ? 'model_error' : error.source === 'hooks' ? 'hook_fault' : 'env_error';
}

async function tagged<T>(source: InfraError['source'], fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw new InfraError(source, error);
  }
}

/**
 * What a benchmark loop works with. Every call that can fail for infrastructure reasons goes through here,
 * so a failure ends the episode as model_error, env_error or hook_fault rather than as a target failure.
 */
export class LoopContext<E extends EpisodeBase = EpisodeBase> {
  readonly state = new EpisodeState();

  constructor(
    readonly model: ChatModel,
    readonly episode: E,
    readonly hooks: EpisodeHooks,
    private readonly request: LoopRequest = {},
    private readonly signal?: AbortSignal,
  ) {}

  /** Runs every installed hook of a name; faults are recorded in the trace and give no effect. */
  hook<H extends HookName>(hook: H, ctx: Record<string, unknown>, meta: { round: number; tool?: string }): Promise<FiredEffect<H>[]> {
    return tagged('hooks', () => callHooks(hook, ctx, meta, this.hooks, this.state.hookTrace));
  }

  /** One model turn on the current conversation, with usage and timing accounted. */
  async complete(round: number): Promise<ChatResponse['message']> {
    const response = await tagged('model', () =>
      this.model.complete({ messages: this.state.messages, tools: this.episode.tools, temperature: 0, ...this.request, ...(this.signal ? { signal: this.signal } : {}) }),
    );
    const s = this.state;
    s.rounds = round;
    s.usage.modelCalls++;
    s.usage.promptTokens += response.usage.promptTokens;
    s.usage.completionTokens += response.usage.completionTokens;
    s.modelMs.push(response.latencyMs);
    const { content, toolCalls, reasoning } = response.message;
    s.messages.push({ role: 'assistant', content, ...(toolCalls.length > 0 ? { toolCalls } : {}), ...(reasoning ? { reasoning } : {}) });
    return response.message;
  }

  /** Runs an environment operation; a thrown error is an environment failure. */
  env<T>(fn: () => Promise<T>): Promise<T> {
    return tagged('env', fn);
  }
}
