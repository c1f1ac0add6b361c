import { describe, expect, it } from 'vitest';

import { extractPatchJson } from '../../patch/index.js';
import { answerParts, assistantTurn } from './assistant-turn.js';
import { symbolicAnswerText } from './symbolic-answer.js';

const patch = '{"benchmark": "dbbench", "description": "d", "actions": []}';

describe('assistant turn of an SFT row', () => {
  it('continues the template\'s <think>\\n for the prefill protocol and never opens a second one', () => {
    const parts = answerParts(`- failures recur\n</think>\n<patch>${patch}</patch>`, 'prefill_think_patch');
    expect(parts).toEqual({ complete: true, think: '- failures recur', patch });
    const turn = assistantTurn(parts as { think: string; patch: string }, 'prefill_think_patch');
    expect(turn).toBe(`- failures recur\n</think>\n<patch>\n${patch}\n</patch>`);
    expect(turn.startsWith('<think')).toBe(false);
    expect(extractPatchJson(turn, 'prefill_think_patch').ok).toBe(true);
  });

  it('rewrites a full_think_patch answer (a hosted teacher) as the prefill turn, text after </patch> dropped', () => {
    const parts = answerParts(`<think>\nwhy\n</think>\n<patch>{"a": 1}</patch>\n<patch>${patch}</patch> trailing words`, 'full_think_patch');
    expect(parts).toEqual({ complete: true, think: 'why', patch });
    expect(assistantTurn(parts as { think: string; patch: string }, 'prefill_think_patch')).toBe(`why\n</think>\n<patch>\n${patch}\n</patch>`);
    expect(assistantTurn(parts as { think: string; patch: string }, 'full_think_patch')).toBe(`<think>\nwhy\n</think>\n<patch>\n${patch}\n</patch>`);
  });

  it.each([
    ['no patch block', 'the guard helps\n</think>\nI would add a guard.', 'missing_patch_block'],
    ['no closing think', `<patch>${patch}</patch>`, 'missing_think_block'],
    ['a second <think>', `<think>\nx\n</think>\n<patch>${patch}</patch>`, 'prefill_starts_with_think'],
    ['a blank think', `   \n</think>\n<patch>${patch}</patch>`, 'empty_think'],
    ['an empty patch block', 'why\n</think>\n<patch>  </patch>', 'empty_patch_block'],
  ])('%s makes a prefill answer incomplete', (_name, text, rule) => {
    const parts = answerParts(text, 'prefill_think_patch');
    expect(parts.complete).toBe(false);
    expect(parts.complete ? '' : parts.rule).toBe(rule);
  });

  it('leaves broken JSON to validation (complete, but not a patch)', () => {
    const parts = answerParts('why\n</think>\n<patch>{"benchmark": "dbbench", "actions": [</patch>', 'prefill_think_patch');
    expect(parts.complete).toBe(true);
  });

  it('renders the symbolic teacher as a complete answer whose think holds no JSON', () => {
    const notes = ['signature repeated_sql: 3 of 4 failed episodes (0 passed) -> kept', 'verdict: patch_from_signatures'];
    const text = symbolicAnswerText(notes, { benchmark: 'dbbench', description: 'Guard {x}.', actions: [{ type: 'add_code_hook', hook: 'on_before_action' }] }, 'prefill_think_patch');
    const parts = answerParts(text, 'prefill_think_patch');
    expect(parts.complete).toBe(true);
    const think = parts.complete ? parts.think : '';
    expect(think).toContain('repeated_sql (3 of 4 failed episodes)');
    expect(think).toContain('on_before_action');
    expect(think).not.toMatch(/[{}]/);
  });
});
