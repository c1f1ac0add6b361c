/**
 * A real OpenAI-compatible HTTP server on 127.0.0.1 whose answers come from a handler. Simulated targets
 * are served through it so the real client path (HTTP, JSON, retries, timeouts) runs offline; tests use
 * it to script exactly what a vLLM/SGLang/llama.cpp/Ollama server would say, including its failures.
 *
 * Endpoints: `POST /v1/chat/completions` (answered by the handler) and `GET /v1/models`. Any other path
 * gets 404 `{"detail":"Not Found"}`, as FastAPI-based servers answer, so a base URL without `/v1` fails
 * the way it does in real life. Every request, on any path, is recorded in `requests`.
 *
 * A handler receives the parsed request body; `fromWireMessages` (wire-format.ts) reads its `messages` as
 * ChatMessages for handlers that play a policy, such as the simulated targets.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { streamBody, type FakeStreamReport, type FakeStreamResponse } from './fake-stream-body.js';
import { isRecord } from './wire-format.js';

/** A tool call the fake server should emit. Object arguments are serialized to a JSON string. */
export interface FakeToolCall {
  name: string;
  arguments: string | Record<string, unknown>;
  /** Defaults to `call_<request index>_<call index>`. */
  id?: string;
}

export interface FakeUsage {
  promptTokens: number;
  completionTokens: number;
}

/** Fields shared by the assistant-turn responses. */
interface FakeTurnFields {
  /** Emitted as `message.reasoning` (newer vLLM). */
  reasoning?: string;
  /** Emitted as `message.reasoning_content` (older vLLM, SGLang, llama.cpp). */
  reasoningContent?: string;
  /** Overrides the natural finish reason. */
  finishReason?: string;
  /** Overrides the deterministic estimate (about four characters per token). */
  usage?: FakeUsage;
}

/**
 * What the server does with one chat request. Every variant may set `delayMs` to wait before answering
 * (the wait is cut short when the client disconnects or the server closes).
 *
 * - `tool_calls`: structured `message.tool_calls`, `finish_reason: "tool_calls"`.
 * - `text`: a plain text answer, `finish_reason: "stop"`.
 * - `tool_calls_as_text`: the calls rendered into `message.content` as `<tool_call>` markup with
 *   `finish_reason: "stop"`, as vLLM answers when no tool-call parser is configured. `format` picks the
 *   hermes JSON body (default) or the Qwen3-Coder `<function=…><parameter=…>` XML body.
 * - `http_error`: the given status, headers (e.g. `Retry-After`) and body (an object is sent as JSON, a
 *   string as text; by default an OpenAI-style `{"error":{…}}`).
 * - `drop`: the socket is destroyed without any response.
 * - `raw`: an arbitrary status and body, for malformed answers.
 * - `stream`: a body written piece by piece with backpressure — `head`, then `chunk` `repeat` times (or
 *   without end until the client hangs up), then `tail` — for huge, endless and cut-off bodies that a
 *   test must not hold in memory. See {@link FakeStreamResponse}; what was written is in `streams`.
 */
export type FakeResponse = { delayMs?: number } & (
  | ({ kind: 'tool_calls'; calls: FakeToolCall[]; content?: string | null } & FakeTurnFields)
  | ({ kind: 'text'; content: string } & FakeTurnFields)
  | ({ kind: 'tool_calls_as_text'; calls: FakeToolCall[]; format?: 'hermes' | 'qwen3_coder'; prefix?: string } & FakeTurnFields)
  | { kind: 'http_error'; status: number; headers?: Record<string, string>; body?: string | Record<string, unknown> }
  | { kind: 'drop' }
  | { kind: 'raw'; status?: number; headers?: Record<string, string>; body: string | Record<string, unknown> }
  | FakeStreamResponse
);

/** The JSON body of a chat request as received. Only `model` and `messages` are checked by the server. */
export interface FakeChatRequest {
  model: string;
  messages: unknown[];
  tools?: unknown[];
  [field: string]: unknown;
}

export interface FakeRequestContext {
  /** 0-based index of this chat request among all chat requests the server received. */
  index: number;
  headers: Record<string, string>;
}

export type FakeChatHandler = (request: FakeChatRequest, context: FakeRequestContext) => FakeResponse | Promise<FakeResponse>;

/** One HTTP request as the server received it. `body` is the parsed JSON, or the raw text if not JSON. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface FakeOpenAIServerOptions {
  handler: FakeChatHandler;
  /** Model ids listed by `GET /v1/models`. Default `['fake-model']`. */
  models?: string[];
  /** Answer 404 (vLLM's "The model `x` does not exist.") for a model not in `models`. Default false. */
  rejectUnknownModels?: boolean;
  /** When set, requests without `Authorization: Bearer <apiKey>` get 401. */
  apiKey?: string;
  /** Keep every request in `requests` (default true). Long-running servers such as simulated targets turn it off. */
  recordRequests?: boolean;
}

export interface FakeOpenAIServer {
  /** Base URL for a client, `/v1` included, e.g. `http://127.0.0.1:40123/v1`. */
  readonly url: string;
  /** Every request received so far, in arrival order (live array). */
  readonly requests: RecordedRequest[];
  /** One report per `stream` response, in order (live array). */
  readonly streams: FakeStreamReport[];
  /** Stops listening, cancels pending delays and closes open connections. */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** Starts the server on a random free port of 127.0.0.1. */
export async function startFakeOpenAIServer(options: FakeOpenAIServerOptions | FakeChatHandler): Promise<FakeOpenAIServer> {
  const settings: FakeOpenAIServerOptions = typeof options === 'function' ? { handler: options } : options;
  const models = settings.models ?? ['fake-model'];
  const requests: RecordedRequest[] = [];
  const streams: FakeStreamReport[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let chatCount = 0;

  const server = http.createServer((req, res) => {
    void serve(req, res).catch((error: unknown) => {
      sendJson(res, 500, { error: { message: `fake server failed: ${describe(error)}`, type: 'fake_server_error' } }, { 'x-should-retry': 'false' });
    });
  });

  async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const text = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const headers = flattenHeaders(req.headers);
    const body = parseJson(text);
    if (settings.recordRequests !== false) requests.push({ method: req.method ?? 'GET', path, headers, body: body.ok ? body.value : text });

    if (settings.apiKey !== undefined && headers.authorization !== `Bearer ${settings.apiKey}`) {
      sendJson(res, 401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } });
      return;
    }
    if (path === '/v1/models') {
      if (req.method !== 'GET') return sendJson(res, 405, { detail: 'Method Not Allowed' });
      sendJson(res, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'harness-r1-fake' })) });
      return;
    }
    if (path !== '/v1/chat/completions') return sendJson(res, 404, { detail: 'Not Found' });
    if (req.method !== 'POST') return sendJson(res, 405, { detail: 'Method Not Allowed' });

    if (!body.ok) return sendJson(res, 400, invalidRequest(`Request body is not valid JSON: ${body.error}`));
    if (!isRecord(body.value) || typeof body.value.model !== 'string' || !Array.isArray(body.value.messages)) {
      return sendJson(res, 400, invalidRequest('Request body must be an object with a string "model" and an array "messages".'));
    }
    const request = body.value as FakeChatRequest;
    if (settings.rejectUnknownModels && !models.includes(request.model)) {
      sendJson(res, 404, { object: 'error', message: `The model \`${request.model}\` does not exist.`, type: 'NotFoundError', param: null, code: 404 });
      return;
    }

    const index = chatCount++;
    let response: FakeResponse;
    try {
      response = await settings.handler(request, { index, headers });
    } catch (error) {
      sendJson(res, 500, { error: { message: `fake server handler failed on request #${index + 1}: ${describe(error)}`, type: 'handler_error' } }, { 'x-should-retry': 'false' });
      return;
    }
    if (response.delayMs !== undefined && response.delayMs > 0) {
      const completed = await delay(response.delayMs, res);
      if (!completed) return;
    }
    if (response.kind === 'stream') {
      await streamBody(res, response, index, streams);
      return;
    }
    respond(res, response, request, index);
  }

  function delay(ms: number, res: http.ServerResponse): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        res.off('close', onClose);
        resolve(true);
      }, ms);
      const onClose = (): void => {
        clearTimeout(timer);
        timers.delete(timer);
        resolve(false);
      };
      timers.add(timer);
      res.once('close', onClose);
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    streams,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/**
 * A handler that plays `responses` in order, one per chat request. When they run out it answers HTTP 500
 * (with `x-should-retry: false`, so clients give up at once) and a message saying how many were scripted.
 * `remaining()` tells how many responses have not been played yet.
 */
export function scripted(responses: readonly FakeResponse[]): FakeChatHandler & { remaining(): number } {
  let next = 0;
  const handler: FakeChatHandler = () => {
    const response = responses[next];
    next++;
    if (response !== undefined) return response;
    return {
      kind: 'http_error',
      status: 500,
      headers: { 'x-should-retry': 'false' },
      body: {
        error: {
          message: `fake server script exhausted: chat request #${next} arrived but only ${responses.length} response(s) were scripted`,
          type: 'script_exhausted',
        },
      },
    };
  };
  return Object.assign(handler, { remaining: () => Math.max(0, responses.length - next) });
}

function respond(res: http.ServerResponse, response: Exclude<FakeResponse, FakeStreamResponse>, request: FakeChatRequest, index: number): void {
  switch (response.kind) {
    case 'drop':
      res.socket?.destroy();
      return;
    case 'http_error': {
      const body = response.body ?? { error: { message: `fake server error (HTTP ${response.status})`, type: 'fake_error', code: response.status } };
      sendBody(res, response.status, body, response.headers);
      return;
    }
    case 'raw':
      sendBody(res, response.status ?? 200, response.body, response.headers);
      return;
    case 'tool_calls': {
      const toolCalls = response.calls.map((call, callIndex) => ({
        id: call.id ?? `call_${index}_${callIndex}`,
        type: 'function',
        function: { name: call.name, arguments: argumentsText(call) },
      }));
      sendJson(res, 200, completion(request, index, response, { content: response.content ?? null, tool_calls: toolCalls }, 'tool_calls'));
      return;
    }
    case 'text':
      sendJson(res, 200, completion(request, index, response, { content: response.content }, 'stop'));
      return;
    case 'tool_calls_as_text': {
      const markup = response.calls.map((call) => renderToolCallText(call, response.format ?? 'hermes')).join('\n');
      sendJson(res, 200, completion(request, index, response, { content: `${response.prefix ?? ''}${markup}` }, 'stop'));
      return;
    }
  }
}

function completion(
  request: FakeChatRequest,
  index: number,
  turn: FakeTurnFields,
  message: { content: string | null; tool_calls?: unknown[] },
  naturalFinish: string,
): Record<string, unknown> {
  const wireMessage: Record<string, unknown> = { role: 'assistant', ...message };
  if (turn.reasoning !== undefined) wireMessage.reasoning = turn.reasoning;
  if (turn.reasoningContent !== undefined) wireMessage.reasoning_content = turn.reasoningContent;
  const usage = turn.usage ?? {
    promptTokens: estimateTokens(JSON.stringify(request.messages)),
    completionTokens: estimateTokens(JSON.stringify(message) + (turn.reasoning ?? '') + (turn.reasoningContent ?? '')),
  };
  return {
    id: `chatcmpl-fake-${index}`,
    object: 'chat.completion',
    // Fixed so that identical requests give byte-identical responses.
    created: 0,
    model: request.model,
    choices: [{ index: 0, message: wireMessage, finish_reason: turn.finishReason ?? naturalFinish, logprobs: null }],
    usage: {
      prompt_tokens: usage.promptTokens,
      completion_tokens: usage.completionTokens,
      total_tokens: usage.promptTokens + usage.completionTokens,
    },
  };
}

function argumentsText(call: FakeToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}

/** Renders a call the way a chat template writes it when the server does not parse it out. */
function renderToolCallText(call: FakeToolCall, format: 'hermes' | 'qwen3_coder'): string {
  const parsed = typeof call.arguments === 'string' ? parseJson(call.arguments) : { ok: true as const, value: call.arguments };
  if (format === 'hermes') {
    const args = parsed.ok ? JSON.stringify(parsed.value) : call.arguments;
    return `<tool_call>\n{"name": ${JSON.stringify(call.name)}, "arguments": ${String(args)}}\n</tool_call>`;
  }
  const params = parsed.ok && isRecord(parsed.value) ? Object.entries(parsed.value) : [];
  const body = params
    .map(([key, value]) => `<parameter=${key}>\n${typeof value === 'string' ? value : JSON.stringify(value)}\n</parameter>`)
    .join('\n');
  return `<tool_call>\n<function=${call.name}>\n${body}\n</function>\n</tool_call>`;
}

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function invalidRequest(message: string): Record<string, unknown> {
  return { error: { message, type: 'invalid_request_error', code: 400 } };
}

function sendBody(res: http.ServerResponse, status: number, body: string | Record<string, unknown>, headers: Record<string, string> = {}): void {
  if (typeof body === 'string') {
    send(res, status, body, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  } else {
    sendJson(res, status, body, headers);
  }
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  send(res, status, JSON.stringify(body), { 'content-type': 'application/json', ...headers });
}

function send(res: http.ServerResponse, status: number, text: string, headers: Record<string, string>): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error(`request body larger than ${MAX_BODY_BYTES} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: describe(error) };
  }
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value !== undefined) flat[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
