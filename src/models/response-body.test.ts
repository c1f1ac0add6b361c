import { afterEach, describe, expect, it } from 'vitest';

import type { ChatMessage } from '../episode/index.js';
import type { ModelCallError } from './chat-model.js';
import { scripted, startFakeOpenAIServer } from './fake-openai-server.js';
import type { FakeOpenAIServer, FakeResponse } from './fake-openai-server.js';
import { createOpenAICompatibleModel } from './openai-compatible-model.js';
import type { OpenAICompatibleModelOptions } from './openai-compatible-model.js';
import { ERROR_BODY_BYTES } from './response-body.js';
import { DEFAULT_RESPONSE_LIMITS } from './response-limits.js';
import type { RetryEvent } from './retry.js';

let server: FakeOpenAIServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(responses: FakeResponse[]): Promise<FakeOpenAIServer> {
  server = await startFakeOpenAIServer({ handler: scripted(responses) });
  return server;
}

function modelFor(url: string, options: Partial<OpenAICompatibleModelOptions> = {}) {
  const events: RetryEvent[] = [];
  const model = createOpenAICompatibleModel({
    baseURL: url,
    model: 'fake-model',
    env: {},
    onRetry: (event) => events.push(event),
    ...options,
    retry: { baseDelayMs: 1, random: () => 0, sleep: async () => {}, ...options.retry },
  });
  return { model, events };
}

const USER: ChatMessage[] = [{ role: 'user', content: 'hi' }];
const MiB = 1024 * 1024;

/** The start of a chat completion whose content is the streamed chunks, and its end. */
const CONTENT_HEAD = '{"id":"chatcmpl-1","object":"chat.completion","created":0,"model":"fake-model","choices":[{"index":0,"message":{"role":"assistant","content":"';
const CONTENT_TAIL = '"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1}}';
const COMPLETION = JSON.stringify({
  id: 'chatcmpl-2',
  object: 'chat.completion',
  created: 0,
  model: 'fake-model',
  choices: [{ index: 0, message: { role: 'assistant', content: 'fine' }, finish_reason: 'stop' }],
});

async function failure(promise: Promise<unknown>): Promise<ModelCallError> {
  return (await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  )) as ModelCallError;
}

describe('response body cap (max_body_bytes)', () => {
  it('stops reading a 100 MB content body at the default cap: a model_error naming the cap, not retried', async () => {
    const s = await start([{ kind: 'stream', head: CONTENT_HEAD, chunk: 'x'.repeat(64 * 1024), repeat: 1600, tail: CONTENT_TAIL, declareLength: true }]);
    const { model, events } = modelFor(s.url);
    const error = await failure(model.complete({ messages: USER }));
    const cap = DEFAULT_RESPONSE_LIMITS.maxBodyBytes;
    expect(error).toMatchObject({ failure: 'response_too_large', retryable: false, status: 200, limit: { limit: 'max_body_bytes', cap } });
    expect(error.message).toContain(`larger than max_body_bytes=${cap}`);
    expect(events).toEqual([]);
    await s.streams[0]!.closed;
    const report = s.streams[0]!;
    expect(report.finished).toBe(false);
    // The client read just past the cap; the server got rid of little more than that before the hang-up.
    expect(error.limit!.actual).toBeGreaterThan(cap);
    expect(error.limit!.actual).toBeLessThanOrEqual(cap + MiB);
    expect(report.bytesWritten).toBeLessThan(cap + 16 * MiB);
  });

  it('stops an endless chunked body at a configured cap and hangs up', async () => {
    const s = await start([{ kind: 'stream', head: CONTENT_HEAD, chunk: 'y'.repeat(16 * 1024), repeat: 'endless', limitBytes: 64 * MiB }]);
    const { model } = modelFor(s.url, { limits: { maxBodyBytes: MiB } });
    const error = await failure(model.complete({ messages: USER }));
    expect(error).toMatchObject({ failure: 'response_too_large', limit: { limit: 'max_body_bytes', cap: MiB } });
    await s.streams[0]!.closed;
    expect(s.streams[0]!.finished).toBe(false);
    expect(error.limit!.actual).toBeGreaterThan(MiB);
    expect(error.limit!.actual).toBeLessThanOrEqual(2 * MiB);
    expect(s.streams[0]!.bytesWritten).toBeLessThan(16 * MiB);
  });

  it('reads an endless error body only as far as its message and keeps the status', async () => {
    const s = await start([{ kind: 'stream', status: 503, head: '{"message":"overloaded', chunk: 'z'.repeat(16 * 1024), repeat: 'endless', limitBytes: 64 * MiB }]);
    const { model } = modelFor(s.url, { retry: { maxAttempts: 1 } });
    const error = await failure(model.complete({ messages: USER }));
    expect(error).toMatchObject({ failure: 'http_status', status: 503, retryable: true });
    expect(error.message).toMatch(/^HTTP 503 from .*overloadedzzz/);
    await s.streams[0]!.closed;
    expect(s.streams[0]!.bytesWritten).toBeLessThan(ERROR_BODY_BYTES + 16 * MiB);
  });
});

describe('truncated and unparseable bodies are retried', () => {
  it('retries a 200 body cut short in its JSON, then succeeds', async () => {
    const cut = COMPLETION.slice(0, 60);
    const s = await start([{ kind: 'raw', body: cut, headers: { 'content-type': 'application/json' } }, { kind: 'raw', body: COMPLETION, headers: { 'content-type': 'application/json' } }]);
    const { model, events } = modelFor(s.url);
    const response = await model.complete({ messages: USER });
    expect(response.message.content).toBe('fine');
    expect(events).toHaveLength(1);
    expect(events[0]!.error).toMatchObject({ failure: 'malformed_response', retryable: true, status: 200 });
    expect(events[0]!.error.message).toContain(`(HTTP 200, ${cut.length} bytes): the body is not valid JSON`);
    expect(events[0]!.error.message).toContain(`First bytes: ${JSON.stringify(cut)}`);
  });

  it('retries a connection lost in the middle of the body, then succeeds', async () => {
    const s = await start([
      { kind: 'stream', head: CONTENT_HEAD, chunk: 'w'.repeat(1000), repeat: 50, tail: CONTENT_TAIL, declareLength: true, dropAfterBytes: 5000 },
      { kind: 'raw', body: COMPLETION, headers: { 'content-type': 'application/json' } },
    ]);
    const { model, events } = modelFor(s.url);
    expect((await model.complete({ messages: USER })).message.content).toBe('fine');
    expect(events).toHaveLength(1);
    expect(events[0]!.error).toMatchObject({ failure: 'connection_lost', retryable: true, status: 200 });
    expect(events[0]!.error.message).toMatch(/closed after \d+ bytes of the response body \(HTTP 200; .*First bytes: "\{\\"id\\":\\"chatcmpl-1/);
  });

  it('gives up after the policy attempts and names what came back', async () => {
    const cut = '{"id":"chatcmpl-3","choices":[{"message":{"role":"assis';
    const raw: FakeResponse = { kind: 'raw', body: cut, headers: { 'content-type': 'application/json' } };
    const s = await start([raw, raw, raw]);
    const { model, events } = modelFor(s.url, { retry: { maxAttempts: 3 } });
    const error = await failure(model.complete({ messages: USER }));
    expect(events).toHaveLength(2);
    expect(error).toMatchObject({ failure: 'malformed_response', attempts: 3, status: 200 });
    expect(error.message).toMatch(/^Model call failed after 3 attempts; last error: Malformed response from .*\(HTTP 200, \d+ bytes\): the body is not valid JSON/);
    expect(error.message).toContain(`(HTTP 200, ${cut.length} bytes)`);
    expect(error.message).toContain(JSON.stringify(cut));
    expect(s.requests).toHaveLength(3);
  });

  it('retries an empty 200 body', async () => {
    const s = await start([{ kind: 'raw', body: '', headers: { 'content-type': 'application/json' } }, { kind: 'raw', body: COMPLETION }]);
    const { model, events } = modelFor(s.url);
    expect((await model.complete({ messages: USER })).message.content).toBe('fine');
    expect(events[0]!.error.message).toContain('First bytes: (empty body)');
  });
});
