import { describe, expect, it } from 'vitest';

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
