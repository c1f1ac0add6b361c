import { describe, expect, it } from 'vitest';

import type { HookName } from '../episode/index.js';
import { parseDisabledHooks, withDisabledHooks } from './disabled-hooks.js';
import { createNativeHookProvider } from './native-hooks.js';

describe('parseDisabledHooks', () => {
  it('returns the named positions once each, in call order', () => {
    expect(parseDisabledHooks('on_post_step, on_init,on_init')).toEqual(['on_init', 'on_post_step']);
    expect(parseDisabledHooks(['make_pre_hint'])).toEqual(['make_pre_hint']);
  });

  it('refuses an unknown name, listing the allowed values', () => {
    expect(() => parseDisabledHooks('on_init,pre_action')).toThrow(
      expect.objectContaining({ code: 'config_error', field: 'disableHooks', message: 'Unknown lifecycle position(s) for --disable-hooks: pre_action. Allowed: on_init, make_pre_hint, on_before_action, on_post_step.' }),
    );
    expect(() => parseDisabledHooks(' , ')).toThrow(/needs at least one lifecycle position/);
  });
});

describe('withDisabledHooks', () => {
  const calls: string[] = [];
  const hook = (name: HookName) => ({ hook: name, fn: (_ctx: Record<string, unknown>, nb: Record<string, unknown>) => {
    calls.push(name);
    nb[name] = true;
    return { seen: Object.keys(nb) };
  } });
  const provider = createNativeHookProvider([hook('on_init'), hook('make_pre_hint'), hook('on_before_action'), hook('on_post_step')], 'four');

  it('never calls a hook at a disabled position; the others run as before and share the notebook', async () => {
    calls.length = 0;
    const episode = await withDisabledHooks(provider, ['on_init', 'on_post_step']).openEpisode();
    expect([episode.count('on_init'), episode.count('make_pre_hint'), episode.count('on_before_action'), episode.count('on_post_step')]).toEqual([0, 1, 1, 0]);
    expect(await episode.call('on_init', {})).toEqual([]);
    expect(await episode.call('on_post_step', {})).toEqual([]);
    expect(await episode.call('make_pre_hint', {})).toEqual([{ hookIndex: 0, raw: { seen: ['make_pre_hint'] } }]);
    expect(await episode.call('on_before_action', {})).toEqual([{ hookIndex: 0, raw: { seen: ['make_pre_hint', 'on_before_action'] } }]);
    expect(calls).toEqual(['make_pre_hint', 'on_before_action']);
    await episode.close();
  });

  it('names the disabled positions in its label and is the provider itself when nothing is disabled', () => {
    expect(withDisabledHooks(provider, ['on_init']).label).toBe('four (disabled: on_init)');
    expect(withDisabledHooks(provider, [])).toBe(provider);
  });
});
