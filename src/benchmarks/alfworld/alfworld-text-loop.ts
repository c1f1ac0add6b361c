import { userMessage, type ChatMessage } from '../../episode/index.js';
import { trimAvailableActions } from '../../environments/alfworld/alfworld-prompts.js';
import { pyStrip } from '../../python/python-text.js';
import type { Ending, LoopContext } from '../../runtime/episode-loop.js';
import { foldGuards, foldInit, foldPostStep, settle } from '../../runtime/call-hooks.js';
import { alfworldStepEnding, alfworldStepLimitEnding, lowerAction, type AlfworldLoopEpisode } from './alfworld-loop.js';

/** The text episode: the FC loop's operations plus the v0.2 opening (instruction, reply, one-shot, task). */
export interface AlfworldTextLoopEpisode extends AlfworldLoopEpisode {
  openingMessages(init: { skills: string[]; toolHints: string[] }): ChatMessage[];
}

/** The `tool` name recorded in steps and hook traces of the text protocol (there are no tools). */
export const ALFWORLD_TEXT_STEP_TOOL = 'text';

/** AgentBench's `re.search("ACTION:(.*)", output)`: the rest of the first line that holds "ACTION:". */
export function extractAlfworldAction(output: string): string | undefined {
  // Python's `.` stops only at "\n"; JavaScript's would also stop at "\r", U+2028 and U+2029.
  const match = /ACTION:([^\n]*)/.exec(output);
  return match ? match[1] : undefined;
}

/**
 * The ALFWorld v0.2 text loop (benchmarks.md §3.6, AgentBench v0.2 `alfworld_run`), with the hooks placed as in
 * the FC loop (`playAlfworld`):
 *
 * - on_init: skills become tips and tool hints an action hint in the first user message (no tools exist);
 * - per step: make_pre_hint messages as user messages; the model's plain-text reply; the action is the text
 *   after the first "ACTION:" on its line — no match, or nothing left after cleaning, ends the episode as
 *   `invalid_action`; process_action (cleaning, put in/on, BLEU mapping); a pending post-step force replaces
 *   it; on_before_action may block (a user message, the step is used, the environment is not stepped and the
 *   reply does not count for the repeat rule) or rewrite/force (lower-cased, the optional message follows the
 *   observation); the environment steps; the observation message answered before is cut at
 *   "AVAILABLE ACTIONS" (the reference's history reduction; done when the new observation arrives, so a
 *   block never leaves the model without a list); the new observation + " AVAILABLE ACTIONS: …\n" is a user
 *   message; on_post_step may hint or queue a forced action;
 * - once more than three steps are logged and the last three raw replies are identical: `invalid_action`;
 *   won: `success`; out of steps: `round_limit`.
 *
 * Hooks see `output`/`action.raw` = the text after "ACTION:" (stripped), the analogue of the FC tool argument.
 */
export async function playAlfworldText(loop: LoopContext<AlfworldTextLoopEpisode>): Promise<Ending> {
  const episode = loop.episode;
  const s = loop.state;
  const max = episode.maxRounds;
  const initCtx = () => episode.alfworldContext({ hook: 'on_init', step: 0, remaining: max, raw: '', finalAction: '' });
  s.messages.push(...episode.openingMessages(foldInit(await loop.hook('on_init', initCtx, { round: 0 }))));
  /** Where the observation message with the current AVAILABLE ACTIONS list sits (first: the task message). */
  let observationAt = s.messages.length - 1;
  // The instruction, the acknowledgement and the one-shot example are the preamble; the task message is not.
  s.preamble = observationAt;

  let forced: string | undefined;
  const outputs: string[] = [];
  const tool = ALFWORLD_TEXT_STEP_TOOL;
  for (let i = 0; i < max; i++) {
    const round = i + 1;
    const remaining = max - i;
    const preCtx = () => episode.alfworldContext({ hook: 'make_pre_hint', step: i, remaining, raw: '', finalAction: '' });
    for (const { effect } of await loop.hook('make_pre_hint', preCtx, { round })) s.messages.push(userMessage(effect.message));

    const reply = await loop.complete(round);
    const output = reply.content ?? '';
    const extracted = extractAlfworldAction(output);
    let action = extracted === undefined ? '' : episode.processAction(extracted);
    if (action === '') {
      const reason = extracted === undefined ? 'the reply has no "ACTION:"' : 'the reply has an empty action after "ACTION:"';
      s.steps.push({ round, tool, input: output, observation: '', status: 'invalid' });
      return { outcome: 'invalid_action', reward: 0, detail: { reason, won: false } };
    }
    const raw = pyStrip(extracted ?? '');
    if (forced !== undefined) {
      action = forced;
      forced = undefined;
    }

    const beforeCtx = () => episode.alfworldContext({ hook: 'on_before_action', step: i, remaining, raw, finalAction: action });
    const guards = await loop.hook('on_before_action', beforeCtx, { round, tool });
    const guard = foldGuards(guards, action, lowerAction);
    settle(guards, guard.dispositions);
    const { block, notes } = guard;
    action = guard.action;
    if (block !== undefined) {
      s.messages.push(userMessage(block));
      s.steps.push({ round, tool, input: output, observation: block, status: 'blocked' });
      continue;
    }

    const result = await loop.env(() => episode.stepAction(action));
    const answered = s.messages[observationAt];
    if (answered?.role === 'user') s.messages[observationAt] = userMessage(trimAvailableActions(answered.content));
    s.messages.push(userMessage(result.content));
    observationAt = s.messages.length - 1;
    for (const note of notes) s.messages.push(userMessage(note));
    s.steps.push({ round, tool, input: output, observation: result.observation, status: 'executed' });
    outputs.push(output);

    const postCtx = () => episode.alfworldContext({ hook: 'on_post_step', step: i, remaining: remaining - 1, raw, finalAction: action });
    const fired = await loop.hook('on_post_step', postCtx, { round, tool });
    const post = foldPostStep(fired, lowerAction);
    settle(fired, post.dispositions);
    for (const message of post.messages) s.messages.push(userMessage(message));
    if (post.forced !== undefined) forced = post.forced;

    const ending = alfworldStepEnding(outputs, result.won);
    if (ending) return ending;
  }
  return alfworldStepLimitEnding(max);
}
