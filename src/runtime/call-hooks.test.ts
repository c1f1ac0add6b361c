import { describe, expect, it } from 'vitest';

import type { HookTraceEntry } from '../episode/index.js';
import type { BeforeActionEffect, InitEffect, PostStepEffect } from '../hooks/hook-effects.js';
import { createNativeHookProvider } from '../hooks/native-hooks.js';
import { callHooks, foldGuards, foldInit, foldPostStep, settle, type FiredEffect } from './call-hooks.js';

function fired<H extends 'on_before_action' | 'on_post_step'>(hook: H, effects: (H extends 'on_before_action' ? BeforeActionEffect : PostStepEffect)[]): FiredEffect<H>[] {
  return effects.map((effect, hookIndex) => {
    const trace: HookTraceEntry = { round: 1, hook, hookIndex, effect: effect.kind, disposition: 'applied' };
    return { effect, trace } as FiredEffect<H>;
  });
}

describe('folding hook effects of an action loop', () => {
  it('guards: rewrites before a block apply, the first block wins, later effects are traced as ignored', () => {
    const effects = fired('on_before_action', [
      { kind: 'rewrite_action', action: 'A', message: 'rewritten' },
      { kind: 'block_and_prompt', message: 'stop' },
      { kind: 'force_action', action: 'B', message: 'late' },
      { kind: 'block_and_prompt', message: 'second' },
    ]);
    const decision = foldGuards(effects, 'orig', (a) => `<${a}>`);
    expect(decision).toEqual({ block: 'stop', action: '<A>', notes: ['rewritten'], dispositions: ['applied', 'applied', 'ignored', 'ignored'] });
    // The fold is pure: the trace changes only when the caller settles it.
    expect(effects.map((e) => e.trace.disposition)).toEqual(['applied', 'applied', 'applied', 'applied']);
    settle(effects, decision.dispositions);
    expect(effects.map((e) => e.trace.disposition)).toEqual(['applied', 'applied', 'ignored', 'ignored']);
  });

  it('guards of a benchmark that honours no rewrite (DBBench): the first block wins, rewrites and forces are ignored', () => {
    const effects = fired('on_before_action', [
      { kind: 'rewrite_action', action: 'A', message: 'rewritten' },
      { kind: 'block_and_prompt', message: 'stop' },
      { kind: 'block_and_prompt', message: 'second' },
    ]);
    expect(foldGuards(effects, 'orig')).toEqual({ block: 'stop', action: 'orig', notes: [], dispositions: ['ignored', 'applied', 'ignored'] });
  });

  it('guards: without effects the agent action stands; the last rewrite wins', () => {
    expect(foldGuards([], 'orig', (a) => a)).toEqual({ action: 'orig', notes: [], dispositions: [] });
    const effects = fired('on_before_action', [{ kind: 'rewrite_action', action: 'A' }, { kind: 'force_action', action: 'B', message: 'm' }]);
    expect(foldGuards(effects, 'orig', (a) => a.toLowerCase())).toEqual({ action: 'b', notes: ['m'], dispositions: ['applied', 'applied'] });
  });

  it('post-step: hints and force messages in order, the last force for the next step', () => {
    const effects = fired('on_post_step', [
      { kind: 'inject_hint', message: 'h1' },
      { kind: 'force_action', action: 'X' },
      { kind: 'force_action', action: 'Y', message: 'forced' },
    ]);
    expect(foldPostStep(effects, (a) => `click[${a}]`)).toEqual({ forced: 'click[Y]', messages: ['h1', 'forced'], dispositions: ['applied', 'applied', 'applied'] });
    expect(foldPostStep([], (a) => a)).toEqual({ messages: [], dispositions: [] });
    // A benchmark that honours no force (DBBench) keeps the hints and ignores forces, their messages too.
    expect(foldPostStep(effects)).toEqual({ messages: ['h1'], dispositions: ['applied', 'ignored', 'ignored'] });
  });

  it('init: every skill and every tool hint, in patch order', () => {
    const effects: InitEffect[] = [{ kind: 'init', skills: ['a', 'b'], toolHint: 'use x' }, { kind: 'init', skills: [], toolHint: '' }, { kind: 'init', skills: ['c'], toolHint: 'use y' }];
    const firedInit = effects.map((effect, hookIndex) => ({ effect, trace: { round: 0, hook: 'on_init' as const, hookIndex, effect: 'init', disposition: 'applied' as const } }));
    expect(foldInit(firedInit)).toEqual({ skills: ['a', 'b', 'c'], toolHints: ['use x', 'use y'] });
    expect(foldInit([])).toEqual({ skills: [], toolHints: [] });
  });
});

describe('callHooks', () => {
  it('traces a hook returning None as no effect, between effective ones, and fires only the effects', async () => {
    const provider = createNativeHookProvider([
      { hook: 'on_post_step', fn: () => null },
      { hook: 'on_post_step', fn: () => ({ kind: 'inject_hint', message: 'look again' }) },
      { hook: 'on_post_step', fn: () => undefined },
      { hook: 'on_before_action', fn: () => ({ kind: 'force_action', action: 'look' }) },
    ]);
    const hooks = await provider.openEpisode();
    const trace: HookTraceEntry[] = [];
    const fired = await callHooks('on_post_step', {}, { round: 3 }, hooks, trace);
    expect(fired.map((f) => f.effect)).toEqual([{ kind: 'inject_hint', message: 'look again' }]);
    expect(trace).toEqual([
      { round: 3, hook: 'on_post_step', hookIndex: 0, effect: 'none', disposition: 'none' },
      { round: 3, hook: 'on_post_step', hookIndex: 1, effect: 'inject_hint', disposition: 'applied', detail: 'look again' },
      { round: 3, hook: 'on_post_step', hookIndex: 2, effect: 'none', disposition: 'none' },
    ]);
    const guards = await callHooks('on_before_action', {}, { round: 3, tool: 'act' }, hooks, trace);
    expect(guards.map((f) => f.effect)).toEqual([{ kind: 'force_action', action: 'look' }]);
    expect(trace[3]).toEqual({ round: 3, hook: 'on_before_action', hookIndex: 0, effect: 'force_action', disposition: 'applied', detail: 'look', tool: 'act' });
    await hooks.close();
  });
});
