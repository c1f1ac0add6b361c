import { userMessage } from '../../episode/index.js';
import type { ParsedCall } from '../../environments/environment.js';
import type { WebShopTextEpisodeDriver } from '../../environments/webshop/webshop-environment.js';
import { parseWebShopTextAction, WEBSHOP_TEXT_ACTION_PATTERN } from '../../environments/webshop/webshop-text-prompts.js';
import { foldInit } from '../../runtime/call-hooks.js';
import type { Ending, LoopContext } from '../../runtime/episode-loop.js';
import { actWebShop } from './webshop-loop.js';

/** The hook-facing tool name of a text verb: hooks see the FC names, so FC patches run unchanged. */
const TOOL_OF_VERB = { search: 'search_action', click: 'click_action' } as const;
const ARGUMENT_OF_VERB = { search: 'keywords', click: 'value' } as const;

/**
 * The WebShop AgentBench v0.2 text loop (benchmarks.md §2.8) with the FC loop's hooks carried over
 * (protocol.md §4.2, §4.5; the original Harness-R1 ran hooks under FC only, so this is our analogue).
 *
 * Opening: on_init, then the reference prompt as the first user message (skills appended as the tips
 * block, tool hints as an action-hints block with the built-in H3 sentences), "Ok.", and the one-shot.
 * No system message and no tools. Each round: a user message `Observation:\n<page>\n\nAvailable
 * Actions:\n<dict>` for the current page, make_pre_hint messages as user messages, one model call, and
 * the first match of `[Aa]ction: *\n* *((search|click)\[…])` in the reply. No match ends the episode
 * (`invalid_action`, reward 0), as the reference does. A pending post-step force replaces the matched
 * action; on_before_action sees the FC tool name (`search_action` / `click_action`) and the bracket
 * value; a block is a user message with no env step (the round is used and the next observation is the
 * unchanged page); a rewrite/force replaces the action (kept if bracketed, else wrapped by the agent's
 * verb). The env step runs the action; an action the env refuses is a no-op with the same page. After
 * the step, on_post_step hints are user messages and a force is queued as `click[…]` for the next round
 * with a matched action. "buy now" ends the episode with the env's reward; otherwise the episode ends
 * after `maxRounds` rounds (reward 0, no closing message, as the reference).
 */
export async function playWebShopText(loop: LoopContext<WebShopTextEpisodeDriver>): Promise<Ending> {
  const { episode, state: s } = loop;
  const max = episode.maxRounds;
  s.messages.push(...episode.openingMessages(foldInit(await loop.hook('on_init', () => episode.contextFor({ hook: 'on_init', round: 0, remaining: max }), { round: 0 }))));
  s.preamble = s.messages.length;

  let pendingForce: string | undefined;
  for (let j = 0; j < max; j++) {
    const round = j + 1;
    const remaining = max - j;
    s.messages.push(userMessage(episode.turnMessage()));
    for (const { effect } of await loop.hook('make_pre_hint', () => episode.contextFor({ hook: 'make_pre_hint', round, remaining }), { round })) {
      s.messages.push(userMessage(effect.message));
    }
    const reply = await loop.complete(round);
    const content = reply.content ?? '';
    const parsed = parseWebShopTextAction(content);
    if (!parsed) {
      const reason = `no action matching ${String(WEBSHOP_TEXT_ACTION_PATTERN)} in the reply`;
      s.steps.push({ round, tool: 'text', input: content, observation: reason, status: 'invalid' });
      return { outcome: 'invalid_action', reward: 0, detail: { reason } };
    }
    const tool = TOOL_OF_VERB[parsed.verb];
    const call: ParsedCall = { id: `text-${round}`, tool, args: { [ARGUMENT_OF_VERB[parsed.verb]]: parsed.value }, firstValue: parsed.value };
    let action = parsed.action;
    if (pendingForce !== undefined) {
      action = pendingForce;
      pendingForce = undefined;
    }

    const step = await actWebShop(loop, episode, { round, remaining, call, action, tool: parsed.verb });
    if (step.ending) return step.ending;
    if (step.forced !== undefined) pendingForce = step.forced;
  }
  return { outcome: 'round_limit', reward: 0, detail: { reason: `no purchase within ${max} rounds` } };
}
