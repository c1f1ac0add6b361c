import { describe, expect, it } from 'vitest';

import type { ChatMessage } from '../episode/index.js';
import { fromWireMessages, fromWireToolCalls, readReasoning, toWireMessage } from './wire-format.js';

describe('wire format', () => {
  it('round-trips a conversation through the wire format', () => {
    const conversation: ChatMessage[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'question' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'execute_sql', arguments: '{"query":"SELECT 1"}' }] },
      { role: 'tool', toolCallId: 'c1', content: '1' },
      { role: 'assistant', content: 'answer' },
    ];
    const wire = conversation.map(toWireMessage);
    expect(wire[2]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'execute_sql', arguments: '{"query":"SELECT 1"}' } }],
    });
    expect(wire[3]).toEqual({ role: 'tool', tool_call_id: 'c1', content: '1' });
    expect(fromWireMessages(JSON.parse(JSON.stringify(wire)))).toEqual(conversation);
  });

  it('reads content parts, developer messages and assistant reasoning leniently', () => {
    expect(
      fromWireMessages([
        { role: 'developer', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
        { role: 'assistant', content: 'x', reasoning_content: 'why' },
      ]),
    ).toEqual([
      { role: 'system', content: 'ab' },
      { role: 'assistant', content: 'x', reasoning: 'why' },
    ]);
    expect(() => fromWireMessages([{ role: 'robot', content: '' }])).toThrow(/messages\[0\]\.role/);
  });

  it('reads tool calls from lenient servers', () => {
    expect(
      fromWireToolCalls([
        { type: 'function', function: { name: 'f', arguments: { a: 1 } } },
        { type: 'custom', custom: { name: 'g', input: '' } },
        { id: 'c2', function: { name: 'h' } },
      ]),
    ).toEqual([
      { id: 'call_0', name: 'f', arguments: '{"a":1}' },
      { id: 'c2', name: 'h', arguments: '' },
    ]);
    expect(fromWireToolCalls(undefined)).toEqual([]);
  });

  it('ignores empty reasoning strings', () => {
    expect(readReasoning({ reasoning: '', reasoning_content: 'r' }, 'auto')).toBe('r');
    expect(readReasoning({ reasoning: 'r' }, 'none')).toBeUndefined();
  });
});
