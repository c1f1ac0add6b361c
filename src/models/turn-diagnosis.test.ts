import { describe, expect, it } from 'vitest';

import { isXmlToolCallText, looksLikeToolCallText, toolCallTextFixes } from './turn-diagnosis.js';

describe('looksLikeToolCallText', () => {
  it('recognizes the markup of the common chat templates and the JSON call shape', () => {
    for (const text of [
      '<tool_call>\n{"name": "execute_sql", "arguments": {"query": "SELECT 1"}}\n</tool_call>',
      '<tool_call>\n<function=take_action>\n<parameter=action>\ngo to desk 1\n</parameter>\n</function>\n</tool_call>',
      '<|python_tag|>{"name": "search_action", "parameters": {"keywords": "red shoes"}}',
      '[TOOL_CALLS] [{"name": "click_action", "arguments": {"value": "buy now"}}]',
      'Sure. {"name": "commit_final_answer", "arguments": {"answers": ["3"]}}',
    ]) {
      expect(looksLikeToolCallText(text), text).toBe(true);
    }
  });

  it('leaves ordinary answers alone', () => {
    for (const text of ['The answer is 3.', 'I will now call the tool to look up the table.', 'Action: search[red shoes]', '{"answer": 3}']) {
      expect(looksLikeToolCallText(text), text).toBe(false);
    }
  });

  it('stays linear on multi-megabyte hostile text', () => {
    // Many "name" keys each followed by a long run of whitespace: a backtracking pattern would be quadratic.
    const text = `${'"name"'.repeat(50_000)}${' '.repeat(2_000_000)}:${'"name":'.repeat(100_000)}${' '.repeat(2_000_000)}`;
    expect(looksLikeToolCallText(text)).toBe(false);
  });

  it('tells the XML body apart and leads its fixes with the XML parser', () => {
    expect(isXmlToolCallText('<function=f><parameter=x>1</parameter></function>')).toBe(true);
    expect(toolCallTextFixes(true)[0]).toContain('qwen3_coder');
    expect(toolCallTextFixes(false)[0]).toContain('--enable-auto-tool-choice --tool-call-parser');
  });
});
