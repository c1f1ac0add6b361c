import { afterEach, describe, expect, it } from 'vitest';

import { ConfigError } from '../episode/index.js';
import { scripted, startFakeOpenAIServer } from './fake-openai-server.js';
import type { FakeOpenAIServer, FakeResponse } from './fake-openai-server.js';
import { createOpenAICompatibleModel } from './openai-compatible-model.js';
import { applyResponseLimits, CUT_TOOL_CALL_HEAD_CHARS, cutText, DEFAULT_RESPONSE_LIMITS, resolveResponseLimits } from './response-limits.js';

let server: FakeOpenAIServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function modelOn(responses: FakeResponse[], limits: Parameters<typeof resolveResponseLimits>[0] = {}) {
  server = await startFakeOpenAIServer({ handler: scripted(responses) });
  return createOpenAICompatibleModel({ baseURL: server.url, model: 'fake-model', env: {}, limits, retry: { maxAttempts: 1 } });
}

const USER = [{ role: 'user' as const, content: 'go' }];
const MiB = 1024 * 1024;

describe('applyResponseLimits', () => {
  const limits = resolveResponseLimits({ maxContentChars: 10, maxReasoningChars: 5, maxToolArgsChars: 20, maxToolCalls: 2 });

  it('leaves a turn within the caps untouched (same object, no hits)', () => {
    const message = { content: 'short', toolCalls: [{ id: 'a', name: 'f', arguments: '{"x":1}' }], reasoning: 'hmm' };
    const result = applyResponseLimits(message, limits);
    expect(result.message).toBe(message);
    expect(result.hits).toEqual([]);
  });

  it('cuts content and reasoning, drops calls past the count, and cuts oversized calls, in a fixed order', () => {
    const big = `{"query":"${'s'.repeat(100)}"}`;
    const result = applyResponseLimits(
      {
        content: 'c'.repeat(25),
        reasoning: 'r'.repeat(8),
        toolCalls: [
          { id: 'a', name: 'execute_sql', arguments: '{"query":"SELECT 1"}' },
          { id: 'b', name: 'execute_sql', arguments: big },
          { id: 'c', name: 'execute_sql', arguments: '{}' },
        ],
      },
      limits,
    );
    expect(result.hits).toEqual([
      { limit: 'max_content_chars', cap: 10, actual: 25 },
      { limit: 'max_reasoning_chars', cap: 5, actual: 8 },
      { limit: 'max_tool_calls', cap: 2, actual: 3 },
      { limit: 'max_tool_args_chars', cap: 20, actual: big.length, call: 1 },
    ]);
    expect(result.message.content).toBe('c'.repeat(10));
    expect(result.message.reasoning).toBe('r'.repeat(5));
    expect(result.message.toolCalls.map((c) => c.id)).toEqual(['a', 'b']);
    expect(result.message.toolCalls[1]!.arguments).toBe(`${big.slice(0, CUT_TOOL_CALL_HEAD_CHARS)}…[cut by harness-r1: ${big.length} characters, over max_tool_args_chars=20; not executed]`);
  });

  it('keeps cut arguments unparseable even when their head is a whole JSON object', () => {
    const padded = `{"query":"DROP TABLE t"}${' '.repeat(10_000)}`;
    const { message } = applyResponseLimits({ content: null, toolCalls: [{ id: 'a', name: 'execute_sql', arguments: padded }] }, resolveResponseLimits({ maxToolArgsChars: 100 }));
    expect(() => JSON.parse(padded)).not.toThrow();
    expect(() => JSON.parse(message.toolCalls[0]!.arguments)).toThrow();
  });

  it('treats an oversized name or id like oversized arguments', () => {
    const { message, hits } = applyResponseLimits({ content: null, toolCalls: [{ id: 'i'.repeat(50), name: 'n'.repeat(30), arguments: '{}' }] }, limits);
    expect(hits).toEqual([{ limit: 'max_tool_args_chars', cap: 20, actual: 50, call: 0 }]);
    expect(message.toolCalls[0]!.arguments).toMatch(/^\{\}…\[cut by harness-r1/);
  });

  it('never splits a surrogate pair when cutting', () => {
    expect(cutText('ab😀cd', 3)).toBe('ab');
    expect(cutText('ab😀cd', 4)).toBe('ab😀');
  });

  it('rejects caps that are not positive integers', () => {
    expect(() => resolveResponseLimits({ maxToolCalls: 0 })).toThrow(ConfigError);
    expect(() => resolveResponseLimits({ maxBodyBytes: 1.5 })).toThrow(/max_body_bytes must be a positive integer/);
    expect(resolveResponseLimits()).toEqual(DEFAULT_RESPONSE_LIMITS);
  });
});

describe('per-turn caps on a real server', () => {
  it('keeps the first 16 of 20 000 tool calls in one turn and reports the cap', async () => {
    const calls = Array.from({ length: 20_000 }, (_, i) => ({ name: 'execute_sql', arguments: { query: `SELECT ${i}` } }));
    const model = await modelOn([{ kind: 'tool_calls', calls }]);
    const response = await model.complete({ messages: USER });
    expect(response.message.toolCalls).toHaveLength(DEFAULT_RESPONSE_LIMITS.maxToolCalls);
    expect(response.message.toolCalls.at(-1)!.arguments).toBe('{"query":"SELECT 15"}');
    expect(response.limits).toEqual([{ limit: 'max_tool_calls', cap: 16, actual: 20_000 }]);
  });

  it('cuts 20 MB of tool arguments to a short head once the body cap lets them through', async () => {
    const args = { query: `SELECT '${'a'.repeat(20 * MiB)}'` };
    const model = await modelOn([{ kind: 'tool_calls', calls: [{ name: 'execute_sql', arguments: args }] }], { maxBodyBytes: 64 * MiB });
    const response = await model.complete({ messages: USER });
    const call = response.message.toolCalls[0]!;
    expect(call.arguments.length).toBeLessThan(400);
    expect(response.limits).toEqual([{ limit: 'max_tool_args_chars', cap: 65_536, actual: JSON.stringify(args).length, call: 0 }]);
  });

  it('with the default caps, 20 MB of tool arguments never get past the body cap', async () => {
    const model = await modelOn([{ kind: 'tool_calls', calls: [{ name: 'execute_sql', arguments: { query: `SELECT '${'a'.repeat(20 * MiB)}'` } }] }]);
    await expect(model.complete({ messages: USER })).rejects.toMatchObject({ failure: 'response_too_large', limit: { limit: 'max_body_bytes' } });
  });

  it('cuts a long content and reasoning and goes on', async () => {
    const model = await modelOn([{ kind: 'text', content: 'A'.repeat(300_000), reasoning: 'R'.repeat(270_000) }]);
    const response = await model.complete({ messages: USER });
    expect(response.message.content).toHaveLength(262_144);
    expect(response.message.reasoning).toHaveLength(262_144);
    expect(response.limits).toEqual([
      { limit: 'max_content_chars', cap: 262_144, actual: 300_000 },
      { limit: 'max_reasoning_chars', cap: 262_144, actual: 270_000 },
    ]);
  });
});
