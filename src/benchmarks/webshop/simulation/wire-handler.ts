import { simHttpReply, simUsage, type SimCompletion } from '../../../models/sim-completion.js';
import { loadSharedWebShopEngine } from '../../../environments/webshop/webshop-environment.js';
import type { WebShopEngine } from '../../../environments/webshop/webshop-engine.js';
import type { GoalMode } from '../../../environments/webshop/load-catalogue.js';
import { simChance, simHash } from '../../dbbench/simulation/sim-rng.js';
import { resolveWebShopSimSettings, type WebShopFaultRates, type WebShopSimSettings } from './fault-profile.js';
import { createWebShopSimPolicy, type WebShopSimPolicy, type WebShopSimTag, type WebShopSimTurn } from './webshop-sim-policy.js';

export interface WebShopSimHandlerOptions {
  /** The data folder holding `webshop/` (see `resolveDataDir`), or the `webshop/` folder itself. */
  dataDir: string;
  seed?: number;
  /** Rates to override, or a `faults=` spec such as `none,early_buy:0.5`. */
  faults?: Partial<WebShopFaultRates> | string;
  comply?: number;
  /** Goal set the target knows (default as the environment: human when available, else synthetic). */
  goals?: GoalMode;
  goalSeed?: number;
  /** An engine already loaded (shared with the environment). */
  engine?: WebShopEngine;
}

export const WEBSHOP_SIM_TARGET = 'sim:webshop';
export const WEBSHOP_SIM_FINGERPRINT = 'harness-r1-sim-webshop-v1';

export type WebShopSimCompletion = SimCompletion<typeof WEBSHOP_SIM_TARGET, WebShopSimTag>;

export type WebShopSimHandler = ((requestBody: unknown) => WebShopSimCompletion) & {
  readonly settings: WebShopSimSettings;
  readonly policy: WebShopSimPolicy;
};

/**
 * The simulated WebShop target as an OpenAI chat-completions handler: request body in, a JSON-able
 * `chat.completion` out. Ids and token counts are functions of the request and settings only.
 */
export function createWebShopSimHandler(options: WebShopSimHandlerOptions): WebShopSimHandler {
  const settings = resolveWebShopSimSettings(options);
  const engine = options.engine ?? loadSharedWebShopEngine(options.dataDir, options.goals, options.goalSeed);
  const policy = createWebShopSimPolicy({ engine, settings });
  const handler = (body: unknown): WebShopSimCompletion => completionFor(policy, body);
  return Object.assign(handler, { settings, policy });
}

function completionFor(policy: WebShopSimPolicy, body: unknown): WebShopSimCompletion {
  const turn = policy.decideTurn(body);
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const messages = Array.isArray(record.messages) ? record.messages : [];
  const model = typeof record.model === 'string' ? record.model : WEBSHOP_SIM_TARGET;
  const { seed, faults, comply } = policy.settings;
  const requestText = JSON.stringify(messages) ?? '';
  const id = `chatcmpl-sim-${simHash('webshop-completion', seed, JSON.stringify(faults), comply, requestText).slice(0, 24)}`;
  const promptTokens = Math.ceil(requestText.length / 4);
  const base = { id, object: 'chat.completion' as const, created: 0, model, system_fingerprint: WEBSHOP_SIM_FINGERPRINT };
  const textProtocol = !(Array.isArray(record.tools) && record.tools.length > 0);
  if (turn.kind === 'tool_call' && textProtocol) {
    const assistantTurns = messages.filter((m: unknown) => typeof m === 'object' && m !== null && (m as { role?: unknown }).role === 'assistant').length;
    const content = textActionReply(turn, seed, assistantTurns);
    return {
      ...base,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
      usage: usage(promptTokens, Math.ceil(content.length / 4)),
      simulation: { target: WEBSHOP_SIM_TARGET, taskKey: turn.taskKey, tag: turn.tag },
    };
  }
  if (turn.kind === 'text') {
    return {
      ...base,
      choices: [{ index: 0, message: { role: 'assistant', content: turn.content }, finish_reason: 'stop', logprobs: null }],
      usage: usage(promptTokens, Math.ceil(turn.content.length / 4)),
      simulation: { target: WEBSHOP_SIM_TARGET, ...(turn.taskKey ? { taskKey: turn.taskKey } : {}), ...(turn.tag ? { tag: turn.tag } : {}), ...(turn.problem ? { problem: turn.problem } : {}) },
    };
  }
  const assistantTurns = messages.filter((m: unknown) => typeof m === 'object' && m !== null && (m as { role?: unknown }).role === 'assistant').length;
  const args = JSON.stringify(turn.arguments);
  const call = { id: `call_${simHash('webshop-tool-call', seed, turn.taskKey, assistantTurns).slice(0, 24)}`, type: 'function' as const, function: { name: turn.name, arguments: args } };
  return {
    ...base,
    choices: [{ index: 0, message: { role: 'assistant', content: turn.content, tool_calls: [call] }, finish_reason: 'tool_calls', logprobs: null }],
    usage: usage(promptTokens, Math.ceil((turn.content.length + turn.name.length + args.length) / 4)),
    simulation: { target: WEBSHOP_SIM_TARGET, taskKey: turn.taskKey, tag: turn.tag },
  };
}

const usage = simUsage;

/** Share of v0.2 replies that give a `Thought:` before the action (the rest write `Action: …` alone). */
export const WEBSHOP_SIM_THOUGHT_RATE = 0.7;

/**
 * A tool-call decision written as a v0.2 text reply: `Thought:\n…\n\nAction:\nsearch[…]`, or for some
 * turns (a seeded draw per goal and turn) just `Action: click[…]`.
 */
export function textActionReply(turn: Extract<WebShopSimTurn, { kind: 'tool_call' }>, seed: number, turnNumber: number): string {
  const args = turn.arguments as { keywords?: string; value?: string };
  const action = turn.name === 'search_action' ? `search[${args.keywords ?? ''}]` : `click[${args.value ?? ''}]`;
  if (!simChance(seed, turn.taskKey, `text-thought:${turnNumber}`, WEBSHOP_SIM_THOUGHT_RATE)) return `Action: ${action}`;
  return `Thought:\n${turn.content}\n\nAction:\n${action}`;
}

/** The HTTP answer: 200 with the OpenAI body (`simulation` removed), or 400 with an OpenAI error body. */
export function toWebShopSimHttpReply(completion: WebShopSimCompletion): { status: 200 | 400; body: Record<string, unknown> } {
  return simHttpReply(completion);
}
