import type { ChatMessage, EpisodeRecord, HookTraceEntry, Outcome, StepRecord, ToolCall } from '../episode/index.js';
import { EPISODE_RECORD_VERSION, toolMessage, userMessage } from '../episode/index.js';
import type { EnvironmentEpisode } from '../environments/environment.js';
import type { EpisodeHooks } from '../hooks/hook-provider.js';
import type { ChatModel, ChatRequest } from '../models/chat-model.js';
import { callHooks as callHooksRaw, type FiredEffect } from './call-hooks.js';

export interface RunEpisodeOptions {
  model: ChatModel;
  episode: EnvironmentEpisode;
  hooks: EpisodeHooks;
  /** Sampling options sent with every model call (temperature 0 by default, as the reference). */
  request?: Pick<ChatRequest, 'temperature' | 'maxTokens' | 'toolChoice' | 'parallelToolCalls'>;
  signal?: AbortSignal;
}

export interface RunEpisodeResult {
  record: EpisodeRecord;
  /** Wall-clock data kept out of the deterministic record. */
  timing: { modelMs: number[]; totalMs: number };
}

class EpisodeState {
  readonly messages: ChatMessage[] = [];
  readonly steps: StepRecord[] = [];
  readonly hookTrace: HookTraceEntry[] = [];
  readonly usage = { promptTokens: 0, completionTokens: 0, modelCalls: 0 };
  readonly modelMs: number[] = [];
  rounds = 0;
}

/**
 * Plays one task: on_init, then rounds of (make_pre_hint, model call, tool calls with on_before_action and
 * on_post_step) until a final answer or the round limit. Expected failures end as an Outcome; the only
 * errors caught here are infrastructure failures, which become model_error, env_error or hook_fault.
 */
export async function runEpisode(options: RunEpisodeOptions): Promise<RunEpisodeResult> {
  const started = performance.now();
  const { episode, hooks } = options;
  const s = new EpisodeState();
  let ending: { outcome: Outcome; reward: number; detail: Record<string, unknown> };
  try {
    ending = await playEpisode(options, s);
  } catch (error) {
    ending = { outcome: classifyInfraError(error), reward: 0, detail: { error: errorText(error) } };
  } finally {
    await Promise.allSettled([hooks.close(), episode.close()]);
  }
  const record: EpisodeRecord = {
    schemaVersion: EPISODE_RECORD_VERSION,
    task: episode.task,
    outcome: ending.outcome,
    reward: ending.reward,
    rounds: s.rounds,
    detail: { ...episode.info, ...ending.detail },
    steps: s.steps,
    hookTrace: s.hookTrace,
    messages: s.messages,
    usage: s.usage,
  };
  return { record, timing: { modelMs: s.modelMs, totalMs: performance.now() - started } };
}

async function playEpisode(options: RunEpisodeOptions, s: EpisodeState) {
  const { model, episode, hooks } = options;
  const max = episode.maxRounds;

  const skills: string[] = [];
  const toolHints: string[] = [];
  for (const { effect } of await callHooks(hooks, 'on_init', episode.hookContext({ hook: 'on_init', round: 0, remaining: max }), { round: 0 }, s.hookTrace)) {
    skills.push(...effect.skills);
    if (effect.toolHint) toolHints.push(effect.toolHint);
  }
  s.messages.push({ role: 'system', content: episode.systemPrompt({ skills, toolHints }) });
  s.messages.push(userMessage(episode.firstUserMessage()));

  for (let r = 0; r < max; r++) {
    const round = r + 1;
    const remaining = max - r;
    const hints = await callHooks(hooks, 'make_pre_hint', episode.hookContext({ hook: 'make_pre_hint', round, remaining }), { round }, s.hookTrace);
    for (const { effect } of hints) s.messages.push(userMessage(effect.message));

    const response = await tagged('model', () =>
      model.complete({ messages: s.messages, tools: episode.tools, temperature: 0, ...options.request, ...(options.signal ? { signal: options.signal } : {}) }),
    );
    s.rounds = round;
    s.usage.modelCalls++;
    s.usage.promptTokens += response.usage.promptTokens;
    s.usage.completionTokens += response.usage.completionTokens;
    s.modelMs.push(response.latencyMs);
    const { content, toolCalls, reasoning } = response.message;
    s.messages.push({ role: 'assistant', content, ...(toolCalls.length > 0 ? { toolCalls } : {}), ...(reasoning ? { reasoning } : {}) });

    if (toolCalls.length === 0) {
      episode.noteTextOnlyTurn();
      s.messages.push(userMessage(episode.textOnlyNudge(content ?? '')));
      continue;
    }
    episode.noteToolTurn();
    const final = await processToolCalls(options, s, toolCalls, round, remaining);
    if (final) return final;
  }
  return { outcome: 'round_limit' as const, reward: 0, detail: { reason: `no final answer within ${max} rounds` } };
}

/** DBBench rules: every call of the turn is processed in order; a final answer ends the episode at once. */
async function processToolCalls(options: RunEpisodeOptions, s: EpisodeState, toolCalls: ToolCall[], round: number, remaining: number) {
  const { episode, hooks } = options;
  for (const raw of toolCalls) {
    const call = episode.parseCall(raw);
    if (!call) {
      s.messages.push(toolMessage(raw.id, episode.badArgumentsReply()));
      s.steps.push({ round, tool: raw.name, input: raw.arguments, observation: episode.badArgumentsReply(), status: 'invalid' });
      continue;
    }
    if (!episode.hasTool(call.tool)) {
      s.messages.push(toolMessage(call.id, episode.unknownToolReply()));
      s.steps.push({ round, tool: call.tool, input: call.firstValue, observation: episode.unknownToolReply(), status: 'invalid' });
      continue;
    }
    const guards = await callHooks(hooks, 'on_before_action', episode.hookContext({ hook: 'on_before_action', round, remaining, call }), { round, tool: call.tool }, s.hookTrace);
    const block = applyGuards(guards);
    if (block !== undefined) {
      s.messages.push(toolMessage(call.id, block));
      s.steps.push({ round, tool: call.tool, input: call.firstValue, observation: block, status: 'blocked' });
      continue;
    }
    const result = await tagged('env', () => episode.act(call, round));
    if (result.kind === 'final') {
      s.steps.push({ round, tool: call.tool, input: call.firstValue, observation: '', status: 'executed' });
      return { outcome: (result.correct ? 'success' : 'wrong_answer') as Outcome, reward: result.correct ? 1 : 0, detail: result.detail };
    }
    s.messages.push(toolMessage(call.id, result.content));
    s.steps.push({ round, tool: call.tool, input: call.firstValue, observation: result.content, status: result.status });
    if (result.status !== 'executed') continue;
    const post = await callHooks(
      hooks,
      'on_post_step',
      episode.hookContext({ hook: 'on_post_step', round, remaining: remaining - 1, call, observation: result.content }),
      { round, tool: call.tool },
      s.hookTrace,
    );
    for (const { effect, trace } of post) {
      if (effect.kind === 'inject_hint') s.messages.push(userMessage(effect.message));
      else trace.disposition = 'ignored';
    }
  }
  return undefined;
}

/** The first block wins; rewrite and force are not honoured on DBBench and are traced as ignored. */
function applyGuards(guards: FiredEffect<'on_before_action'>[]): string | undefined {
  let block: string | undefined;
  for (const { effect, trace } of guards) {
    if (block === undefined && effect.kind === 'block_and_prompt') block = effect.message;
    else trace.disposition = 'ignored';
  }
  return block;
}

/** Hook calls whose machinery fails (not a hook's own fault, which is recorded) end the episode as hook_fault. */
const callHooks: typeof callHooksRaw = (...args) => tagged('hooks', () => callHooksRaw(...args));

class TaggedError extends Error {
  constructor(
    readonly source: 'model' | 'env' | 'hooks',
    readonly inner: unknown,
  ) {
    super(errorText(inner));
  }
}

async function tagged<T>(source: 'model' | 'env' | 'hooks', fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw new TaggedError(source, error);
  }
}

function classifyInfraError(error: unknown): Outcome {
  if (error instanceof TaggedError) return error.source === 'model' ? 'model_error' : error.source === 'hooks' ? 'hook_fault' : 'env_error';
  throw error;
}

function errorText(error: unknown): string {
  if (error instanceof TaggedError) return errorText(error.inner);
  return error instanceof Error ? error.message : String(error);
}
