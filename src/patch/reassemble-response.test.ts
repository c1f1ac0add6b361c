import { describe, expect, it } from 'vitest';

import { reassembleEngineerText } from './reassemble-response.js';

describe('reassembleEngineerText', () => {
  const split = { reasoning_content: '\n plan \n', content: '\n<patch>{}</patch>' };

  it('rebuilds a prefill completion as reasoning + </think> + content', () => {
    expect(reassembleEngineerText(split, { protocol: 'prefill_think_patch' })).toBe('plan\n</think>\n<patch>{}</patch>');
  });

  it('wraps reasoning in a think block for the other protocols, unless content already has one', () => {
    expect(reassembleEngineerText(split, { protocol: 'full_think_patch' })).toBe('<think>\nplan\n</think>\n\n<patch>{}</patch>');
    expect(reassembleEngineerText({ reasoning: 'r', content: '<THINK>x</think>' }, { protocol: 'json_patch' })).toBe('<THINK>x</think>');
    expect(reassembleEngineerText({ reasoning_content: 'only reasoning', content: '  ' }, { protocol: 'json_patch' })).toBe('only reasoning');
    expect(reassembleEngineerText({ content: null }, { protocol: 'json_patch' })).toBe('');
  });

  it('has no prefill branch in the DBBench evaluator, so prefill responses gain a leading <think>', () => {
    expect(reassembleEngineerText(split, { protocol: 'prefill_think_patch', variant: 'dbbench' })).toBe(
      '<think>\nplan\n</think>\n\n<patch>{}</patch>',
    );
  });
});
