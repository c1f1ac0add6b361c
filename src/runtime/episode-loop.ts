import type { ChatMessage, HookName, HookTraceEntry, Outcome, StepRecord, ToolCall } from '../episode/index.js';
import type { ParsedCall } from '../environments/environment.js';
import type { EpisodeHooks } from '../hooks/hook-provider.js';
import type { ChatModel, ChatRequest, ChatResponse, ResponseLimitHit } from '../models/chat-model.js';
import { callHooks, type FiredEffect } from './call-hooks.js';
import type { EpisodeBase } from '../environments/environment.js';

/** An episode that reads raw tool calls itself. */
export interface CallParser {
  parseCall(call: ToolCall): ParsedCall | undefined;
}

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
  /** Every response cap that bit, with its round; recorded as `detail.modelLimits` when there is one. */
  readonly limitHits: (ResponseLimitHit & { round: number })[] = [];
  /** What a baseline strategy did on each turn (`detail.strategyTurns` when there is one). */
  readonly strategyTurns: (Record<string, unknown> & { round: number })[] = [];
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
  /** Calls whose arguments the model client cut (`max_tool_args_chars`): never parsed, never executed. */
  private readonly cutCalls = new WeakSet<ToolCall>();

  constructor(
    readonly model: ChatModel,
    readonly episode: E,
    readonly hooks: EpisodeHooks,
    private readonly request: LoopRequest = {},
    private readonly signal?: AbortSignal,
  ) {}

  /**
   * Runs every installed hook of a name; faults are recorded in the trace and give no effect. The ctx is
   * built only when a hook of that name is installed (an unpatched run builds none), at the call site.
   */
  hook<H extends HookName>(hook: H, ctx: () => Record<string, unknown>, meta: { round: number; tool?: string }): Promise<FiredEffect<H>[]> {
    if (this.hooks.count(hook) === 0) return Promise.resolve([]);
    const built = ctx();
    return tagged('hooks', () => callHooks(hook, built, meta, this.hooks, this.state.hookTrace));
  }

  /** One model turn on the current conversation, with usage, timing and the caps that bit accounted. */
  async complete(round: number): Promise<ChatResponse['message']> {
    const s = this.state;
    const response = await tagged('model', async () => {
      try {
        return await this.model.complete({ messages: s.messages, tools: this.episode.tools, temperature: 0, ...this.request, ...(this.signal ? { signal: this.signal } : {}) });
      } catch (error) {
        const limit = (error as { limit?: ResponseLimitHit } | null)?.limit;
        if (limit !== undefined) s.limitHits.push({ round, ...limit });
        throw error;
      }
    });
    s.rounds = round;
    s.usage.modelCalls += response.calls ?? 1;
    if (response.strategy) s.strategyTurns.push({ round, ...response.strategy });
    s.usage.promptTokens += response.usage.promptTokens;
    s.usage.completionTokens += response.usage.completionTokens;
    s.modelMs.push(response.latencyMs);
    const { content, toolCalls, reasoning } = response.message;
    for (const hit of response.limits ?? []) {
      s.limitHits.push({ round, ...hit });
      const cut = hit.limit === 'max_tool_args_chars' && hit.call !== undefined ? toolCalls[hit.call] : undefined;
      if (cut !== undefined) this.cutCalls.add(cut);
    }
    s.messages.push({ role: 'assistant', content, ...(toolCalls.length > 0 ? { toolCalls } : {}), ...(reasoning ? { reasoning } : {}) });
    return response.message;
  }

  /**
   * The episode's reading of a tool call, except that a call the client cut for its size is invalid
   * arguments whatever the environment's parser would make of its head: it is answered, never executed.
   */
  parseCall(this: LoopContext<EpisodeBase & CallParser>, call: ToolCall): ParsedCall | undefined {
    return this.cutCalls.has(call) ? undefined : this.episode.parseCall(call);
  }

  /** Whether the client cut this call's arguments for their size (a loop with its own parser must not execute it). */
  isCutCall(call: ToolCall): boolean {
    return this.cutCalls.has(call);
  }

  /** Runs an environment operation; a thrown error is an environment failure. */
  env<T>(fn: () => Promise<T>): Promise<T> {
    return tagged('env', fn);
  }
}
