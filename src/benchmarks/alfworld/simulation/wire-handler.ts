import { simHttpReply, simUsage, type SimCompletion } from '../../../models/sim-completion.js';
import { ConfigError } from '../../../episode/index.js';
import { simHash } from '../../dbbench/simulation/sim-rng.js';
import { loadAlfworldGameIndex } from './alfworld-game-index.js';
import { createAlfworldSimPolicy, type AlfworldSimPolicy, type AlfworldSimTag } from './alfworld-sim-policy.js';
import {
  DEFAULT_ALFWORLD_COMPLY,
  DEFAULT_ALFWORLD_FAULT_RATES,
  DEFAULT_ALFWORLD_SIM_SEED,
  parseAlfworldFaultSpec,
  type AlfworldFaultRates,
  type AlfworldSimSettings,
} from './alfworld-sim-settings.js';

/**
 * The simulated ALFWorld target as an OpenAI chat-completions handler: request body in, a JSON-able
 * `chat.completion` out, so it can sit behind the fake OpenAI-compatible server. Everything in the
 * response is a function of the request and the settings, never of time or call order.
 */
export interface AlfworldSimHandlerOptions {
  /** The data folder holding `alfworld/`. */
  dataDir: string;
  seed?: number;
  /** Rates to override, or a `faults=` spec text such as `none,skip_transform:1`. */
  faults?: Partial<AlfworldFaultRates> | string;
  comply?: number;
  /** Games files the run plays (`--games`), known before the shipped games. */
  gamesFiles?: string[];
  /** How many conversations the target remembers between requests (default `ALFWORLD_SIM_MEMORY`; 0: none). */
  memory?: number;
}

export const ALFWORLD_SIM_TARGET = 'sim:alfworld';
export const ALFWORLD_SIM_FINGERPRINT = 'harness-r1-sim-alfworld-v1';

export type AlfworldSimCompletion = SimCompletion<typeof ALFWORLD_SIM_TARGET, AlfworldSimTag, { gameId?: string }>;

export type AlfworldSimHandler = ((requestBody: unknown) => AlfworldSimCompletion) & {
  readonly settings: AlfworldSimSettings;
  readonly policy: AlfworldSimPolicy;
};

export function resolveAlfworldSimSettings(options: Omit<AlfworldSimHandlerOptions, 'dataDir'>): AlfworldSimSettings {
  const settings: AlfworldSimSettings = { seed: DEFAULT_ALFWORLD_SIM_SEED, faults: { ...DEFAULT_ALFWORLD_FAULT_RATES }, comply: DEFAULT_ALFWORLD_COMPLY };
  if (options.seed !== undefined) settings.seed = options.seed;
  if (typeof options.faults === 'string') settings.faults = parseAlfworldFaultSpec(options.faults);
  else if (options.faults !== undefined) {
    for (const [k, v] of Object.entries(options.faults)) if (v !== undefined) settings.faults[k as keyof AlfworldFaultRates] = v;
  }
  if (options.comply !== undefined) settings.comply = options.comply;
  if (!Number.isSafeInteger(settings.seed)) throw new ConfigError({ message: `The simulation seed must be an integer, got ${settings.seed}.`, field: 'seed' });
  for (const [name, rate] of [['comply', settings.comply], ...Object.entries(settings.faults)] as [string, number][]) {
    if (!(rate >= 0 && rate <= 1)) throw new ConfigError({ message: `'${name}' must be a probability in 0..1, got ${rate}.`, field: name });
  }
  return settings;
}

export function createAlfworldSimHandler(options: AlfworldSimHandlerOptions): AlfworldSimHandler {
  const settings = resolveAlfworldSimSettings(options);
  const index = loadAlfworldGameIndex(options.dataDir, options.gamesFiles ?? []);
  const policy = createAlfworldSimPolicy({ index, settings, ...(options.memory === undefined ? {} : { memory: options.memory }) });
  const handler = (requestBody: unknown): AlfworldSimCompletion => completionFor(policy, requestBody);
  return Object.assign(handler, { settings, policy });
}

function completionFor(policy: AlfworldSimPolicy, body: unknown): AlfworldSimCompletion {
  const turn = policy.decideTurn(body);
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const messages = Array.isArray(record.messages) ? record.messages : [];
  const model = typeof record.model === 'string' ? record.model : ALFWORLD_SIM_TARGET;
  const { seed, faults, comply } = policy.settings;
  const requestText = JSON.stringify(messages) ?? '';
  const id = `chatcmpl-sim-${simHash('alfworld-completion', seed, JSON.stringify(faults), comply, requestText).slice(0, 24)}`;
  const promptTokens = Math.ceil(requestText.length / 4);
  const base = { id, object: 'chat.completion' as const, created: 0, model, system_fingerprint: ALFWORLD_SIM_FINGERPRINT };
  if (turn.kind === 'text') {
    return {
      ...base,
      choices: [{ index: 0, message: { role: 'assistant', content: turn.content }, finish_reason: 'stop', logprobs: null }],
      usage: usage(promptTokens, Math.ceil(turn.content.length / 4)),
      simulation: { target: ALFWORLD_SIM_TARGET, problem: turn.problem },
    };
  }
  if (turn.text !== undefined) {
    return {
      ...base,
      choices: [{ index: 0, message: { role: 'assistant', content: turn.text }, finish_reason: 'stop', logprobs: null }],
      usage: usage(promptTokens, Math.ceil(turn.text.length / 4)),
      simulation: { target: ALFWORLD_SIM_TARGET, gameId: turn.gameId, tag: turn.tag },
    };
  }
  const assistantTurns = messages.filter((m: unknown) => typeof m === 'object' && m !== null && (m as { role?: unknown }).role === 'assistant').length;
  const args = JSON.stringify({ action: turn.action });
  const call = { id: `call_${simHash('alfworld-tool-call', seed, turn.gameId, assistantTurns).slice(0, 24)}`, type: 'function' as const, function: { name: 'take_action', arguments: args } };
  return {
    ...base,
    choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: 'tool_calls', logprobs: null }],
    usage: usage(promptTokens, Math.ceil((call.function.name.length + args.length) / 4)),
    simulation: { target: ALFWORLD_SIM_TARGET, gameId: turn.gameId, tag: turn.tag },
  };
}

const usage = simUsage;

/** The HTTP answer: 200 with the OpenAI body (`simulation` removed), or 400 with an OpenAI-style error when the target cannot play. */
export function toAlfworldSimHttpReply(completion: AlfworldSimCompletion): { status: 200 | 400; body: Record<string, unknown> } {
  return simHttpReply(completion);
}
