import { afterEach, describe, expect, it } from 'vitest';

import { scripted, startFakeOpenAIServer } from './fake-openai-server.js';
import type { FakeOpenAIServer, FakeOpenAIServerOptions, FakeResponse } from './fake-openai-server.js';

let server: FakeOpenAIServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: FakeOpenAIServerOptions | FakeResponse[]): Promise<FakeOpenAIServer> {
  server = await startFakeOpenAIServer(Array.isArray(options) ? { handler: scripted(options) } : options);
  return server;
}

async function chat(base: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: unknown; text: string; headers: Headers }> {
  const response = await fetch(`${base}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text, headers: response.headers };
}

const REQUEST = { model: 'fake-model', messages: [{ role: 'user', content: 'hi' }] };

describe('startFakeOpenAIServer', () => {
  it('serves on 127.0.0.1 with a /v1 base URL and lists models', async () => {
    const { url } = await start({ handler: scripted([]), models: ['a', 'b'] });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const response = await fetch(`${url}/models`);
    expect(await response.json()).toMatchObject({ object: 'list', data: [{ id: 'a' }, { id: 'b' }] });
  });

  it('answers a tool-call turn in the OpenAI wire format with deterministic ids', async () => {
    const { url } = await start([{ kind: 'tool_calls', calls: [{ name: 'execute_sql', arguments: { query: 'SELECT 1' } }] }]);
    const { status, json } = await chat(url, REQUEST);
    expect(status).toBe(200);
    expect(json).toMatchObject({
      object: 'chat.completion',
      model: 'fake-model',
      choices: [
        {
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_0_0', type: 'function', function: { name: 'execute_sql', arguments: '{"query":"SELECT 1"}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
    });
  });

  it('emits reasoning in either field', async () => {
    const { url } = await start([{ kind: 'text', content: 'answer', reasoning: 'r1', reasoningContent: 'r2' }]);
    const { json } = await chat(url, REQUEST);
    expect(json).toMatchObject({ choices: [{ message: { content: 'answer', reasoning: 'r1', reasoning_content: 'r2' }, finish_reason: 'stop' }] });
  });

  it('renders tool calls as <tool_call> text the way an unparsed vLLM answer looks', async () => {
    const { url } = await start([
      { kind: 'tool_calls_as_text', calls: [{ name: 'lookup_weather', arguments: { city: 'Paris' } }] },
      { kind: 'tool_calls_as_text', format: 'qwen3_coder', calls: [{ name: 'lookup_weather', arguments: '{"city":"Paris"}' }] },
    ]);
    const hermes = (await chat(url, REQUEST)).json as { choices: [{ message: { content: string; tool_calls?: unknown }; finish_reason: string }] };
    expect(hermes.choices[0].message.content).toBe('<tool_call>\n{"name": "lookup_weather", "arguments": {"city":"Paris"}}\n</tool_call>');
    expect(hermes.choices[0].message.tool_calls).toBeUndefined();
    expect(hermes.choices[0].finish_reason).toBe('stop');
    const coder = (await chat(url, REQUEST)).json as { choices: [{ message: { content: string } }] };
    expect(coder.choices[0].message.content).toBe(
      '<tool_call>\n<function=lookup_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>',
    );
  });

  it('sends HTTP errors with the given status, headers and body', async () => {
    const { url } = await start([
      { kind: 'http_error', status: 429, headers: { 'retry-after': '2' }, body: { error: { message: 'slow down' } } },
      { kind: 'http_error', status: 502, body: 'Bad Gateway' },
    ]);
    const limited = await chat(url, REQUEST);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(limited.json).toEqual({ error: { message: 'slow down' } });
    const gateway = await chat(url, REQUEST);
    expect(gateway.status).toBe(502);
    expect(gateway.text).toBe('Bad Gateway');
  });

  it('drops the connection without a response', async () => {
    const { url } = await start([{ kind: 'drop' }]);
    await expect(chat(url, REQUEST)).rejects.toThrow(/fetch failed/);
  });

  it('delays a response', async () => {
    const { url } = await start([
      { kind: 'text', content: 'too late', delayMs: 60_000 },
      { kind: 'text', content: 'late', delayMs: 20 },
    ]);
    const impatient = fetch(`${url}/chat/completions`, { method: 'POST', body: JSON.stringify(REQUEST), signal: AbortSignal.timeout(50) });
    await expect(impatient).rejects.toThrow(/aborted|timeout/i);
    const { json } = await chat(url, REQUEST);
    expect(json).toMatchObject({ choices: [{ message: { content: 'late' } }] });
  });

  it('records every request, on any path, with its parsed body and headers', async () => {
    const { url, requests } = await start([{ kind: 'text', content: 'x' }]);
    await chat(url, { ...REQUEST, chat_template_kwargs: { enable_thinking: false } }, { 'x-test': 'yes' });
    await fetch(`${url}/models`);
    expect(requests.map((r) => [r.method, r.path])).toEqual([
      ['POST', '/v1/chat/completions'],
      ['GET', '/v1/models'],
    ]);
    expect(requests[0]?.body).toMatchObject({ chat_template_kwargs: { enable_thinking: false } });
    expect(requests[0]?.headers['x-test']).toBe('yes');
  });

  it('passes the parsed body and request index to the handler', async () => {
    const seen: [string, number][] = [];
    const { url } = await start({
      handler: (request, { index }) => {
        seen.push([request.model, index]);
        return { kind: 'text', content: `reply ${index}` };
      },
    });
    await chat(url, REQUEST);
    const { json } = await chat(url, { ...REQUEST, model: 'other' });
    expect(seen).toEqual([
      ['fake-model', 0],
      ['other', 1],
    ]);
    expect(json).toMatchObject({ choices: [{ message: { content: 'reply 1' } }] });
  });

  it('fails loudly with HTTP 500 when a script runs out', async () => {
    const handler = scripted([{ kind: 'text', content: 'only one' }]);
    const { url } = await start({ handler });
    expect(handler.remaining()).toBe(1);
    await chat(url, REQUEST);
    expect(handler.remaining()).toBe(0);
    const { status, json, headers } = await chat(url, REQUEST);
    expect(status).toBe(500);
    expect(headers.get('x-should-retry')).toBe('false');
    expect(json).toMatchObject({ error: { message: expect.stringMatching(/script exhausted: chat request #2 .* only 1 response/) } });
  });

  it('turns a throwing handler into HTTP 500 naming the failure', async () => {
    const { url } = await start({
      handler: () => {
        throw new Error('policy crashed');
      },
    });
    const { status, json } = await chat(url, REQUEST);
    expect(status).toBe(500);
    expect(json).toMatchObject({ error: { message: expect.stringContaining('policy crashed') } });
  });

  it('answers like a real server to bad requests, unknown paths, unknown models and bad keys', async () => {
    const { url } = await start({ handler: scripted([]), models: ['served'], rejectUnknownModels: true, apiKey: 'sk-test' });
    const auth = { authorization: 'Bearer sk-test' };
    expect((await chat(url, '{not json', auth)).status).toBe(400);
    expect((await chat(url, { messages: [] }, auth)).status).toBe(400);
    const unknownModel = await chat(url, { model: 'nope', messages: [] }, auth);
    expect(unknownModel.status).toBe(404);
    expect(unknownModel.json).toMatchObject({ message: 'The model `nope` does not exist.' });
    const origin = url.replace(/\/v1$/, '');
    const noPrefix = await chat(origin, REQUEST, auth);
    expect(noPrefix.status).toBe(404);
    expect(noPrefix.json).toEqual({ detail: 'Not Found' });
    expect((await chat(url, REQUEST, { authorization: 'Bearer wrong' })).status).toBe(401);
  });

  it('closes while a delayed response is pending', async () => {
    const { url } = await start([{ kind: 'text', content: 'never', delayMs: 60_000 }]);
    const pending = chat(url, REQUEST).catch((error: unknown) => error);
    while ((server?.requests.length ?? 0) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await server?.close();
    server = undefined;
    expect(await pending).toBeInstanceOf(Error);
  });

  it('streams a body in pieces, with or without a declared length, and reports what it wrote', async () => {
    const s = await start([
      { kind: 'stream', head: '{"a":"', chunk: 'xy', repeat: 3, tail: '"}', declareLength: true },
      { kind: 'stream', status: 502, chunk: 'z', repeat: 4, headers: { 'content-type': 'text/plain' } },
    ]);
    const first = await chat(s.url, REQUEST);
    expect(first).toMatchObject({ status: 200, json: { a: 'xyxyxy' } });
    expect(first.headers.get('content-length')).toBe('14');
    const second = await chat(s.url, REQUEST);
    expect(second).toMatchObject({ status: 502, text: 'zzzz' });
    expect(second.headers.get('transfer-encoding')).toBe('chunked');
    await Promise.all(s.streams.map((r) => r.closed));
    expect(s.streams.map((r) => [r.index, r.bytesWritten, r.finished])).toEqual([[0, 14, true], [1, 4, true]]);
  });

  it('cuts a streamed body after the given bytes by dropping the connection', async () => {
    const s = await start([{ kind: 'stream', head: '{"a":"', chunk: 'x'.repeat(100), repeat: 10, tail: '"}', declareLength: true, dropAfterBytes: 50 }]);
    const response = await fetch(`${s.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(REQUEST) });
    await expect(response.text()).rejects.toThrow();
    await s.streams[0]!.closed;
    expect(s.streams[0]).toMatchObject({ bytesWritten: 50, finished: false });
  });
});
