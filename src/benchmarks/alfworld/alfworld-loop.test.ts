import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import { alfworldEnvironment } from './environment.js';
import { createNativeHookProvider, NO_HOOKS, type NativeHook } from '../../hooks/native-hooks.js';
import { createScriptedModel, type ScriptedTurn } from '../../models/scripted-model.js';
import { runEpisode } from '../../runtime/run-episode.js';

const dataDir = resolveDataDir();
const env = alfworldEnvironment({ dataDir, split: 'dev' });

// dev #0: "put a soapbottle in toilet." (2.1.1 wording).
const WALKTHROUGH = ['go to countertop 1', 'take soapbottle 1 from countertop 1', 'go to toilet 1', 'put soapbottle 1 in/on toilet 1'];

const act = (action: string): ScriptedTurn => ({ toolCalls: [{ name: 'take_action', arguments: { action } }] });

async function play(turns: ScriptedTurn[], hooks: readonly NativeHook[] = [], index = 0) {
  const model = createScriptedModel(turns);
  const provider = hooks.length > 0 ? createNativeHookProvider(hooks) : NO_HOOKS;
  const { record } = await runEpisode({ model, episode: await env.openEpisode(index), hooks: await provider.openEpisode() });
  return { record, model };
}

describe('the ALFWorld loop', () => {
  it('wins with reward 1 when the walkthrough is played through take_action', async () => {
    const { record, model } = await play(WALKTHROUGH.map(act));
    expect(record.outcome).toBe('success');
    expect(record.reward).toBe(1);
    expect(record.rounds).toBe(4);
    const first = model.calls[0]!;
    expect(first.messages[0]!.content).toMatch(/^Interact with a household to solve a task\./);
    expect(first.messages[1]!.content).toMatch(/^Here is your task\. You are in the middle of a room\. .*\nYour task is to: put a soapbottle in toilet\. AVAILABLE ACTIONS: go to cabinet 1\n.*\nlook\n$/s);
    expect(first.tools?.map((t) => t.name)).toEqual(['take_action']);
    const toolReply = model.calls[1]!.messages.at(-1)!;
    expect(toolReply).toMatchObject({ role: 'tool', toolCallId: 'call_0_0' });
    expect(toolReply.content).toMatch(/^On the countertop 1, you see a soapbottle 1, and a spraybottle 2\. AVAILABLE ACTIONS: examine countertop 1\n/);
  });

  it('normalizes the raw output (case, spacing, put X in Y)', async () => {
    const { record } = await play([act('Go to  Countertop 1'), act('take soapbottle 1 from countertop 1.'), act('go to toilet 1'), act('put soapbottle 1 in toilet 1')]);
    expect(record.outcome).toBe('success');
  });

  it('answers an invalid action with "Nothing happens." and ends after 3 identical outputs', async () => {
    const { record, model } = await play([act('go to countertop 1'), act('fly away'), act('fly away'), act('fly away'), act('look')]);
    expect(model.calls[2]!.messages.at(-1)!.content).toMatch(/^Nothing happens\. AVAILABLE ACTIONS: /);
    expect(record.outcome).toBe('invalid_action');
    expect(record.reward).toBe(0);
    expect(record.rounds).toBe(4);
  });

  it('does not apply the identical-output rule before more than 3 steps are logged', async () => {
    const { record } = await play([act('look'), act('look'), act('look'), ...WALKTHROUGH.map(act)]);
    expect(record.outcome).toBe('success');
  });

  it('nudges text-only turns and uses up the step; bad arguments get the no-valid-tool-call message', async () => {
    const { record, model } = await play([{ content: 'thinking' }, { toolCalls: [{ name: 'take_action', arguments: '{oops' }] }, ...WALKTHROUGH.map(act)]);
    expect(model.calls[1]!.messages.at(-1)).toEqual({ role: 'user', content: expect.stringMatching(/take_action/) });
    expect(model.calls[2]!.messages.at(-1)).toEqual({ role: 'user', content: 'No valid tool calls found. Please call a tool instead.' });
    expect(record.outcome).toBe('success');
    expect(record.rounds).toBe(6);
  });

  it('a block is a user message, the call gets no tool message, and the step is used', async () => {
    const hooks: NativeHook[] = [
      { hook: 'on_before_action', fn: (ctx) => ((ctx.action as { final_action: string }).final_action === 'look' ? { kind: 'block_and_prompt', message: 'Do not look; act.' } : null) },
    ];
    const { record, model } = await play([act('look'), ...WALKTHROUGH.map(act)], hooks);
    const second = model.calls[1]!.messages;
    expect(second.slice(-2)).toEqual([
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_0_0', name: 'take_action', arguments: '{"action":"look"}' }] },
      { role: 'user', content: 'Do not look; act.' },
    ]);
    expect(second.some((m) => m.role === 'tool')).toBe(false);
    expect(record.steps[0]).toMatchObject({ status: 'blocked', input: 'look' });
    expect(record.outcome).toBe('success');
    expect(record.rounds).toBe(5);
  });

  it('a rewrite replaces the action (lower-cased)', async () => {
    const hooks: NativeHook[] = [{ hook: 'on_before_action', fn: (ctx) => (ctx.output === 'look' ? { kind: 'rewrite_action', action: 'GO TO Countertop 1' } : null) }];
    const { record } = await play([act('look'), ...WALKTHROUGH.slice(1).map(act)], hooks);
    expect(record.outcome).toBe('success');
  });

  it('a post-step force is queued and used on the next tool-calling turn', async () => {
    const hooks: NativeHook[] = [
      {
        hook: 'on_post_step',
        fn: (ctx) => ((ctx.action as { final_action: string }).final_action === 'go to countertop 1' ? { kind: 'force_action', action: 'take soapbottle 1 from countertop 1', message: 'Take it.' } : null),
      },
    ];
    const { record, model } = await play([act('go to countertop 1'), { content: 'hmm' }, act('inventory'), act('go to toilet 1'), act('put soapbottle 1 in/on toilet 1')], hooks);
    expect(model.calls[1]!.messages.at(-1)).toEqual({ role: 'user', content: 'Take it.' });
    expect(record.steps[1]).toMatchObject({ input: 'inventory', observation: 'You pick up the soapbottle 1 from the countertop 1.' });
    expect(record.outcome).toBe('success');
  });

  it('gives hooks the ctx of protocol §4.3, with action_not_admissible true at on_init', async () => {
    const seen: Record<string, Record<string, unknown>> = {};
    const spy = (name: string) => (ctx: Record<string, unknown>) => {
      seen[name] ??= ctx;
      return null;
    };
    const hooks: NativeHook[] = [
      { hook: 'on_init', fn: spy('on_init') },
      { hook: 'make_pre_hint', fn: spy('make_pre_hint') },
      { hook: 'on_before_action', fn: spy('on_before_action') },
      { hook: 'on_post_step', fn: spy('on_post_step') },
    ];
    await play(WALKTHROUGH.map(act), hooks);
    const keys = ['action', 'state', 'task', 'predicates', 'observation', 'admissible', 'output', 'step', 'max_step', 'remaining_steps', 'history', 'world'].sort();
    for (const name of ['on_init', 'make_pre_hint', 'on_before_action', 'on_post_step']) expect(Object.keys(seen[name]!).sort()).toEqual(keys);
    const init = seen.on_init!;
    expect(init).toMatchObject({ step: 0, max_step: 50, remaining_steps: 50, output: '' });
    expect((init.predicates as Record<string, unknown>).action_not_admissible).toBe(true);
    expect(init.task).toEqual({ task_type: 'pick_and_place', target_type: 'soapbottle', destination_type: 'toilet' });
    expect(Object.keys(init.action as object).sort()).toEqual(['final_action', 'in_admissible', 'normalized', 'raw']);
    expect(Object.keys(init.state as object).sort()).toEqual(['invalid_action_count', 'nothing_happens_count', 'remaining_steps', 'repeated_action_count', 'repeated_observation_count']);
    expect(Object.keys(init.predicates as object).sort()).toEqual(['action_not_admissible', 'nothing_happens_repeated', 'remaining_steps_low', 'same_action_repeated', 'same_observation_repeated']);
    expect(Object.keys(init.world as object).sort()).toEqual(
      ['current_location', 'inventory', 'lamp_location', 'object_at', 'placed_count', 'placed_items', 'placed_locations', 'target_found', 'target_location', 'unvisited', 'visited'].sort(),
    );
    const before = seen.on_before_action!;
    expect(before).toMatchObject({ output: 'go to countertop 1', remaining_steps: 50, action: { raw: 'go to countertop 1', final_action: 'go to countertop 1', in_admissible: true } });
    expect((before.predicates as Record<string, unknown>).action_not_admissible).toBe(false);
    const post = seen.on_post_step!;
    expect(post).toMatchObject({ remaining_steps: 49, step: 0, observation: 'On the countertop 1, you see a soapbottle 1, and a spraybottle 2.' });
    expect(post.world).toMatchObject({ current_location: 'countertop 1', target_found: true, target_location: 'countertop 1' });
  });

  it('appends on_init skills to the system prompt and the tool hint to take_action', async () => {
    const hooks: NativeHook[] = [{ hook: 'on_init', fn: () => ({ skills: ['Check receptacles.'], tool_hint: 'Copy actions exactly.' }) }];
    const { model } = await play(WALKTHROUGH.map(act), hooks);
    expect(model.calls[0]!.messages[0]!.content).toMatch(/\n\nSome tips that may help for this task:\n- Check receptacles\.$/);
    expect(model.calls[0]!.tools?.[0]?.description).toBe('Take an action. Copy actions exactly.');
  });

  it('ends at the step limit', async () => {
    const small = alfworldEnvironment({ dataDir, split: 'dev', maxSteps: 2 });
    const { record } = await runEpisode({ model: createScriptedModel([act('look'), act('inventory')]), episode: await small.openEpisode(0), hooks: await NO_HOOKS.openEpisode() });
    expect(record.outcome).toBe('round_limit');
  });
});
