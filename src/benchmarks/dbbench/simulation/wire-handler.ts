import { simHttpReply, simUsage, type SimCompletion } from '../../../models/sim-completion.js';
import { createDbBenchSimPolicy, type DbBenchSimPolicy } from './dbbench-sim-policy.js';
import { defaultDbBenchSimSettings, parseFaultSpec, type DbBenchFaultRates, type DbBenchSimSettings } from './fault-profile.js';
import { simHash } from './sim-rng.js';
import { loadDbBenchTaskIndex } from './task-index.js';
import type { SimActionTag } from './wire-messages.js';
import type { DbBenchSplit } from '../../../environments/dbbench/load-tasks.js';

/**
 * The simulated DBBench target as an OpenAI chat-completions handler: request body in, a plain
 * JSON-able `chat.completion` out, so it can sit behind the fake OpenAI-compatible HTTP server and the
 * real client path runs. Everything in the response (ids, token counts) is a function of the request and
 * the settings, never of time or call order.
 */
export interface DbBenchSimHandlerOptions {
  /** The data folder holding `dbbench/` (see `resolveDataDir`). */
  dataDir: string;
  seed?: number;
  /** Rates to override, or a `faults=` spec text such as `none,backticks:0.3`. */
  faults?: Partial<DbBenchFaultRates> | string;
  comply?: number;
  /** Known splits; the first wins when two hold the same question. */
  splits?: DbBenchSplit[];
  /** Task files the run plays instead of a split (`--data`); known before the splits. */
  taskFiles?: string[];
}

/** Name of the target in responses and messages. */
export const DBBENCH_SIM_TARGET = 'sim:dbbench';
export const DBBENCH_SIM_FINGERPRINT = 'harness-r1-sim-dbbench-v1';

export type DbBenchSimCompletion = SimCompletion<typeof DBBENCH_SIM_TARGET, SimActionTag>;

export type DbBenchSimHandler = ((requestBody: unknown) => DbBenchSimCompletion) & {
  readonly settings: DbBenchSimSettings;
  readonly policy: DbBenchSimPolicy;
};

/** Resolves handler options into full settings (defaults for anything not given). */
export function resolveDbBenchSimSettings(options: Omit<DbBenchSimHandlerOptions, 'dataDir'>): DbBenchSimSettings {
  const settings = defaultDbBenchSimSettings();
  if (options.seed !== undefined) settings.seed = options.seed;
  if (typeof options.faults === 'string') settings.faults = parseFaultSpec(options.faults);
  else if (options.faults !== undefined) settings.faults = { ...settings.faults, ...definedRates(options.faults) };
  if (options.comply !== undefined) settings.comply = options.comply;
  if (options.splits !== undefined) settings.splits = [...options.splits];
  return settings;
}

function definedRates(rates: Partial<DbBenchFaultRates>): Partial<DbBenchFaultRates> {
  return Object.fromEntries(Object.entries(rates).filter(([, rate]) => rate !== undefined));
}

export function createDbBenchSimHandler(options: DbBenchSimHandlerOptions): DbBenchSimHandler {
  const settings = resolveDbBenchSimSettings(options);
  const index = loadDbBenchTaskIndex(options.dataDir, settings.splits, options.taskFiles ?? []);
  const policy = createDbBenchSimPolicy({ index, settings });
  const handler = (requestBody: unknown): DbBenchSimCompletion => completionFor(policy, requestBody);
  return Object.assign(handler, { settings: policy.settings, policy });
}

function completionFor(policy: DbBenchSimPolicy, body: unknown): DbBenchSimCompletion {
  const turn = policy.decideTurn(body);
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const messages = Array.isArray(record.messages) ? record.messages : [];
  const model = typeof record.model === 'string' ? record.model : DBBENCH_SIM_TARGET;
  const { seed, faults, comply } = policy.settings;
  const requestText = JSON.stringify(messages) ?? '';
  const id = `chatcmpl-sim-${simHash('completion', seed, JSON.stringify(faults), comply, requestText).slice(0, 24)}`;
  const promptTokens = Math.ceil(requestText.length / 4);

  if (turn.kind === 'text') {
    return {
      id,
      object: 'chat.completion',
      created: 0,
      model,
      system_fingerprint: DBBENCH_SIM_FINGERPRINT,
      choices: [{ index: 0, message: { role: 'assistant', content: turn.content }, finish_reason: 'stop', logprobs: null }],
      usage: usage(promptTokens, Math.ceil(turn.content.length / 4)),
      simulation: { target: DBBENCH_SIM_TARGET, ...(turn.problem ? { problem: turn.problem } : {}) },
    };
  }

  const assistantTurns = messages.filter((m: unknown) => typeof m === 'object' && m !== null && (m as { role?: unknown }).role === 'assistant').length;
  const toolCalls = turn.toolCalls.map((call, i) => ({
    id: `call_${simHash('tool-call', seed, turn.taskKey, assistantTurns, i).slice(0, 24)}`,
    type: 'function' as const,
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
  const content = turn.content ?? null;
  const completionChars = (content ?? '').length + toolCalls.reduce((n, call) => n + call.function.name.length + call.function.arguments.length, 0);
  return {
    id,
    object: 'chat.completion',
    created: 0,
    model,
    system_fingerprint: DBBENCH_SIM_FINGERPRINT,
    choices: [{ index: 0, message: { role: 'assistant', content, tool_calls: toolCalls }, finish_reason: 'tool_calls', logprobs: null }],
    usage: usage(promptTokens, Math.ceil(completionChars / 4)),
    simulation: { target: DBBENCH_SIM_TARGET, taskKey: turn.taskKey, tag: turn.tag },
  };
}

const usage = simUsage;

/**
 * The HTTP answer for a completion: 200 with the OpenAI body (the `simulation` field removed), or 400
 * with an OpenAI-style error body when the target cannot play the request (unknown task, bad request).
 */
export function toSimHttpReply(completion: DbBenchSimCompletion): { status: 200 | 400; body: Record<string, unknown> } {
  return simHttpReply(completion);
}
