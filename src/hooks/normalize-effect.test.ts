import { describe, expect, it } from 'vitest';

import type { HookName } from '../episode/index.js';
import { cleanHookAction, cleanHookText, normalizeHookResult } from './normalize-effect.js';

describe('normalizeHookResult follows the original per-hook contract', () => {
  it('on_init keeps the first five non-empty skills and a tool hint', () => {
    const raw = { skills: ['  a  b ', { text: 'c' }, '', { nope: 1 }, 'd', 'e', 'f', 'g'], tool_hint: ' use\n backticks ' };
    expect(normalizeHookResult('on_init', raw, {})).toEqual({ kind: 'init', skills: ['a b', 'c', 'd'], toolHint: 'use backticks' });
    expect(normalizeHookResult('on_init', { skills: [] }, {})).toBeUndefined();
    expect(normalizeHookResult('on_init', { skills: 'not a list', tool_hint: 'x' }, {})).toEqual({ kind: 'init', skills: [], toolHint: 'x' });
  });

  it('make_pre_hint needs a string message; kind is ignored', () => {
    expect(normalizeHookResult('make_pre_hint', { message: 'hi', kind: 'block_and_prompt' }, {})).toEqual({ kind: 'hint', message: 'hi' });
    expect(normalizeHookResult('make_pre_hint', { message: 5 }, {})).toBeUndefined();
    expect(normalizeHookResult('make_pre_hint', 'text', {})).toBeUndefined();
    expect(normalizeHookResult('make_pre_hint', ['message'], {})).toBeUndefined();
  });

  it('on_before_action accepts only its three kinds and needs a message or a usable action', () => {
    expect(normalizeHookResult('on_before_action', { kind: ' block_and_prompt ', message: 'stop' }, {})).toEqual({ kind: 'block_and_prompt', message: 'stop' });
    expect(normalizeHookResult('on_before_action', { kind: 'block_and_prompt', message: '   ' }, {})).toBeUndefined();
    expect(normalizeHookResult('on_before_action', { kind: 'inject_hint', message: 'x' }, {})).toBeUndefined();
    expect(normalizeHookResult('on_before_action', { kind: 'rewrite_action', action: 'SELECT  1' }, {})).toEqual({ kind: 'rewrite_action', action: 'select 1' });
    expect(normalizeHookResult('on_before_action', { kind: 'force_action', action: '' }, {})).toBeUndefined();
  });

  it('on_post_step downgrades an unusable forced action to a hint when there is a message', () => {
    expect(normalizeHookResult('on_post_step', { kind: 'force_action', action: 'go to sinkbasin 1', message: 'wash it' }, {})).toEqual({
      kind: 'inject_hint',
      message: 'wash it',
    });
    expect(normalizeHookResult('on_post_step', { kind: 'force_action', action: 'go to sinkbasin 1' }, {})).toBeUndefined();
    expect(normalizeHookResult('on_post_step', { kind: 'force_action', action: 'go to sinkbasin 1' }, { admissible: ['Go to  sinkbasin 1'] })).toEqual({
      kind: 'force_action',
      action: 'go to sinkbasin 1',
    });
    expect(normalizeHookResult('on_post_step', { kind: 'block_and_prompt', message: 'x' }, {})).toBeUndefined();
  });
});

describe('text rules', () => {
  it('collapses Python whitespace and cuts at 900 code points', () => {
    expect(cleanHookText('a\u2003b\x1cc\u00a0d')).toBe('a b c d');
    const long = '😀'.repeat(1000);
    expect(Array.from(cleanHookText(long)).length).toBe(900);
    expect(cleanHookText(null)).toBe('');
  });

  it('drops numbered-instance actions on every benchmark unless admissible', () => {
    expect(cleanHookAction('click[use 2 pack]', {})).toBe('');
    expect(cleanHookAction('search[gloves]', {})).toBe('search[gloves]');
  });
});

describe('normalizeHookResult edge cases', () => {
  it('a hook returning None (null), nothing or a non-dict gives no effect at every position', () => {
    for (const hook of ['on_init', 'make_pre_hint', 'on_before_action', 'on_post_step'] as const) {
      expect(normalizeHookResult(hook, null, {})).toBeUndefined();
      expect(normalizeHookResult(hook, undefined, {})).toBeUndefined();
      expect(normalizeHookResult(hook, 'force_action', {})).toBeUndefined();
    }
  });

  it('an unknown position gives no effect, whatever the result', () => {
    expect(normalizeHookResult('on_end' as HookName, { kind: 'inject_hint', message: 'x', skills: ['a'] }, {})).toBeUndefined();
  });

  it('on_init keeps skills without a tool hint', () => {
    expect(normalizeHookResult('on_init', { skills: ['plan first'] }, {})).toEqual({ kind: 'init', skills: ['plan first'], toolHint: '' });
  });

  it('a missing or non-string kind gives no effect, even with a message and an action', () => {
    const rest = { message: 'm', action: 'look' };
    for (const kind of [undefined, null, false, 0, 5, '', '   ', ['inject_hint'], { kind: 'force_action' }]) {
      expect(normalizeHookResult('on_before_action', { kind, ...rest }, {})).toBeUndefined();
      expect(normalizeHookResult('on_post_step', { kind, ...rest }, {})).toBeUndefined();
    }
    expect(normalizeHookResult('on_post_step', rest, {})).toBeUndefined();
  });

  it('on_before_action: an unknown kind with a usable action gives no effect', () => {
    expect(normalizeHookResult('on_before_action', { kind: 'inject_hint', action: 'look', message: 'm' }, {})).toBeUndefined();
    expect(normalizeHookResult('on_before_action', { kind: 'rewrite', action: 'look' }, {})).toBeUndefined();
  });

  it('on_before_action: force_action replaces the action, with its message when there is one', () => {
    expect(normalizeHookResult('on_before_action', { kind: ' force_action', action: ' Look  Around ' }, {})).toEqual({ kind: 'force_action', action: 'look around' });
    expect(normalizeHookResult('on_before_action', { kind: 'force_action', action: 'look', message: ' why\nnot ' }, {})).toEqual({
      kind: 'force_action',
      action: 'look',
      message: 'why not',
    });
    expect(normalizeHookResult('on_before_action', { kind: 'rewrite_action', action: 'look', message: 'm' }, {})).toEqual({ kind: 'rewrite_action', action: 'look', message: 'm' });
    expect(normalizeHookResult('on_before_action', { kind: 'force_action', action: 'go to desk 1', message: 'm' }, {})).toBeUndefined();
    expect(normalizeHookResult('on_before_action', { kind: 'force_action', action: 7, message: 'm' }, {})).toBeUndefined();
  });

  it('on_post_step: inject_hint gives its message, and nothing without one', () => {
    expect(normalizeHookResult('on_post_step', { kind: 'inject_hint ', message: ' look\tagain ' }, {})).toEqual({ kind: 'inject_hint', message: 'look again' });
    expect(normalizeHookResult('on_post_step', { kind: 'inject_hint', message: ' ' }, {})).toBeUndefined();
    expect(normalizeHookResult('on_post_step', { kind: 'inject_hint', action: 'look' }, {})).toBeUndefined();
  });

  it('on_post_step: force_action keeps its message beside a usable action', () => {
    expect(normalizeHookResult('on_post_step', { kind: 'force_action', action: 'Look', message: 'then look' }, {})).toEqual({ kind: 'force_action', action: 'look', message: 'then look' });
    expect(normalizeHookResult('on_post_step', { kind: 'force_action', action: null, message: 'then look' }, {})).toEqual({ kind: 'inject_hint', message: 'then look' });
  });
});

describe('cleanHookAction', () => {
  it('gives no action for a non-string or whitespace', () => {
    for (const value of [undefined, null, 5, true, ['look'], { action: 'look' }]) expect(cleanHookAction(value, {})).toBe('');
    expect(cleanHookAction(' \n\t ', {})).toBe('');
  });

  it('keeps a numbered-instance action only when it is in an admissible list', () => {
    expect(cleanHookAction('Take apple 1', { admissible: ['look', ' take  APPLE 1 '] })).toBe('take apple 1');
    expect(cleanHookAction('take apple 1', { admissible: ['take apple 2', 'take apple'] })).toBe('');
    expect(cleanHookAction('take apple 1', { admissible: 'take apple 1' })).toBe('');
    expect(cleanHookAction('take apple', { admissible: 'not a list' })).toBe('take apple');
  });

  it('cuts a long action at 900 code points', () => {
    expect(Array.from(cleanHookAction('é'.repeat(1000), {})).length).toBe(900);
  });
});
