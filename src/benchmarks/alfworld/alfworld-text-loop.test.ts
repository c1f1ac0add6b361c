import { readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import { createAlfworldEnvironment } from '../../environments/alfworld/alfworld-environment.js';
import { alfworldEnvironment } from './environment.js';
import { createNativeHookProvider, NO_HOOKS, type NativeHook } from '../../hooks/native-hooks.js';
import { createScriptedModel, type ScriptedTurn } from '../../models/scripted-model.js';
import { runEpisode } from '../../runtime/run-episode.js';
import { extractAlfworldAction } from './alfworld-text-loop.js';

const dataDir = resolveDataDir();
const env = alfworldEnvironment({ dataDir, split: 'dev', protocol: 'v0.2' });
const reference = JSON.parse(readFileSync(path.join(dataDir, 'agentbench_prompts.json'), 'utf8')) as Record<string, Record<string, string>>;
const oneShot = JSON.parse(readFileSync(path.join(dataDir, 'alfworld/prompts/alfworld_multiturn_plan_first.v0.2.json'), 'utf8')) as Record<string, string[]>;

// dev #0: "put a soapbottle in toilet." (2.1.1 wording).
const WALKTHROUGH = ['go to countertop 1', 'take soapbottle 1 from countertop 1', 'go to toilet 1', 'put soapbottle 1 in/on toilet 1'];
const say = (action: string, thought?: string): ScriptedTurn => ({ content: thought ? `THOUGHT: ${thought}\n ACTION: ${action}\n` : `ACTION: ${action}` });

async function play(turns: ScriptedTurn[], hooks: readonly NativeHook[] = [], index = 0, environment = env) {
  const model = createScriptedModel(turns);
  const provider = hooks.length > 0 ? createNativeHookProvider(hooks) : NO_HOOKS;
  const { record } = await runEpisode({ model, episode: await environment.openEpisode(index), hooks: await provider.openEpisode() });
  return { record, model };
}

describe('the ALFWorld v0.2 text loop', () => {
  it('assembles the conversation as AgentBench v0.2 does and sends no tools', async () => {
    const { record, model } = await play(WALKTHROUGH.map((a) => say(a)));
    expect(record.outcome).toBe('success');
    expect(record.reward).toBe(1);
    expect(record.rounds).toBe(4);
    const first = model.calls[0]!;
    expect(first.tools).toEqual([]);
    const shot = oneShot.put!;
    expect(first.messages.map((m) => m.role)).toEqual(['user', 'assistant', ...shot.map((_, i) => (i % 2 === 0 ? 'user' : 'assistant')), 'user']);
    expect(first.messages[0]!.content).toBe(reference['alfworld_v0.2']!.user_prompt_1);
    expect(first.messages[1]!.content).toBe("OK. I'll follow your instructions and try my best to solve the task.");
    expect(first.messages[2]!.content).toBe(`Here is one example.\n${shot[0]}`);
    expect(first.messages.slice(3, 2 + shot.length).map((m) => m.content)).toEqual(shot.slice(1));
    const task = first.messages.at(-1)!.content!;
    expect(task).toMatch(/^Here is your task\. You are in the middle of a room\. .*\nYour task is to: put a soapbottle in toilet\. AVAILABLE ACTIONS: go to cabinet 1\n.*\nlook\n$/s);
    expect(record.preamble).toBe(2 + shot.length);
    expect(record.messages.some((m) => m.role === 'system' || m.role === 'tool')).toBe(false);
  });

  it('picks the one-shot example of the family', async () => {
    const expected: [number, string][] = [
      [4, 'clean'],
      [8, 'heat'],
      [11, 'cool'],
      [14, 'examine'],
      [17, 'puttwo'],
    ];
    for (const [index, key] of expected) {
      const { model } = await play([say('look'), { content: 'no action' }], [], index);
      expect(model.calls[0]!.messages[2]!.content, `dev #${index}`).toBe(`Here is one example.\n${oneShot[key]![0]}`);
    }
  });

  it('trims the answered observation at "AVAILABLE ACTIONS" and keeps the newest list', async () => {
    const { model } = await play(WALKTHROUGH.map((a) => say(a)));
    const second = model.calls[1]!.messages;
    const task = second.findIndex((m) => m.role === 'user' && m.content.startsWith('Here is your task.'));
    expect(second[task]!.content).toMatch(/Your task is to: put a soapbottle in toilet\. $/);
    expect(second.at(-1)).toEqual({ role: 'user', content: expect.stringMatching(/^On the countertop 1, you see a soapbottle 1, and a spraybottle 2\. AVAILABLE ACTIONS: examine countertop 1\n.*\n$/s) });
    const third = model.calls[2]!.messages;
    expect(third.at(-3)).toEqual({ role: 'user', content: 'On the countertop 1, you see a soapbottle 1, and a spraybottle 2. ' });
    // The one-shot example's own "AVAILABLE ACTIONS"-free turns are untouched.
    expect(third.slice(0, task)).toEqual(second.slice(0, task));
  });

  it('reads the action after "ACTION:" on its line, then maps loose text to the nearest admissible command', async () => {
    const { record } = await play([
      say('Go to the countertop 1', 'First I look for the soapbottle.'),
      { content: 'I see it.\nACTION:   take the soapbottle 1 from the countertop 1  \nmore text' },
      say('go to toilet'),
      say('put the soapbottle in the toilet 1'),
    ]);
    expect(record.outcome).toBe('success');
    expect(record.steps.map((s) => s.observation.slice(0, 30))).toEqual(['On the countertop 1, you see a', 'You pick up the soapbottle 1 f', 'On the toilet 1, you see a soa', 'You put the soapbottle 1 in/on']);
    expect(record.steps[0]).toMatchObject({ tool: 'text', input: 'THOUGHT: First I look for the soapbottle.\n ACTION: Go to the countertop 1\n', status: 'executed' });
  });

  it('extracts the action like re.search("ACTION:(.*)")', () => {
    expect(extractAlfworldAction('THOUGHT: x\nACTION: go to desk 1\nACTION: look')).toBe(' go to desk 1');
    expect(extractAlfworldAction('action: look')).toBeUndefined();
    expect(extractAlfworldAction('ACTION: look\r\n')).toBe(' look\r');
  });

  it('ends as invalid_action when the reply has no ACTION: or an empty one', async () => {
    const missing = await play([say('go to countertop 1'), { content: 'THOUGHT: I will go to the toilet.' }, say('look')]);
    expect(missing.record.outcome).toBe('invalid_action');
    expect(missing.record.detail.reason).toMatch(/no "ACTION:"/);
    expect(missing.record.rounds).toBe(2);
    expect(missing.record.steps.at(-1)).toMatchObject({ status: 'invalid', input: 'THOUGHT: I will go to the toilet.' });
    const empty = await play([{ content: 'ACTION:\ngo to countertop 1' }]);
    expect(empty.record.outcome).toBe('invalid_action');
    expect(empty.record.detail.reason).toMatch(/empty action/);
    // The answered task message keeps its list: the reference trims only after a valid action.
    expect(empty.record.messages.at(-2)!.content).toMatch(/AVAILABLE ACTIONS: /);
  });

  it('ends after three identical raw replies once more than three steps are logged; only raw text counts', async () => {
    const { record } = await play([say('go to countertop 1'), say('fly away'), say('fly away'), say('fly away'), say('look')]);
    expect(record.outcome).toBe('invalid_action');
    expect(record.rounds).toBe(4);
    expect(record.steps.at(-1)!.observation).toBe('Nothing happens.');
    // Different raw texts that map to the same command do not trigger it.
    const mapped = await play([say('look'), say('LOOK'), say('look '), say('look around'), ...WALKTHROUGH.map((a) => say(a))]);
    expect(mapped.record.outcome).toBe('success');
  });

  it('stops at 35 steps by default (maxSteps overrides it)', async () => {
    const ep = await createAlfworldEnvironment({ dataDir, split: 'dev', protocol: 'v0.2' }).openEpisode(0);
    expect(ep.maxRounds).toBe(35);
    expect(ep.tools).toEqual([]);
    const turns = Array.from({ length: 40 }, (_, i) => say(i % 2 === 0 ? 'look' : 'inventory'));
    const { record } = await play(turns);
    expect(record.outcome).toBe('round_limit');
    expect(record.rounds).toBe(35);
    const small = alfworldEnvironment({ dataDir, split: 'dev', protocol: 'v0.2', maxSteps: 2 });
    expect((await play(turns, [], 0, small)).record.rounds).toBe(2);
  });

  it('on_init: skills become tips and the tool hint an action hint in the first message', async () => {
    const hooks: NativeHook[] = [{ hook: 'on_init', fn: () => ({ skills: ['Check receptacles.'], tool_hint: 'Copy actions exactly.' }) }];
    const { model, record } = await play(WALKTHROUGH.map((a) => say(a)), hooks);
    expect(model.calls[0]!.messages[0]!.content).toBe(`${reference['alfworld_v0.2']!.user_prompt_1}Some tips that may help for this task:\n- Check receptacles.\n\nAction hint: Copy actions exactly.\n\n`);
    expect(model.calls[0]!.tools).toEqual([]);
    expect(record.hookTrace[0]).toMatchObject({ round: 0, hook: 'on_init', effect: 'init', disposition: 'applied' });
  });

  it('make_pre_hint messages come before the model call; a block is a user message and the list survives', async () => {
    const hooks: NativeHook[] = [
      { hook: 'make_pre_hint', fn: (ctx) => (ctx.step === 0 ? { message: 'Search countertops first.' } : null) },
      { hook: 'on_before_action', fn: (ctx) => ((ctx.action as { final_action: string }).final_action === 'look' ? { kind: 'block_and_prompt', message: 'Do not look; act.' } : null) },
    ];
    const { record, model } = await play([say('look'), say('look'), say('look'), ...WALKTHROUGH.map((a) => say(a))], hooks);
    expect(model.calls[0]!.messages.at(-1)).toEqual({ role: 'user', content: 'Search countertops first.' });
    const afterBlock = model.calls[1]!.messages;
    expect(afterBlock.slice(-2)).toEqual([
      { role: 'assistant', content: 'ACTION: look' },
      { role: 'user', content: 'Do not look; act.' },
    ]);
    // The task message still lists the actions: nothing was stepped.
    expect(afterBlock.at(-4)!.content).toMatch(/AVAILABLE ACTIONS: go to cabinet 1\n/);
    expect(record.steps.slice(0, 3).map((s) => s.status)).toEqual(['blocked', 'blocked', 'blocked']);
    // Blocked replies do not count for the repeat rule.
    expect(record.outcome).toBe('success');
    expect(record.rounds).toBe(7);
    expect(record.hookTrace.filter((t) => t.hook === 'on_before_action' && t.effect === 'block_and_prompt')).toHaveLength(3);
    expect(record.hookTrace.find((t) => t.hook === 'on_before_action')).toMatchObject({ tool: 'text', round: 1 });
  });

  it('a rewrite replaces the action (lower-cased) and its message follows the observation', async () => {
    const hooks: NativeHook[] = [{ hook: 'on_before_action', fn: (ctx) => (ctx.output === 'look' ? { kind: 'rewrite_action', action: 'GO TO Countertop 1', message: 'Rewritten.' } : null) }];
    const { record, model } = await play([say('look'), ...WALKTHROUGH.slice(1).map((a) => say(a))], hooks);
    expect(record.outcome).toBe('success');
    const next = model.calls[1]!.messages;
    expect(next.at(-2)!.content).toMatch(/^On the countertop 1, you see a soapbottle 1, and a spraybottle 2\. AVAILABLE ACTIONS: /);
    expect(next.at(-1)).toEqual({ role: 'user', content: 'Rewritten.' });
    // The next step trims the observation, not the hook's message.
    const after = model.calls[2]!.messages;
    expect(after.at(-4)).toEqual({ role: 'user', content: 'On the countertop 1, you see a soapbottle 1, and a spraybottle 2. ' });
    expect(after.at(-3)).toEqual({ role: 'user', content: 'Rewritten.' });
  });

  it('on_post_step: a hint is a user message, a force is used on the next step', async () => {
    const hooks: NativeHook[] = [
      {
        hook: 'on_post_step',
        fn: (ctx) => ((ctx.action as { final_action: string }).final_action === 'go to countertop 1' ? { kind: 'force_action', action: 'take soapbottle 1 from countertop 1', message: 'Take it.' } : { kind: 'inject_hint', message: 'Keep going.' }),
      },
    ];
    const { record, model } = await play([say('go to countertop 1'), say('inventory'), say('go to toilet 1'), say('put soapbottle 1 in/on toilet 1')], hooks);
    expect(model.calls[1]!.messages.at(-1)).toEqual({ role: 'user', content: 'Take it.' });
    expect(model.calls[2]!.messages.at(-1)).toEqual({ role: 'user', content: 'Keep going.' });
    expect(record.steps[1]).toMatchObject({ input: 'ACTION: inventory', observation: 'You pick up the soapbottle 1 from the countertop 1.' });
    expect(record.outcome).toBe('success');
  });

  it('gives hooks the ALFWorld ctx with the ACTION text as output', async () => {
    const seen: Record<string, Record<string, unknown>> = {};
    const spy = (name: string) => (ctx: Record<string, unknown>) => {
      seen[name] ??= ctx;
      return null;
    };
    const hooks: NativeHook[] = (['on_init', 'make_pre_hint', 'on_before_action', 'on_post_step'] as const).map((hook) => ({ hook, fn: spy(hook) }));
    await play([say('Go to the countertop 1', 'Start.'), ...WALKTHROUGH.slice(1).map((a) => say(a))], hooks);
    expect(seen.on_init).toMatchObject({ step: 0, max_step: 35, remaining_steps: 35, output: '' });
    expect(seen.on_before_action).toMatchObject({ output: 'Go to the countertop 1', remaining_steps: 35, action: { raw: 'Go to the countertop 1', final_action: 'go to countertop 1', in_admissible: true } });
    expect(seen.on_post_step).toMatchObject({ remaining_steps: 34, step: 0, observation: 'On the countertop 1, you see a soapbottle 1, and a spraybottle 2.' });
  });
});
