import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../../config/data-dir.js';
import { createAlfworldGame } from '../../../environments/alfworld/alfworld-engine.js';
import { processAlfworldAction } from '../../../environments/alfworld/alfworld-environment.js';
import { alfworldEnvironment } from '../environment.js';
import { loadAlfworldGames, walkthroughFor } from '../../../environments/alfworld/load-games.js';
import { loadAlfworldLogic } from '../../../environments/alfworld/load-logic.js';
import { loadAlfworldSplit } from '../../../environments/alfworld/splits.js';
import { createNativeHookProvider, NO_HOOKS, type NativeHook } from '../../../hooks/native-hooks.js';
import { runEpisode } from '../../../runtime/run-episode.js';
import { vagueAction } from './alfworld-sim-policy.js';
import { createAlfworldSimModel } from './in-process-sim-model.js';
import { createAlfworldSimHandler, type AlfworldSimHandlerOptions } from './wire-handler.js';

const dataDir = resolveDataDir();
const text = alfworldEnvironment({ dataDir, split: 'dev', protocol: 'v0.2' });
const fc = alfworldEnvironment({ dataDir, split: 'dev' });

// dev split order: 0-3 pick_and_place, 4-7 clean, 8-10 heat, 11-13 cool, 14-16 look_at_obj, 17-19 pick_two_obj.
const HEAT = 8;
const PICK_TWO = 17;
const PLACE = 0;

const handlers = new Map<string, ReturnType<typeof createAlfworldSimHandler>>();

async function play(index: number, options: Omit<AlfworldSimHandlerOptions, 'dataDir'>, hooks: readonly NativeHook[] = [], environment = text) {
  const key = JSON.stringify(options);
  const handler = handlers.get(key) ?? createAlfworldSimHandler({ dataDir, ...options });
  handlers.set(key, handler);
  const model = createAlfworldSimModel(handler);
  const provider = hooks.length > 0 ? createNativeHookProvider(hooks) : NO_HOOKS;
  const { record } = await runEpisode({ model, episode: await environment.openEpisode(index), hooks: await provider.openEpisode() });
  return record;
}

const replies = (record: Awaited<ReturnType<typeof play>>) => record.messages.slice(record.preamble).filter((m) => m.role === 'assistant').map((m) => m.content ?? '');

describe('the simulated ALFWorld target in the v0.2 text protocol', () => {
  it('answers requests without tools in text, THOUGHT/ACTION form, and wins without faults', async () => {
    let loose = 0;
    for (const index of [PLACE, 4, HEAT, 11, 14, PICK_TWO]) {
      const record = await play(index, { faults: 'none' });
      expect(record.outcome, `dev #${index}`).toBe('success');
      for (const reply of replies(record)) expect(reply).toMatch(/^(THOUGHT: [^\n]+\n)?ACTION: [^\n]+$/);
      loose += replies(record).filter((r) => / the | in the | on /.test(r.split('ACTION: ')[1] ?? '')).length;
    }
    // Some actions are written loosely, and the BLEU mapping turns them back into the commands.
    expect(loose).toBeGreaterThan(0);
  });

  it('plays the same game as in FC mode: the same outcomes over the dev split at seed 0', async () => {
    for (let i = 0; i < text.size; i++) {
      const [t, f] = [await play(i, { seed: 0 }), await play(i, { seed: 0 }, [], fc)];
      expect(t.outcome, `dev #${i}`).toBe(f.outcome);
    }
  });

  it('is deterministic: the same seed gives the same record', async () => {
    expect(await play(HEAT, { seed: 5 })).toEqual(await play(HEAT, { seed: 5 }));
  });

  it('repeat_failed: a described action BLEU cannot map gets "Nothing happens." until the repeat rule ends it; a hint fixes it', async () => {
    const failed = await play(PLACE, { faults: 'none,repeat_failed:1' });
    expect(failed.outcome).toBe('invalid_action');
    expect(failed.steps.at(-1)!.observation).toBe('Nothing happens.');
    const hint: NativeHook = { hook: 'on_post_step', fn: (ctx) => (String(ctx.observation).startsWith('Nothing happens') ? { kind: 'inject_hint', message: 'Nothing happens means the action was invalid: use one of the available actions exactly.' } : null) };
    expect((await play(PLACE, { faults: 'none,repeat_failed:1', comply: 1 }, [hint])).outcome).toBe('success');
  });

  it('reads hints and blocks from user messages as in FC mode', async () => {
    const preHint: NativeHook = { hook: 'make_pre_hint', fn: (_ctx, nb) => (nb.done ? null : ((nb.done = true), { message: 'Heat the object with the microwave before placing it.' })) };
    expect((await play(HEAT, { faults: 'none,skip_transform:1' })).reward).toBe(0);
    expect((await play(HEAT, { faults: 'none,skip_transform:1', comply: 1 }, [preHint])).outcome).toBe('success');
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
    expect((await play(PLACE, { faults: 'none,wrong_destination:1' })).reward).toBe(0);
    const fixed = await play(PLACE, { faults: 'none,wrong_destination:1', comply: 1 }, [block]);
    expect(fixed.outcome).toBe('success');
    expect(fixed.steps.some((s) => s.status === 'blocked')).toBe(true);
    const second = await play(PICK_TWO, { faults: 'none,forget_second:1', comply: 1 }, [{ hook: 'on_post_step', fn: (_ctx, nb) => (nb.done ? null : ((nb.done = true), { kind: 'inject_hint', message: 'This task needs two objects.' })) }]);
    expect(second.outcome).toBe('success');
  });

  it('vague actions share no word with any command, so the mapping leaves them alone', () => {
    const games = loadAlfworldGames(dataDir);
    const logic = loadAlfworldLogic(dataDir);
    for (const item of loadAlfworldSplit(dataDir, 'dev', games).available) {
      const game = createAlfworldGame(item.game, { wording: '2.1.1', logic });
      let admissible = game.reset().admissible;
      for (const command of walkthroughFor(item.game, '2.1.1')) {
        const vague = vagueAction(command);
        expect(processAlfworldAction(vague, admissible), `${item.game.id}: ${command}`).toBe(vague);
        admissible = game.step(command).admissible;
      }
    }
  });
});
