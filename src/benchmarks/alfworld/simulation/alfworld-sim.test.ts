import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../../config/data-dir.js';
import { createAlfworldEnvironment } from '../../../environments/alfworld/alfworld-environment.js';
import { alfworldEnvironment } from '../environment.js';
import { ConfigError } from '../../../episode/index.js';
import { createNativeHookProvider, NO_HOOKS, type NativeHook } from '../../../hooks/native-hooks.js';
import { runEpisode } from '../../../runtime/run-episode.js';
import { parseAlfworldFaultSpec } from './alfworld-sim-settings.js';
import { createAlfworldSimModel } from './in-process-sim-model.js';
import { createAlfworldSimHandler, toAlfworldSimHttpReply, type AlfworldSimHandler, type AlfworldSimHandlerOptions } from './wire-handler.js';

const dataDir = resolveDataDir();
const env = alfworldEnvironment({ dataDir, split: 'dev' });

// dev split order: 0-3 pick_and_place, 4-7 clean, 8-10 heat, 11-13 cool, 14-16 look_at_obj, 17-19 pick_two_obj.
const HEAT = 8;
const PICK_TWO = 17;
const PLACE = 0;

function tagging(handler: AlfworldSimHandler): { handler: AlfworldSimHandler; tags: string[] } {
  const tags: string[] = [];
  const wrapped = Object.assign(
    (body: unknown) => {
      const completion = handler(body);
      tags.push(completion.simulation.tag ?? 'none');
      return completion;
    },
    { settings: handler.settings, policy: handler.policy },
  );
  return { handler: wrapped, tags };
}

async function play(index: number, options: Omit<AlfworldSimHandlerOptions, 'dataDir'>, hooks: readonly NativeHook[] = []) {
  const { handler, tags } = tagging(createAlfworldSimHandler({ dataDir, ...options }));
  const provider = hooks.length > 0 ? createNativeHookProvider(hooks) : NO_HOOKS;
  const { record } = await runEpisode({ model: createAlfworldSimModel(handler), episode: await env.openEpisode(index), hooks: await provider.openEpisode() });
  return { record, tags };
}

const preHint = (message: string): NativeHook => ({ hook: 'make_pre_hint', fn: (_ctx, nb) => (nb.done ? null : ((nb.done = true), { message })) });

describe('the simulated ALFWorld target', () => {
  it('wins every dev game without faults (it knows the walkthrough)', async () => {
    for (const index of [PLACE, 4, HEAT, 11, 14, PICK_TWO]) {
      const { record } = await play(index, { faults: 'none' });
      expect(record.outcome, `dev #${index}`).toBe('success');
    }
  });

  it('plays the 2.1.2 wording too (move X to Y)', async () => {
    const env212 = alfworldEnvironment({ dataDir, split: 'dev', wording: '2.1.2' });
    const model = createAlfworldSimModel(createAlfworldSimHandler({ dataDir, faults: 'none' }));
    for (const index of [PLACE, HEAT, PICK_TWO]) {
      const { record } = await runEpisode({ model, episode: await env212.openEpisode(index), hooks: await NO_HOOKS.openEpisode() });
      expect(record.outcome, `dev #${index}`).toBe('success');
      expect(record.messages.some((m) => m.role === 'assistant' && m.toolCalls?.[0]?.arguments.includes('"move '))).toBe(true);
    }
  });

  it('is deterministic: same request, same completion; same seed, same record', async () => {
    const handler = createAlfworldSimHandler({ dataDir, seed: 3 });
    const episode = await createAlfworldEnvironment({ dataDir, split: 'dev' }).openEpisode(HEAT);
    const body = { model: 'm', messages: [{ role: 'system', content: 's' }, { role: 'user', content: episode.firstUserMessage() }] };
    expect(handler(body)).toEqual(createAlfworldSimHandler({ dataDir, seed: 3 })(structuredClone(body)));
    const a = await play(HEAT, { seed: 3 });
    const b = await play(HEAT, { seed: 3 });
    expect(a.record).toEqual(b.record);
  });

  it('skip_transform: places without heating and fails; a hint naming the fix corrects it', async () => {
    const failed = await play(HEAT, { faults: 'none,skip_transform:1' });
    expect(failed.record.reward).toBe(0);
    expect(failed.record.messages.some((m) => m.role === 'assistant' && m.toolCalls?.[0]?.arguments.includes('heat '))).toBe(false);
    const fixed = await play(HEAT, { faults: 'none,skip_transform:1', comply: 1 }, [preHint('Heat the object with the microwave before placing it.')]);
    expect(fixed.record.outcome).toBe('success');
    const ignored = await play(HEAT, { faults: 'none,skip_transform:1', comply: 0 }, [preHint('Heat the object with the microwave before placing it.')]);
    expect(ignored.record.reward).toBe(0);
  });

  it('skip_transform: blocking the unheated placement sends it back to heat', async () => {
    const block: NativeHook = {
      hook: 'on_before_action',
      fn: (ctx, nb) => {
        const history = ctx.history as { last_actions: string[] };
        const action = (ctx.action as { final_action: string }).final_action;
        if (action.startsWith('put ') && !history.last_actions.some((a) => a.startsWith('heat ')) && !nb.blocked) {
          nb.blocked = true;
          return { kind: 'block_and_prompt', message: 'You have not heated it yet.' };
        }
        return null;
      },
    };
    const { record, tags } = await play(HEAT, { faults: 'none,skip_transform:1', comply: 1 }, [block]);
    expect(record.outcome).toBe('success');
    expect(record.steps.some((s) => s.status === 'blocked')).toBe(true);
    expect(tags).toContain('plan');
  });

  it('wrong_destination: places in another receptacle; a block corrects it', async () => {
    const failed = await play(PLACE, { faults: 'none,wrong_destination:1' });
    expect(failed.record.reward).toBe(0);
    expect(failed.tags).toContain('wrong_destination');
    const block: NativeHook = {
      hook: 'on_before_action',
      fn: (ctx) => {
        const action = (ctx.action as { final_action: string }).final_action;
        const dest = (ctx.task as { destination_type: string }).destination_type;
        return /^go to /.test(action) && (ctx.world as { inventory: string[] }).inventory.length > 0 && !action.includes(dest)
          ? { kind: 'block_and_prompt', message: `Wrong receptacle: the destination is the ${dest}.` }
          : null;
      },
    };
    const fixed = await play(PLACE, { faults: 'none,wrong_destination:1', comply: 1 }, [block]);
    expect(fixed.record.outcome).toBe('success');
  });

  it('transform_loop: loops between placing and transforming until the step limit; a hint breaks the loop', async () => {
    const failed = await play(HEAT, { faults: 'none,transform_loop:1' });
    expect(failed.record.outcome).toBe('round_limit');
    expect(failed.tags.filter((t) => t === 'transform_loop').length).toBeGreaterThan(10);
    const hint: NativeHook = { hook: 'on_post_step', fn: (ctx) => ((ctx.state as { repeated_action_count: number }).repeated_action_count >= 1 && (ctx.history as { last_actions: string[] }).last_actions.filter((a) => a.startsWith('heat ')).length >= 2 ? { kind: 'inject_hint', message: 'You are looping: it is already heated, take it to the destination.' } : null) };
    const fixed = await play(HEAT, { faults: 'none,transform_loop:1', comply: 1 }, [hint]);
    expect(fixed.record.outcome).toBe('success');
  });

  it('forget_second: stops after the first object and repeats itself; a hint about the second object fixes it', async () => {
    const failed = await play(PICK_TWO, { faults: 'none,forget_second:1' });
    expect(failed.record.outcome).toBe('invalid_action');
    expect(failed.tags).toContain('done_repeat');
    const fixed = await play(PICK_TWO, { faults: 'none,forget_second:1', comply: 1 }, [preHint('This task needs two objects: find the second one too.')]);
    expect(fixed.record.outcome).toBe('success');
  });

  it('repeat_failed: repeats an invalid action until the 3-identical rule ends it; a hint fixes it', async () => {
    const failed = await play(PLACE, { faults: 'none,repeat_failed:1' });
    expect(failed.record.outcome).toBe('invalid_action');
    expect(failed.record.steps.at(-1)!.observation).toBe('Nothing happens.');
    const hint: NativeHook = { hook: 'on_post_step', fn: (ctx) => (String(ctx.observation).startsWith('Nothing happens') ? { kind: 'inject_hint', message: 'Nothing happens means the action was invalid: use one of the available actions exactly.' } : null) };
    const fixed = await play(PLACE, { faults: 'none,repeat_failed:1', comply: 1 }, [hint]);
    expect(fixed.record.outcome).toBe('success');
  });

  it('answers an unknown task with a 400 problem', () => {
    const handler = createAlfworldSimHandler({ dataDir });
    const completion = handler({ messages: [{ role: 'user', content: 'Here is your task. Nothing you know.' }] });
    expect(completion.simulation.problem?.code).toBe('unknown_task');
    expect(toAlfworldSimHttpReply(completion).status).toBe(400);
  });

  it('rejects bad fault specs and settings', () => {
    expect(parseAlfworldFaultSpec('none,forget_second:0.5').forget_second).toBe(0.5);
    expect(() => parseAlfworldFaultSpec('teleport:1')).toThrow(ConfigError);
    expect(() => createAlfworldSimHandler({ dataDir, comply: 2 })).toThrow(ConfigError);
    expect(() => createAlfworldSimHandler({ dataDir, seed: 1.5 })).toThrow(ConfigError);
  });

  it('has a dev-split baseline near 40 % with the real runtime (simulated target)', async () => {
    const handler = createAlfworldSimHandler({ dataDir });
    const model = createAlfworldSimModel(handler);
    const byFamily: Record<string, [number, number]> = {};
    let wins = 0;
    for (let i = 0; i < env.size; i++) {
      const { record } = await runEpisode({ model, episode: await env.openEpisode(i), hooks: await NO_HOOKS.openEpisode() });
      const family = String(record.detail.family);
      const tally = (byFamily[family] ??= [0, 0]);
      tally[1]++;
      if (record.reward === 1) {
        wins++;
        tally[0]++;
      }
    }
    const rate = wins / env.size;
    console.log(`sim:alfworld (simulated target) dev baseline, seed 0: ${wins}/${env.size} = ${(rate * 100).toFixed(1)} %`, JSON.stringify(byFamily));
    expect(rate).toBeGreaterThanOrEqual(0.3);
    expect(rate).toBeLessThanOrEqual(0.5);
  });
});
