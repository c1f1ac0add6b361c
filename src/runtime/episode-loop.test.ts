import { describe, expect, it } from 'vitest';

import type { EpisodeBase } from '../environments/environment.js';
import { createNativeHookProvider } from '../hooks/native-hooks.js';
import { createScriptedModel } from '../models/scripted-model.js';
import { InfraError, LoopContext } from './episode-loop.js';

const episode: EpisodeBase = { task: { bench: 'test', split: 'dev', index: 0 }, tools: [], info: {}, close: async () => undefined };

async function loopWith(hooks: Parameters<typeof createNativeHookProvider>[0]): Promise<LoopContext> {
  return new LoopContext(createScriptedModel([]), episode, await createNativeHookProvider(hooks).openEpisode());
}

describe('LoopContext.hook: the ctx is built only for installed hooks', () => {
  it('builds no ctx and records nothing when no hook of the name is installed', async () => {
    const loop = await loopWith([{ hook: 'on_post_step', fn: () => ({ type: 'inject_hint', message: 'x' }) }]);
    let built = 0;
    const fired = await loop.hook('make_pre_hint', () => (built++, { step: 1 }), { round: 1 });
    expect(fired).toEqual([]);
    expect(built).toBe(0);
    expect(loop.state.hookTrace).toEqual([]);
  });

  it('builds the ctx once, when the hook is called, and hands it to every hook of the name', async () => {
    const seen: unknown[] = [];
    const loop = await loopWith([
      { hook: 'make_pre_hint', fn: (ctx) => (seen.push(ctx), { type: 'inject_hint', message: `step ${String(ctx.step)}` }) },
      { hook: 'make_pre_hint', fn: (ctx) => (seen.push(ctx), null) },
    ]);
    let built = 0;
    let step = 1;
    const pending = loop.hook('make_pre_hint', () => (built++, { step }), { round: 2 });
    // Built at the call, not later: a change after the call does not reach the hooks.
    step = 99;
    const fired = await pending;
    expect(built).toBe(1);
    expect(seen).toEqual([{ step: 1 }, { step: 1 }]);
    expect(fired.map((f) => f.effect)).toEqual([{ kind: 'hint', message: 'step 1' }]);
    expect(loop.state.hookTrace.map((t) => [t.round, t.hookIndex, t.effect])).toEqual([[2, 0, 'hint'], [2, 1, 'none']]);
  });

  it('a ctx that cannot be built is a bug of the benchmark, not a hook fault', async () => {
    const loop = await loopWith([{ hook: 'on_init', fn: () => null }]);
    const broken = (): Record<string, unknown> => {
      throw new TypeError('ctx builder broke');
    };
    expect(() => loop.hook('on_init', broken, { round: 0 })).toThrow(TypeError);
    expect(() => loop.hook('on_init', broken, { round: 0 })).not.toThrow(InfraError);
  });
});
