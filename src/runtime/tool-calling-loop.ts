import type { ToolCall } from '../episode/index.js';
import type { ToolEpisode } from '../environments/environment.js';
import { toolMessage, userMessage } from '../episode/index.js';
import { foldGuards, foldInit, foldPostStep, settle } from './call-hooks.js';
import type { Ending, LoopContext } from './episode-loop.js';

/**
 * The tool-calling loop, the SQL benchmark's (protocol.md §4.4) and the one any benchmark of tool calls with a final
 * answer can use: on_init into the system prompt, then per round make_pre_hint, a model
 * turn, and every tool call of the turn in order — on_before_action (a block is a tool reply for that call;
 * rewrite and force are ignored, by the one guard fold of `call-hooks.ts`), execution, on_post_step (hints
 * honoured, force ignored). A final answer
 * ends the episode at once; a turn without tool calls gets the nudge and uses up the round.
 */
export async function playToolCalling(loop: LoopContext<ToolEpisode>): Promise<Ending> {
  const { episode, state: s } = loop;
  const max = episode.maxRounds;
  const init = foldInit(await loop.hook('on_init', () => episode.hookContext({ hook: 'on_init', round: 0, remaining: max }), { round: 0 }));
  s.messages.push({ role: 'system', content: episode.systemPrompt(init) });
  s.messages.push(userMessage(episode.firstUserMessage()));

  for (let r = 0; r < max; r++) {
    const round = r + 1;
    const remaining = max - r;
    for (const { effect } of await loop.hook('make_pre_hint', () => episode.hookContext({ hook: 'make_pre_hint', round, remaining }), { round })) {
      s.messages.push(userMessage(effect.message));
    }
    const { content, toolCalls } = await loop.complete(round);
    if (toolCalls.length === 0) {
      episode.noteTextOnlyTurn();
      s.messages.push(userMessage(episode.textOnlyNudge(content ?? '')));
      continue;
    }
    episode.noteToolTurn();
    const final = await processToolCalls(loop, toolCalls, round, remaining);
    if (final) return final;
  }
  return { outcome: 'round_limit', reward: 0, detail: { reason: `no final answer within ${max} rounds` } };
}

async function processToolCalls(loop: LoopContext<ToolEpisode>, toolCalls: ToolCall[], round: number, remaining: number): Promise<Ending | undefined> {
  const { episode, state: s } = loop;
  for (const raw of toolCalls) {
    const call = loop.parseCall(raw);
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
    const guards = await loop.hook('on_before_action', () => episode.hookContext({ hook: 'on_before_action', round, remaining, call }), { round, tool: call.tool });
    const guard = foldGuards(guards, call.firstValue === undefined ? '' : String(call.firstValue));
    settle(guards, guard.dispositions);
    const block = guard.block;
    if (block !== undefined) {
      s.messages.push(toolMessage(call.id, block));
      s.steps.push({ round, tool: call.tool, input: call.firstValue, observation: block, status: 'blocked' });
      continue;
    }
    const result = await loop.env(() => episode.act(call, round));
    if (result.kind === 'final') {
      s.steps.push({ round, tool: call.tool, input: call.firstValue, observation: '', status: 'executed' });
      return { outcome: result.correct ? 'success' : 'wrong_answer', reward: result.correct ? 1 : 0, detail: result.detail };
    }
    s.messages.push(toolMessage(call.id, result.content));
    s.steps.push({ round, tool: call.tool, input: call.firstValue, observation: result.content, status: result.status });
    if (result.status !== 'executed') continue;
    const post = await loop.hook(
      'on_post_step',
      () => episode.hookContext({ hook: 'on_post_step', round, remaining: remaining - 1, call, observation: result.content }),
      { round, tool: call.tool },
    );
    const after = foldPostStep(post);
    settle(post, after.dispositions);
    for (const message of after.messages) s.messages.push(userMessage(message));
  }
  return undefined;
}
