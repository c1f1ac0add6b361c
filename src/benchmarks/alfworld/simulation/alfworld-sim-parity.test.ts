import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../../config/data-dir.js';
import { alfworldEnvironment } from '../environment.js';
import type { EpisodeRecord } from '../../../episode/index.js';
import { createNativeHookProvider, NO_HOOKS, type NativeHook } from '../../../hooks/native-hooks.js';
import { toWireMessage } from '../../../models/wire-format.js';
import { runEpisode } from '../../../runtime/run-episode.js';
import { extractAlfworldAction } from '../alfworld-text-loop.js';
import { createAlfworldSimModel } from './in-process-sim-model.js';
import { createAlfworldSimHandler, type AlfworldSimHandlerOptions } from './wire-handler.js';

// The same target must react to the same hooks in the same way whichever protocol carries the conversation.

const dataDir = resolveDataDir();
const fc = alfworldEnvironment({ dataDir, split: 'dev' });
const text = alfworldEnvironment({ dataDir, split: 'dev', protocol: 'v0.2' });
type Env = typeof fc;

// dev split order: 0-3 pick_and_place, 4-7 clean, 8-10 heat, 11-13 cool, 14-16 look_at_obj, 17-19 pick_two_obj.
const HEAT = 8;
/** A clean game whose walkthrough ends at the clean (the pan is already where it must go): no final put. */
const CLEAN_NO_PUT = 6;

/** The patch's wording: a block that itself names "AVAILABLE ACTIONS" (so it must not pass for an observation). */
const BLOCK_TEXT = 'That command is not in AVAILABLE ACTIONS right now, so it cannot be done here. Choose a command copied exactly from the list.';

async function play(environment: Env, index: number, options: Omit<AlfworldSimHandlerOptions, 'dataDir'>, hooks: readonly NativeHook[] = []) {
  const handler = createAlfworldSimHandler({ dataDir, ...options });
  const provider = hooks.length > 0 ? createNativeHookProvider(hooks) : NO_HOOKS;
  const { record } = await runEpisode({ model: createAlfworldSimModel(handler), episode: await environment.openEpisode(index), hooks: await provider.openEpisode() });
  return { record, handler };
}

/** What the target sent at each step, as a command (v0.2 replies are read after "ACTION:"). */
function sent(record: EpisodeRecord): string[] {
  return record.steps.map((s) => {
    const input = String(s.input);
    return (extractAlfworldAction(input) ?? input).trim();
  });
}

/** Blocks the first `times` puts (the target's skipped-transform put). */
function blockPuts(times: number): NativeHook {
  return {
    hook: 'on_before_action',
    fn: (ctx, nb) => {
      const action = (ctx.action as { final_action: string }).final_action;
      const count = typeof nb.blocked === 'number' ? nb.blocked : 0;
      if (!action.startsWith('put ') || count >= times) return null;
      nb.blocked = count + 1;
      return { kind: 'block_and_prompt', message: BLOCK_TEXT };
    },
  };
}

describe('the simulated ALFWorld target reacts to hooks the same way in FC and v0.2', () => {
  it('a block that mentions AVAILABLE ACTIONS is a block in v0.2 too: the same next action in both protocols', async () => {
    const options = { faults: 'none,skip_transform:1', comply: 1 };
    const f = await play(fc, HEAT, options, [blockPuts(1)]);
    const t = await play(text, HEAT, options, [blockPuts(1)]);
    const blockedAt = f.record.steps.findIndex((s) => s.status === 'blocked');
    expect(blockedAt).toBeGreaterThan(0);
    expect(t.record.steps[blockedAt]?.status).toBe('blocked');

    // The two conversations up to and including the block, each in its own protocol, ask the policy for the next action.
    const cut = (record: EpisodeRecord) => record.messages.slice(0, record.messages.findIndex((m) => m.role === 'user' && m.content === BLOCK_TEXT) + 1).map(toWireMessage);
    const fcTurn = f.handler.policy.decideTurn({ messages: cut(f.record), tools: [{ type: 'function', function: { name: 'take_action', parameters: {} } }] });
    const textTurn = t.handler.policy.decideTurn({ messages: cut(t.record) });
    expect(fcTurn.kind === 'action' && textTurn.kind === 'action').toBe(true);
    if (fcTurn.kind !== 'action' || textTurn.kind !== 'action') return;
    expect(textTurn.action).toBe(fcTurn.action);
    // The block was obeyed: the target goes back for the skipped transform instead of repeating the put.
    expect(fcTurn.action).not.toBe(sent(f.record)[blockedAt]);
    expect(fcTurn.action).toMatch(/^go to microwave/);

    // And the whole episodes agree, step by step.
    expect(t.record.steps.map((s) => s.status)).toEqual(f.record.steps.map((s) => s.status));
    expect(t.record.steps.map((s) => s.observation)).toEqual(f.record.steps.map((s) => s.observation));
    expect(t.record.outcome).toBe('success');
    expect(f.record.outcome).toBe('success');
  });

  it('a repeated action is a byte-identical v0.2 reply even when the admissible list changed, so the repeat rule ends both alike', async () => {
    // Seed 1, dev #4: the target thinks it is done after a put and repeats it; the mapping alternates put and take.
    const f = await play(fc, 4, { seed: 1 });
    const t = await play(text, 4, { seed: 1 });
    expect(f.record.outcome).toBe('invalid_action');
    expect(t.record.outcome).toBe(f.record.outcome);
    expect(t.record.rounds).toBe(f.record.rounds);
    const last = t.record.steps.slice(-3).map((s) => s.input);
    expect(new Set(last).size).toBe(1);
  });

  it('recoveries are well-formed commands: no "take  from " when the plan has no final put', async () => {
    // The target skips the clean, believes it is done and repeats its take; blocking the repeat makes it go back.
    const blockRepeat: NativeHook = {
      hook: 'on_before_action',
      fn: (ctx, nb) => {
        const action = (ctx.action as { raw: string }).raw;
        const repeated = action === nb.last;
        nb.last = action;
        return repeated && !nb.done ? ((nb.done = true), { kind: 'block_and_prompt', message: 'You already did that.' }) : null;
      },
    };
    for (const environment of [fc, text]) {
      const { record } = await play(environment, CLEAN_NO_PUT, { faults: 'none,skip_transform:1', comply: 1 }, [blockRepeat]);
      expect(record.steps.some((s) => s.status === 'blocked')).toBe(true);
      for (const action of sent(record)) expect(action).toMatch(/^(go to|take|clean|open|close) \w+( \w+)* \d+( (from|with) \w+( \w+)* \d+)?$/);
      expect(record.outcome).toBe('success');
    }
  });
});
