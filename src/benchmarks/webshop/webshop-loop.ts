import { toolMessage, userMessage, type ChatMessage } from '../../episode/index.js';
import type { ParsedCall } from '../../environments/environment.js';
import type { WebShopEpisodeDriver } from '../../environments/webshop/webshop-environment.js';
import { foldGuards, foldInit, foldPostStep, settle } from '../../runtime/call-hooks.js';
import type { Ending, LoopContext } from '../../runtime/episode-loop.js';

const TASK_LIMIT_MESSAGE = 'Task limit reached.';

/**
 * The WebShop loop (protocol.md §4.2, §4.5, §7.1). on_init gives tips for the system prompt and tool hints
 * for both tool descriptions. Each turn starts with the observation message: the initial observation, a
 * user "Observation:" message after a turn with no action, or a tool message "Action: …" answering the
 * previous call. Then make_pre_hint, one model call, and only the first tool call: its first argument
 * value is wrapped as `search[…]`/`click[…]`; a pending post-step force pre-empts it before
 * on_before_action; a block is a user message, no env step, and the next tool message reads as if the
 * blocked action had run; a rewrite/force replaces the action (wrapped by the current tool). After the
 * env step, on_post_step hints are user messages and a force is queued as `click[…]` for the next
 * tool-calling turn. Hint and rewrite messages land before the tool message of their call, as in the
 * original. The episode ends at "buy now" with the env's reward, or after the rounds.
 */
export async function playWebShop(loop: LoopContext<WebShopEpisodeDriver>): Promise<Ending> {
  const { episode, state: s } = loop;
  const max = episode.maxRounds;
  const init = foldInit(await loop.hook('on_init', () => episode.contextFor({ hook: 'on_init', round: 0, remaining: max }), { round: 0 }));
  for (const hint of init.toolHints) episode.applyToolHint(hint);
  s.messages.push({ role: 'system', content: episode.systemPrompt(init) });

  let lastAction: string | undefined;
  let lastCallId = '';
  let pendingForce: string | undefined;
  for (let j = 0; j < max; j++) {
    const round = j + 1;
    const remaining = max - j;
    s.messages.push(turnMessage(episode, j, lastAction, lastCallId));
    for (const { effect } of await loop.hook('make_pre_hint', () => episode.contextFor({ hook: 'make_pre_hint', round, remaining }), { round })) {
      s.messages.push(userMessage(effect.message));
    }
    const { toolCalls } = await loop.complete(round);
    const raw = toolCalls[0];
    if (!raw) {
      episode.noteTextOnlyObservation();
      lastAction = undefined;
      continue;
    }
    lastCallId = raw.id;
    const parsed = loop.parseCall(raw);
    const call: ParsedCall = parsed ?? { id: raw.id, tool: raw.name, args: {}, firstValue: undefined };
    let action = parsed ? episode.defaultAction(call.tool, call.firstValue) : undefined;
    if (pendingForce !== undefined) {
      action = pendingForce;
      pendingForce = undefined;
    }
    if (action === undefined) {
      const reason = parsed ? episode.unknownToolReply() : episode.badArgumentsReply();
      s.steps.push({ round, tool: call.tool, input: parsed ? call.firstValue : raw.arguments, observation: reason, status: 'invalid' });
      lastAction = undefined;
      continue;
    }

    const step = await actWebShop(loop, episode, { round, remaining, call, action, tool: call.tool });
    if (step.ending) return step.ending;
    lastAction = step.action;
    if (step.forced !== undefined) pendingForce = step.forced;
  }
  s.messages.push(lastAction === undefined ? userMessage(TASK_LIMIT_MESSAGE) : toolMessage(lastCallId, TASK_LIMIT_MESSAGE));
  return { outcome: 'round_limit', reward: 0, detail: { reason: `no purchase within ${max} rounds` } };
}

/** What one action did: the action that ran or was blocked, a force queued for the next turn, and a purchase ending. */
export interface WebShopActionStep {
  action: string;
  forced?: string;
  ending?: Ending;
}

/**
 * One WebShop action in either protocol: on_before_action (a block is a user message and no env step; a
 * rewrite/force replaces the action, wrapped by the call's tool, and its message is a user message), the
 * env step, then on_post_step (hints as user messages, a force queued as `click[…]`). "buy now" ends the
 * episode with the env's reward. `tool` names the step and the trace entries (FC: the tool; v0.2: the verb).
 */
export async function actWebShop(
  loop: LoopContext<WebShopEpisodeDriver>,
  episode: WebShopEpisodeDriver,
  a: { round: number; remaining: number; call: ParsedCall; action: string; tool: string },
): Promise<WebShopActionStep> {
  const s = loop.state;
  const { round, remaining, call } = a;
  const view = { tool: call.tool, value: call.firstValue ?? '', finalAction: a.action };
  const guards = await loop.hook('on_before_action', () => episode.contextFor({ hook: 'on_before_action', round, remaining, call }, view), { round, tool: a.tool });
  const guard = foldGuards(guards, a.action, (effectAction) => episode.wrapAction(effectAction, call.tool));
  settle(guards, guard.dispositions);
  for (const note of guard.notes) s.messages.push(userMessage(note));
  if (guard.block !== undefined) {
    s.messages.push(userMessage(guard.block));
    s.steps.push({ round, tool: a.tool, input: call.firstValue, observation: guard.block, status: 'blocked' });
    return { action: guard.action };
  }
  const executed = guard.action;
  const out = await loop.env(() => Promise.resolve(episode.step(executed)));
  s.steps.push({ round, tool: a.tool, input: call.firstValue, observation: out.observation, status: 'executed' });
  const post = await loop.hook('on_post_step', () => episode.contextFor({ hook: 'on_post_step', round, remaining: remaining - 1, call, observation: out.observation }), { round, tool: a.tool });
  const after = foldPostStep(post, forcedClick);
  settle(post, after.dispositions);
  for (const message of after.messages) s.messages.push(userMessage(message));
  const step: WebShopActionStep = { action: executed, ...(after.forced !== undefined ? { forced: after.forced } : {}) };
  if (out.done) step.ending = { outcome: out.reward >= 1 ? 'success' : 'wrong_answer', reward: out.reward, detail: { action: executed, ...out.detail } };
  return step;
}

/** A post-step force for WebShop: kept when it is already `verb[…]`, else a click on the value. */
export function forcedClick(action: string): string {
  return action.includes('[') && action.endsWith(']') ? action : `click[${action}]`;
}

function turnMessage(episode: WebShopEpisodeDriver, j: number, lastAction: string | undefined, lastCallId: string): ChatMessage {
  if (j === 0) return userMessage(episode.initialMessage());
  if (lastAction === undefined) return userMessage(episode.observationMessage(undefined));
  return toolMessage(lastCallId, episode.observationMessage(lastAction));
}
