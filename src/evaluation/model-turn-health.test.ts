import { describe, expect, it } from 'vitest';

import type { ChatMessage, EpisodeRecord } from '../episode/index.js';
import { MODEL_TURN_WARN_SHARE, hasModelTurnFindings, summarizeModelTurns } from './model-turn-health.js';

function record(messages: ChatMessage[], extra: Partial<EpisodeRecord> = {}): EpisodeRecord {
  return {
    schemaVersion: 2,
    task: { bench: 'dbbench', split: 'dev', index: 0 },
    attempt: 1,
    outcome: 'round_limit',
    reward: 0,
    rounds: messages.filter((m) => m.role === 'assistant').length,
    detail: {},
    steps: [],
    hookTrace: [],
    messages,
    usage: { promptTokens: 0, completionTokens: 0, modelCalls: 0 },
    ...extra,
  };
}

const SYSTEM: ChatMessage = { role: 'system', content: 'You are a DB agent.' };
const USER: ChatMessage = { role: 'user', content: 'Question: how many?' };
const call = (args: string, id = 'c1'): ChatMessage => ({ role: 'assistant', content: null, toolCalls: [{ id, name: 'execute_sql', arguments: args }] });
const TEXT_CALL: ChatMessage = { role: 'assistant', content: '<tool_call>\n{"name": "execute_sql", "arguments": {"query": "SELECT 1"}}\n</tool_call>' };
const NUDGE: ChatMessage = { role: 'user', content: 'No executable tool calls found. Please call a tool.' };

describe('summarizeModelTurns', () => {
  it('counts nothing and warns about nothing for healthy tool-calling turns', () => {
    const health = summarizeModelTurns([record([SYSTEM, USER, call('{"query":"SELECT 1"}'), { role: 'tool', toolCallId: 'c1', content: '[(1,)]' }, { role: 'assistant', content: 'The answer is 1.' }])]);
    expect(health).toMatchObject({ episodes: 1, turns: 2, toolProtocolTurns: 2, textToolCalls: 0, emptyTurns: 0, badToolArguments: 0, warnings: [] });
    expect(hasModelTurnFindings(health)).toBe(false);
  });

  it('warns when tool calls come back as text, naming the tool-call parser', () => {
    const messages = [SYSTEM, USER, ...Array.from({ length: 20 }, () => [TEXT_CALL, NUDGE]).flat()];
    const health = summarizeModelTurns([record(messages), record(messages)]);
    expect(health).toMatchObject({ turns: 40, textToolCalls: 40 });
    expect(health.warnings).toHaveLength(1);
    expect(health.warnings[0]).toMatchObject({ kind: 'tool_calls_as_text', count: 40, of: 40 });
    expect(health.warnings[0]!.message).toContain('40 of 40 (100.0%) model turns came back with the tool call written as text');
    expect(health.warnings[0]!.fixes.join('\n')).toContain('--enable-auto-tool-choice --tool-call-parser');
  });

  it('stays quiet below the warning share', () => {
    const healthy = Array.from({ length: 19 }, () => call('{"query":"SELECT 1"}'));
    const health = summarizeModelTurns([record([SYSTEM, USER, TEXT_CALL, ...healthy, ...healthy])]);
    expect(health.textToolCalls).toBe(1);
    expect(1 / health.toolProtocolTurns).toBeLessThan(MODEL_TURN_WARN_SHARE);
    expect(health.warnings).toEqual([]);
    expect(hasModelTurnFindings(health)).toBe(true);
  });

  it('counts empty turns, with the ones that only reasoned, and points at thinking', () => {
    const health = summarizeModelTurns([record([SYSTEM, USER, { role: 'assistant', content: '', reasoning: 'Let me think about the table…' }, NUDGE, { role: 'assistant', content: null }, NUDGE, call('{"query":"SELECT 1"}')])]);
    expect(health).toMatchObject({ turns: 3, emptyTurns: 2, reasoningOnlyTurns: 1 });
    expect(health.warnings.map((w) => w.kind)).toEqual(['empty_turns']);
    expect(health.warnings[0]!.message).toContain('(1 with reasoning only)');
    expect(health.warnings[0]!.fixes[0]).toContain('enable_thinking=false');
  });

  it('counts unparseable tool arguments, but not calls a cap cut', () => {
    const cut = call('{"query":"SELECT \'aaaa…[cut by harness-r1: 70000 characters, over max_tool_args_chars=65536; not executed]');
    const health = summarizeModelTurns([
      record([SYSTEM, USER, call('{"query": "SELECT 1"'), call('["SELECT 1"]'), cut, call('{"query":"SELECT 1"}')], {
        detail: { modelLimits: [{ round: 3, limit: 'max_tool_args_chars', cap: 65_536, actual: 70_000, call: 0 }] },
      }),
    ]);
    expect(health.badToolArguments).toBe(2);
    expect(health.limits.max_tool_args_chars).toBe(1);
    expect(health.warnings.map((w) => w.kind)).toEqual(['bad_tool_arguments', 'response_limits']);
    expect(health.warnings[1]!.message).toContain('max_tool_args_chars ×1');
  });

  it('skips the fixed preamble of text protocols and does not read their content as tool calls', () => {
    const preamble: ChatMessage[] = [{ role: 'user', content: 'Instructions…' }, { role: 'assistant', content: '' }, { role: 'user', content: 'Example task' }, { role: 'assistant', content: 'THOUGHT: …\nACTION: go to desk 1' }];
    const health = summarizeModelTurns([record([...preamble, { role: 'user', content: 'Your task…' }, { role: 'assistant', content: '<tool_call>{"name": "x", "arguments": {}}</tool_call>' }], { preamble: preamble.length })]);
    expect(health).toMatchObject({ turns: 1, toolProtocolTurns: 0, textToolCalls: 0, emptyTurns: 0 });
  });

  it('counts a body cap recorded on a model_error episode', () => {
    const health = summarizeModelTurns([record([SYSTEM, USER], { outcome: 'model_error', detail: { error: 'larger than max_body_bytes', modelLimits: [{ round: 1, limit: 'max_body_bytes', cap: 16, actual: 17 }] } })]);
    expect(health.limits).toMatchObject({ max_body_bytes: 1, max_tool_calls: 0 });
    expect(health.warnings.map((w) => w.kind)).toEqual(['response_limits']);
  });
});
