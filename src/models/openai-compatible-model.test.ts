import http from 'node:http';
import net from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import type { ChatMessage, ToolSpec } from '../episode/index.js';
import { ConfigError } from '../episode/index.js';
import { ModelCallError } from './chat-model.js';
import { scripted, startFakeOpenAIServer } from './fake-openai-server.js';
import type { FakeOpenAIServer, FakeOpenAIServerOptions, FakeResponse } from './fake-openai-server.js';
import { createOpenAICompatibleModel } from './openai-compatible-model.js';
import { extractServerMessage } from './response-body.js';
import type { OpenAICompatibleModelOptions } from './openai-compatible-model.js';
import type { RetryEvent } from './retry.js';

let server: FakeOpenAIServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: FakeOpenAIServerOptions | FakeResponse[]): Promise<FakeOpenAIServer> {
  server = await startFakeOpenAIServer(Array.isArray(options) ? { handler: scripted(options) } : options);
  return server;
}

/** A model on the fake server whose retries record their waits instead of sleeping. */
function modelFor(
  url: string,
  options: Partial<OpenAICompatibleModelOptions> = {},
): { model: ReturnType<typeof createOpenAICompatibleModel>; sleeps: number[]; events: RetryEvent[] } {
  const sleeps: number[] = [];
  const events: RetryEvent[] = [];
  const model = createOpenAICompatibleModel({
    baseURL: url,
    model: 'fake-model',
    env: {},
    onRetry: (event) => events.push(event),
    ...options,
    retry: { baseDelayMs: 100, random: () => 0, sleep: async (ms) => void sleeps.push(ms), ...options.retry },
  });
  return { model, sleeps, events };
}

function chatBodies(s: FakeOpenAIServer): Record<string, unknown>[] {
  return s.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as Record<string, unknown>);
}

const USER: ChatMessage[] = [{ role: 'user', content: 'What is in the table?' }];

const SQL_TOOL: ToolSpec = {
  name: 'execute_sql',
  description: 'Executes a given SQL statement on the database and returns the result.',
  parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'], additionalProperties: false },
};

async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('createOpenAICompatibleModel: conversation round trip', () => {
  it('sends tools and history in wire format and returns structured tool calls', async () => {
    const s = await start([
      { kind: 'tool_calls', calls: [{ name: 'execute_sql', arguments: { query: 'SELECT * FROM `t`' }, id: 'call_a' }], usage: { promptTokens: 11, completionTokens: 7 } },
      { kind: 'text', content: 'done' },
    ]);
    const { model } = modelFor(s.url, { temperature: 0, maxTokens: 4096, toolChoice: 'auto', parallelToolCalls: false });

    const first = await model.complete({ messages: [{ role: 'system', content: 'You are a DB agent.' }, ...USER], tools: [SQL_TOOL] });
    expect(first.message).toEqual({ content: null, toolCalls: [{ id: 'call_a', name: 'execute_sql', arguments: '{"query":"SELECT * FROM `t`"}' }] });
    expect(first.finishReason).toBe('tool_calls');
    expect(first.usage).toEqual({ promptTokens: 11, completionTokens: 7 });
    expect(first.latencyMs).toBeGreaterThanOrEqual(0);

    const history: ChatMessage[] = [
      ...USER,
      { role: 'assistant', content: null, toolCalls: first.message.toolCalls, reasoning: 'not sent back' },
      { role: 'tool', toolCallId: 'call_a', content: '[(1,)]' },
    ];
    const second = await model.complete({ messages: history, tools: [SQL_TOOL], toolChoice: 'required', temperature: 0.7 });
    expect(second.message).toEqual({ content: 'done', toolCalls: [] });
    expect(second.finishReason).toBe('stop');

    const [body1, body2] = chatBodies(s);
    expect(body1).toMatchObject({
      model: 'fake-model',
      temperature: 0,
      max_tokens: 4096,
      tool_choice: 'auto',
      parallel_tool_calls: false,
      tools: [{ type: 'function', function: { name: 'execute_sql', description: SQL_TOOL.description, parameters: SQL_TOOL.parameters } }],
      messages: [
        { role: 'system', content: 'You are a DB agent.' },
        { role: 'user', content: 'What is in the table?' },
      ],
    });
    expect(body1).not.toHaveProperty('stream', true);
    // Request fields override the configured defaults; history is converted to snake_case.
    expect(body2).toMatchObject({ tool_choice: 'required', temperature: 0.7 });
    expect(body2?.messages).toEqual([
      { role: 'user', content: 'What is in the table?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'execute_sql', arguments: '{"query":"SELECT * FROM `t`"}' } }] },
      { role: 'tool', tool_call_id: 'call_a', content: '[(1,)]' },
    ]);
  });

  it('omits tool settings when no tools are offered', async () => {
    const s = await start([{ kind: 'text', content: 'hi' }]);
    const { model } = modelFor(s.url, { toolChoice: 'required', parallelToolCalls: false });
    await model.complete({ messages: USER });
    const [body] = chatBodies(s);
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('tool_choice');
    expect(body).not.toHaveProperty('parallel_tool_calls');
    expect(body).not.toHaveProperty('temperature');
  });

  it('passes chat_template_kwargs and extra body fields through to the server', async () => {
    const s = await start([{ kind: 'text', content: 'ok' }]);
    const { model } = modelFor(s.url, { chatTemplateKwargs: { enable_thinking: false }, extraBody: { top_p: 0.9, repetition_penalty: 1.05 } });
    await model.complete({ messages: USER });
    expect(chatBodies(s)[0]).toMatchObject({ chat_template_kwargs: { enable_thinking: false }, top_p: 0.9, repetition_penalty: 1.05 });
  });

  it('asks the server to continue a trailing assistant message when configured', async () => {
    const s = await start([{ kind: 'text', content: ' continued' }, { kind: 'text', content: 'fresh' }]);
    const { model } = modelFor(s.url, { continueFinalMessage: true });
    await model.complete({ messages: [...USER, { role: 'assistant', content: '<think>' }] });
    await model.complete({ messages: USER });
    const [prefilled, plain] = chatBodies(s);
    expect(prefilled).toMatchObject({ continue_final_message: true, add_generation_prompt: false });
    expect(plain).not.toHaveProperty('continue_final_message');
  });

  it('serializes object arguments and fills missing ids from servers that send them that way', async () => {
    const s = await start([
      {
        kind: 'raw',
        body: {
          choices: [
            {
              message: { role: 'assistant', content: '', tool_calls: [{ type: 'function', function: { name: 'execute_sql', arguments: { query: 'SELECT 1' } } }] },
              finish_reason: 'tool_calls',
            },
          ],
        },
      },
    ]);
    const { model } = modelFor(s.url);
    const response = await model.complete({ messages: USER, tools: [SQL_TOOL] });
    expect(response.message.toolCalls).toEqual([{ id: 'call_0', name: 'execute_sql', arguments: '{"query":"SELECT 1"}' }]);
    expect(response.usage).toEqual({ promptTokens: 0, completionTokens: 0 });
  });

  it('lists the models the server serves', async () => {
    const s = await start({ handler: scripted([]), models: ['qwen3-8b', 'llama'] });
    const { model } = modelFor(s.url);
    expect(await model.listModels()).toEqual(['qwen3-8b', 'llama']);
    expect(model.label).toBe(`openai:${s.url}#fake-model`);
    expect(model.simulated).toBe(false);
  });
});

describe('createOpenAICompatibleModel: warm-up', () => {
  it('runs the call path on a canned reply without sending anything, and the next call is an ordinary one', async () => {
    const s = await start([{ kind: 'text', content: 'the answer' }]);
    const { model } = modelFor(s.url, { temperature: 0.3, maxTokens: 64, extraBody: { top_p: 0.9 } });
    expect(await model.warmUp()).toBe(true);
    expect(s.requests).toHaveLength(0);
    const reply = await model.complete({ messages: USER, tools: [SQL_TOOL] });
    expect(reply.message.content).toBe('the answer');
    expect(chatBodies(s)).toHaveLength(1);
    expect(chatBodies(s)[0]).toMatchObject({ model: 'fake-model', temperature: 0.3, max_tokens: 64, top_p: 0.9 });
  });

  it('needs no server: nothing listening at the base URL still warms up', async () => {
    const port = await closedPort();
    const { model } = modelFor(`http://127.0.0.1:${port}/v1`, { retry: { maxAttempts: 1 } });
    expect(await model.warmUp()).toBe(true);
    await expect(model.complete({ messages: USER })).rejects.toMatchObject({ failure: 'connection_refused' });
  });

  it('says false, and does not throw, when the canned reply does not come back through the caps', async () => {
    // A body cap below the canned reply's size stops the read: the warm-up reports it instead of failing.
    const { model } = modelFor('http://127.0.0.1:9/v1', { limits: { maxBodyBytes: 16 } });
    expect(await model.warmUp()).toBe(false);
  });
});

describe('createOpenAICompatibleModel: reasoning field', () => {
  const both: FakeResponse = { kind: 'text', content: 'answer', reasoning: 'from reasoning', reasoningContent: 'from reasoning_content' };

  it.each([
    ['reasoning', 'from reasoning'],
    ['reasoning_content', 'from reasoning_content'],
    ['auto', 'from reasoning'],
    ['none', undefined],
  ] as const)('reads %s', async (field, expected) => {
    const s = await start([both]);
    const { model } = modelFor(s.url, { reasoningField: field });
    const response = await model.complete({ messages: USER });
    expect(response.message.reasoning).toBe(expected);
    expect(response.message.content).toBe('answer');
  });

  it('auto falls back to reasoning_content (SGLang, llama.cpp, older vLLM)', async () => {
    const s = await start([{ kind: 'text', content: 'x', reasoningContent: 'thinking' }]);
    const { model } = modelFor(s.url);
    expect((await model.complete({ messages: USER })).message.reasoning).toBe('thinking');
  });

  it('a fixed field ignores the other one', async () => {
    const s = await start([{ kind: 'text', content: 'x', reasoningContent: 'thinking' }]);
    const { model } = modelFor(s.url, { reasoningField: 'reasoning' });
    expect((await model.complete({ messages: USER })).message).not.toHaveProperty('reasoning');
  });
});

describe('createOpenAICompatibleModel: retries', () => {
  it('retries 429 after the Retry-After seconds', async () => {
    const s = await start([
      { kind: 'http_error', status: 429, headers: { 'retry-after': '7' }, body: { error: { message: 'Rate limit reached' } } },
      { kind: 'text', content: 'ok' },
    ]);
    const { model, sleeps, events } = modelFor(s.url);
    const response = await model.complete({ messages: USER });
    expect(response.message.content).toBe('ok');
    expect(sleeps).toEqual([7000]);
    expect(events[0]).toMatchObject({ attempt: 1, fromRetryAfter: true, error: { status: 429, retryAfterMs: 7000 } });
    expect(chatBodies(s)).toHaveLength(2);
  });

  it('honours retry-after-ms and an HTTP-date Retry-After read against the injected clock', async () => {
    const now = Date.parse('2025-06-01T12:00:00Z');
    const s = await start([
      { kind: 'http_error', status: 429, headers: { 'retry-after-ms': '1500' } },
      { kind: 'http_error', status: 503, headers: { 'retry-after': 'Sun, 01 Jun 2025 12:00:03 GMT' } },
      { kind: 'text', content: 'ok' },
    ]);
    const { model, sleeps } = modelFor(s.url, { retry: { now: () => now } });
    await model.complete({ messages: USER });
    expect(sleeps).toEqual([1500, 3000]);
  });

  it('caps a long Retry-After', async () => {
    const s = await start([
      { kind: 'http_error', status: 429, headers: { 'retry-after': '86400' } },
      { kind: 'text', content: 'ok' },
    ]);
    const { model, sleeps } = modelFor(s.url, { retry: { maxRetryAfterMs: 5000 } });
    await model.complete({ messages: USER });
    expect(sleeps).toEqual([5000]);
  });

  it('retries 503 with exponential backoff and gives up with a message saying what happened', async () => {
    const overloaded: FakeResponse = { kind: 'http_error', status: 503, body: { object: 'error', message: 'Engine is overloaded', code: 503 } };
    const s = await start([overloaded, overloaded, overloaded]);
    const { model, sleeps } = modelFor(s.url, { retry: { maxAttempts: 3 } });
    const error = (await model.complete({ messages: USER }).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error.status).toBe(503);
    expect(error.attempts).toBe(3);
    expect(error.serverMessage).toBe('Engine is overloaded');
    expect(error.message).toBe(
      `Model call failed after 3 attempts; last error: HTTP 503 from ${s.url}/chat/completions (model 'fake-model'): Engine is overloaded`,
    );
    expect(sleeps).toEqual([100, 200]);
    expect(chatBodies(s)).toHaveLength(3);
  });

  it.each([408, 409, 425, 500, 502, 504])('retries HTTP %i', async (status) => {
    const s = await start([{ kind: 'http_error', status }, { kind: 'text', content: 'ok' }]);
    const { model, sleeps } = modelFor(s.url);
    expect((await model.complete({ messages: USER })).message.content).toBe('ok');
    expect(sleeps).toHaveLength(1);
  });

  it.each([
    [400, { object: 'error', message: "'messages' is a required property", code: 400 }, "'messages' is a required property"],
    [404, { object: 'error', message: 'The model `fake-model` does not exist.', code: 404 }, 'The model `fake-model` does not exist.'],
    [401, { error: { message: 'Incorrect API key provided.' } }, 'Incorrect API key provided.'],
    [422, { detail: [{ loc: ['body', 'messages'], msg: 'field required' }] }, '[{"loc":["body","messages"],"msg":"field required"}]'],
  ] as const)('never retries HTTP %i and surfaces the server message', async (status, body, serverMessage) => {
    const s = await start([{ kind: 'http_error', status, body }, { kind: 'text', content: 'unused' }]);
    const { model, sleeps } = modelFor(s.url);
    const error = (await model.complete({ messages: USER }).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ status, retryable: false, failure: 'http_status', serverMessage });
    expect(error.message).toContain(`HTTP ${status} from ${s.url}/chat/completions`);
    expect(sleeps).toEqual([]);
    expect(chatBodies(s)).toHaveLength(1);
  });

  it('surfaces a plain-text error body', async () => {
    const s = await start([{ kind: 'http_error', status: 400, body: 'tools param requires --jinja flag' }]);
    const { model } = modelFor(s.url);
    await expect(model.complete({ messages: USER })).rejects.toMatchObject({ serverMessage: 'tools param requires --jinja flag' });
  });

  it('does not retry when the server says x-should-retry: false (an exhausted fake script)', async () => {
    const s = await start([]);
    const { model, sleeps } = modelFor(s.url);
    const error = (await model.complete({ messages: USER }).catch((e: unknown) => e)) as ModelCallError;
    expect(error.status).toBe(500);
    expect(error.message).toMatch(/script exhausted/);
    expect(sleeps).toEqual([]);
  });

  it('retries a dropped connection', async () => {
    const s = await start([{ kind: 'drop' }, { kind: 'text', content: 'back' }]);
    const { model, sleeps, events } = modelFor(s.url);
    expect((await model.complete({ messages: USER })).message.content).toBe('back');
    expect(sleeps).toEqual([100]);
    expect(events[0]?.error.failure).toBe('connection_lost');
  });

  it('reports a connection that keeps dropping', async () => {
    const s = await start([{ kind: 'drop' }, { kind: 'drop' }]);
    const { model } = modelFor(s.url, { retry: { maxAttempts: 2 } });
    const error = (await model.complete({ messages: USER }).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toMatchObject({ failure: 'connection_lost', attempts: 2, status: undefined });
    expect(error.message).toMatch(/failed after 2 attempts; last error: Connection to .* was closed before a response arrived/);
  });

  it('retries after a request timeout', async () => {
    const s = await start([{ kind: 'text', content: 'slow', delayMs: 60_000 }, { kind: 'text', content: 'fast' }]);
    const { model, events } = modelFor(s.url, { timeoutMs: 100 });
    expect((await model.complete({ messages: USER })).message.content).toBe('fast');
    expect(events[0]?.error).toMatchObject({ failure: 'timeout', message: `No response from ${s.url}/chat/completions within 100 ms (request timeout).` });
  });

  it('reports connection refused at once: nothing listening is not retried', async () => {
    const port = await closedPort();
    const { model, sleeps } = modelFor(`http://127.0.0.1:${port}/v1`, { retry: { maxAttempts: 5 } });
    const error = (await model.complete({ messages: USER }).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toMatchObject({ failure: 'connection_refused', retryable: false });
    expect(error.message).toContain(`Cannot connect to http://127.0.0.1:${port}/v1: connection refused`);
    expect(error.message).toContain('Not retried');
    expect(sleeps).toEqual([]);
  });

  it.each([
    ['a host name that does not resolve', 'http://no-such-host.invalid/v1', /ENOTFOUND/],
  ])('does not retry %s', async (_name, url, detail) => {
    const { model, sleeps } = modelFor(url, { retry: { maxAttempts: 5 } });
    const error = (await model.complete({ messages: USER }).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toMatchObject({ failure: 'network', retryable: false });
    expect(error.message).toMatch(detail);
    expect(sleeps).toEqual([]);
  });

  it('does not follow a redirect: it names the new address, once, without retrying', async () => {
    const s = await start([{ kind: 'http_error', status: 301, headers: { location: 'https://models.example/v1/chat/completions' }, body: '' }, { kind: 'text', content: 'unused' }]);
    const { model, sleeps } = modelFor(s.url);
    const error = (await model.complete({ messages: USER }).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toMatchObject({ status: 301, failure: 'http_status', retryable: false });
    expect(error.message).toBe(
      `HTTP 301 from ${s.url}/chat/completions (model 'fake-model'): redirected to https://models.example/v1/chat/completions; give that address as the base URL (redirects are not followed)`,
    );
    expect(sleeps).toEqual([]);
    expect(chatBodies(s)).toHaveLength(1);
  });

  it('does not retry and stops at once when the caller aborts', async () => {
    const s = await start([{ kind: 'text', content: 'slow', delayMs: 60_000 }]);
    const { model, sleeps } = modelFor(s.url);
    const controller = new AbortController();
    const pending = model.complete({ messages: USER, signal: controller.signal }).catch((e: unknown) => e);
    while (s.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(await pending).toMatchObject({ failure: 'aborted', retryable: false });
    expect(sleeps).toEqual([]);
  });

  it('an attempt that got its headers but no body times out: the attempt timeout covers the body too', async () => {
    const stalled = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"choices": [');
    });
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = stalled.address() as net.AddressInfo;
      const { model } = modelFor(`http://127.0.0.1:${port}/v1`, { timeoutMs: 150, retry: { maxAttempts: 1 } });
      const started = performance.now();
      const error = await model.complete({ messages: USER }).catch((e: unknown) => e);
      expect(error).toMatchObject({ failure: 'timeout' });
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      stalled.closeAllConnections();
      await new Promise((resolve) => stalled.close(resolve));
    }
  });

  it('a caller signal aborted before the call stops it without a request', async () => {
    const s = await start([{ kind: 'text', content: 'never' }]);
    const { model, sleeps } = modelFor(s.url);
    const controller = new AbortController();
    controller.abort();
    expect(await model.complete({ messages: USER, signal: controller.signal }).catch((e: unknown) => e)).toMatchObject({ failure: 'aborted', retryable: false });
    expect(s.requests).toHaveLength(0);
    expect(sleeps).toEqual([]);
  });

  it('rejects a 200 answer that is not a chat completion, without retrying', async () => {
    const s = await start([{ kind: 'raw', body: '<html>proxy login</html>', headers: { 'content-type': 'text/html' } }, { kind: 'raw', body: { choices: [] } }]);
    const { model, sleeps } = modelFor(s.url);
    await expect(model.complete({ messages: USER })).rejects.toMatchObject({ failure: 'malformed_response', retryable: false, message: expect.stringMatching(/HTTP 200.*not valid JSON.*proxy login/) });
    await expect(model.complete({ messages: USER })).rejects.toThrow(/Malformed response .*: no choices/);
    expect(sleeps).toEqual([]);
  });
});

describe('createOpenAICompatibleModel: API key and settings', () => {
  it('sends the key from the configured environment variable', async () => {
    const s = await start({ handler: scripted([{ kind: 'text', content: 'ok' }]), apiKey: 'sk-secret' });
    const { model } = modelFor(s.url, { env: { MY_KEY: 'sk-secret' }, apiKeyEnv: 'MY_KEY' });
    await model.complete({ messages: USER });
    expect(s.requests[0]?.headers.authorization).toBe('Bearer sk-secret');
  });

  it('reads OPENAI_API_KEY by default and falls back to a dummy key for local servers', async () => {
    const s = await start([{ kind: 'text', content: 'a' }, { kind: 'text', content: 'b' }]);
    await modelFor(s.url, { env: { OPENAI_API_KEY: 'sk-default' } }).model.complete({ messages: USER });
    await modelFor(s.url, { env: {} }).model.complete({ messages: USER });
    expect(s.requests.map((r) => r.headers.authorization)).toEqual(['Bearer sk-default', 'Bearer EMPTY']);
  });

  it('asks for an uncompressed body: it reads and caps the bytes as they arrive', async () => {
    const s = await start([{ kind: 'text', content: 'a' }]);
    await modelFor(s.url).model.complete({ messages: USER });
    expect(s.requests[0]?.headers['accept-encoding']).toBe('identity');
  });

  it('sends no organization or project headers taken from the process environment', async () => {
    const s = await start([{ kind: 'text', content: 'a' }]);
    await modelFor(s.url).model.complete({ messages: USER });
    expect(s.requests[0]?.headers).not.toHaveProperty('openai-organization');
    expect(s.requests[0]?.headers).not.toHaveProperty('openai-project');
  });

  it('rejects bad settings with a ConfigError naming the field', () => {
    const base = { baseURL: 'http://localhost:8000/v1', model: 'm', env: {} };
    const cases: [Partial<OpenAICompatibleModelOptions>, string][] = [
      [{ baseURL: 'localhost:8000' }, 'baseURL'],
      [{ baseURL: 'ftp://host/v1' }, 'baseURL'],
      [{ model: ' ' }, 'model'],
      [{ temperature: -1 }, 'temperature'],
      [{ maxTokens: 0 }, 'maxTokens'],
      [{ timeoutMs: 0 }, 'timeoutMs'],
      [{ reasoningField: 'thoughts' as never }, 'reasoningField'],
      [{ extraBody: { chat_template_kwargs: {} } }, 'extraBody.chat_template_kwargs'],
      [{ extraBody: { messages: [] } }, 'extraBody.messages'],
      [{ apiKeyEnv: 'UNSET_KEY_VARIABLE' }, 'apiKeyEnv'],
      [{ retry: { maxAttempts: 0 } }, 'retry.maxAttempts'],
    ];
    for (const [override, field] of cases) {
      let caught: unknown;
      try {
        createOpenAICompatibleModel({ ...base, ...override });
      } catch (error) {
        caught = error;
      }
      expect(caught, field).toBeInstanceOf(ConfigError);
      expect((caught as ConfigError).field).toBe(field);
    }
  });
});

describe('extractServerMessage', () => {
  it('reads the common error body shapes', () => {
    expect(extractServerMessage('{"error":{"message":"a"}}')).toBe('a');
    expect(extractServerMessage('{"error":"b"}')).toBe('b');
    expect(extractServerMessage('{"object":"error","message":"c"}')).toBe('c');
    expect(extractServerMessage('{"detail":"Not Found"}')).toBe('Not Found');
    expect(extractServerMessage('Bad Gateway')).toBe('Bad Gateway');
    expect(extractServerMessage('  ')).toBeUndefined();
  });
});
