import { toolMessage, userMessage } from '../../episode/index.js';
import type { ToolEpisode } from '../../environments/environment.js';
import { foldGuards, foldInit, foldPostStep, settle } from '../../runtime/call-hooks.js';
import type { Ending, LoopContext } from '../../runtime/episode-loop.js';

/** Where an ALFWorld hook is called, with the agent's raw output and the action the loop will execute. */
export interface AlfworldLoopPoint {
  hook: 'on_init' | 'make_pre_hint' | 'on_before_action' | 'on_post_step';
  step: number;
  remaining: number;
  raw: string;
  finalAction: string;
}

/** What one environment step gave: the tool-message text and whether the goal now holds. */
export interface AlfworldLoopStep {
  content: string;
  observation: string;
  won: boolean;
}

/**
 * The episode operations the ALFWorld loop needs beyond the generic contract: `process_action`, the
 * ALFWorld ctx at a call site, and one environment step (which also runs the post-step monitor).
 */
export interface AlfworldLoopEpisode extends ToolEpisode {
  processAction(output: string): string;
  alfworldContext(point: AlfworldLoopPoint): Record<string, unknown>;
  stepAction(action: string): Promise<AlfworldLoopStep>;
}

/** ALFWorld's normalization of a hook's action: `action.strip().lower()`. */
export function lowerAction(action: string): string {
  return action.trim().toLowerCase();
}

/** How many identical raw outputs in a row end the episode (once more than that many steps are logged). */
export const ALFWORLD_IDENTICAL_OUTPUT_LIMIT = 3;

/**
 * The ALFWorld loop (protocol.md §4.3, §7.2). on_init gives tips and a take_action hint; then per step
 * make_pre_hint, a model turn, and only the first tool call: its first argument value is the raw output,
 * `process_action` normalizes it, a pending post-step force replaces it, on_before_action may block (a user
 * message, no tool message, the step is used) or rewrite/force (lower-cased), then the environment steps
 * and on_post_step may hint or queue a forced action for the next tool-calling turn. The episode fails as
 * `invalid_action` once more than three steps are logged and the last three raw outputs are identical.
 *
 * Deviation: a rewrite/force message from on_before_action is added after the tool message (the reference
 * adds it before), so the conversation stays valid for chat APIs.
 */
export async function playAlfworld(loop: LoopContext<AlfworldLoopEpisode>): Promise<Ending> {
  const episode = loop.episode;
  const s = loop.state;
  const max = episode.maxRounds;
  const initCtx = () => episode.alfworldContext({ hook: 'on_init', step: 0, remaining: max, raw: '', finalAction: '' });
  const init = foldInit(await loop.hook('on_init', initCtx, { round: 0 }));
  s.messages.push({ role: 'system', content: episode.systemPrompt(init) });
  s.messages.push(userMessage(episode.firstUserMessage()));

  let forced: string | undefined;
  const outputs: string[] = [];
  for (let i = 0; i < max; i++) {
    const round = i + 1;
    const remaining = max - i;
    const preCtx = () => episode.alfworldContext({ hook: 'make_pre_hint', step: i, remaining, raw: '', finalAction: '' });
    for (const { effect } of await loop.hook('make_pre_hint', preCtx, { round })) s.messages.push(userMessage(effect.message));

    const { content, toolCalls } = await loop.complete(round);
    const first = toolCalls[0];
    if (first === undefined) {
      episode.noteTextOnlyTurn();
      s.messages.push(userMessage(episode.textOnlyNudge(content ?? '')));
      continue;
    }
    episode.noteToolTurn();
    const call = loop.parseCall(first);
    if (!call || call.firstValue === undefined) {
      s.messages.push(userMessage(episode.badArgumentsReply()));
      s.steps.push({ round, tool: first.name, input: first.arguments, observation: episode.badArgumentsReply(), status: 'invalid' });
      continue;
    }
    const output = typeof call.firstValue === 'string' ? call.firstValue : JSON.stringify(call.firstValue);
    let action = episode.processAction(output);
    if (forced !== undefined) {
      action = forced;
      forced = undefined;
    }

    const beforeCtx = () => episode.alfworldContext({ hook: 'on_before_action', step: i, remaining, raw: output, finalAction: action });
    const guards = await loop.hook('on_before_action', beforeCtx, { round, tool: call.tool });
    const guard = foldGuards(guards, action, lowerAction);
    settle(guards, guard.dispositions);
    const { block, notes } = guard;
    action = guard.action;
    if (block !== undefined) {
      s.messages.push(userMessage(block));
      s.steps.push({ round, tool: call.tool, input: output, observation: block, status: 'blocked' });
      continue;
    }

    const result = await loop.env(() => episode.stepAction(action));
    s.messages.push(toolMessage(call.id, result.content));
    for (const note of notes) s.messages.push(userMessage(note));
    s.steps.push({ round, tool: call.tool, input: output, observation: result.observation, status: 'executed' });
    outputs.push(output);

    const postCtx = () => episode.alfworldContext({ hook: 'on_post_step', step: i, remaining: remaining - 1, raw: output, finalAction: action });
    const fired = await loop.hook('on_post_step', postCtx, { round, tool: call.tool });
    const post = foldPostStep(fired, lowerAction);
    settle(fired, post.dispositions);
    for (const message of post.messages) s.messages.push(userMessage(message));
    if (post.forced !== undefined) forced = post.forced;

    const ending = alfworldStepEnding(outputs, result.won);
    if (ending) return ending;
  }
  return alfworldStepLimitEnding(max);
}

/**
 * How an executed step ends the episode, if it does: once more than three steps are logged and the last
 * three raw outputs are identical, `invalid_action` (checked first, as the reference does); else a win.
 */
export function alfworldStepEnding(outputs: readonly string[], won: boolean): Ending | undefined {
  const last = outputs.slice(-ALFWORLD_IDENTICAL_OUTPUT_LIMIT);
  if (outputs.length > ALFWORLD_IDENTICAL_OUTPUT_LIMIT && last.every((o) => o === last[0])) {
    return { outcome: 'invalid_action', reward: 0, detail: { reason: `the last ${ALFWORLD_IDENTICAL_OUTPUT_LIMIT} outputs were identical`, won: false } };
  }
  return won ? { outcome: 'success', reward: 1, detail: { won: true } } : undefined;
}

/** The ending when the step budget runs out. */
export function alfworldStepLimitEnding(max: number): Ending {
  return { outcome: 'round_limit', reward: 0, detail: { reason: `not won within ${max} steps`, won: false } };
}
