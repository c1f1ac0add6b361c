/**
 * The ChatModel adapter for OpenAI-compatible chat servers (vLLM, SGLang, llama.cpp `llama-server`, Ollama's
 * `/v1`, hosted APIs): non-streaming `POST <baseURL>/chat/completions` and `GET <baseURL>/models`, sent by
 * {@link HttpExchange} (keep-alive `node:http`; see there why not the `openai` client, whose request types
 * the wire format still uses). {@link retryWithBackoff} does the retries, so every failure is classified
 * the same way. Bodies are read under `max_body_bytes` and turns cut by {@link applyResponseLimits}, so no
 * server can send more than the caps allow.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { ConfigError } from '../episode/index.js';
import { trimEndOf } from '../python/text-scan.js';
import { ModelCallError, isModelCallError } from './chat-model.js';
import type { ChatModel, ChatRequest, ChatResponse, ModelFailureKind } from './chat-model.js';
import { HttpExchange, type HttpExchangeResult } from './http-exchange.js';
import { ERROR_BODY_BYTES, errorBodyMessage, okBodyJson } from './response-body.js';
import { applyResponseLimits, resolveResponseLimits, type ResponseLimits } from './response-limits.js';
import { isRetryableStatus, parseRetryAfter, resolveRetryPolicy, retryWithBackoff } from './retry.js';
import type { RetryEvent, RetryPolicy } from './retry.js';
import { REASONING_FIELDS, fromWireToolCalls, isRecord, readReasoning, toWireMessage, toWireTools } from './wire-format.js';
import type { ReasoningField } from './wire-format.js';

/** Per-server settings. Request fields (temperature, max tokens, tool choice) override the defaults here. */
export interface OpenAICompatibleModelOptions {
  /** Base URL including the API prefix, e.g. `http://localhost:8000/v1`. */
  baseURL: string;
  /** Model name as the server knows it (vLLM's `--served-model-name`, Ollama's `qwen3:8b`, ...). */
  model: string;
  /** Where the API key is read from. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /**
   * Name of the variable holding the API key. Default `OPENAI_API_KEY`; when that default is unset a dummy
   * key (`EMPTY`) is sent, which local servers accept. A variable named explicitly must be set.
   */
  apiKeyEnv?: string;
  temperature?: number;
  /** Sent as `max_tokens`. */
  maxTokens?: number;
  /** Sent only when the request offers tools. */
  toolChoice?: 'auto' | 'required' | 'none';
  /** Sent only when the request offers tools. */
  parallelToolCalls?: boolean;
  /** Sent as `chat_template_kwargs` (vLLM, SGLang), e.g. `{ enable_thinking: false }`. */
  chatTemplateKwargs?: Record<string, unknown>;
  /**
   * Further body fields passed through verbatim (`top_p`, `top_k`, `seed`, `repetition_penalty`, ...). Fields
   * that have their own option above, and `model`/`messages`/`tools`/`stream`, are rejected.
   */
  extraBody?: Record<string, unknown>;
  /** Which response field carries reasoning. Default `auto` (`reasoning`, else `reasoning_content`). */
  reasoningField?: ReasoningField;
  /**
   * When the last message is an assistant message, ask the server to continue it (vLLM:
   * `continue_final_message: true, add_generation_prompt: false`). The response holds the continuation only.
   */
  continueFinalMessage?: boolean;
  /** Per-attempt timeout. Default 600 000 ms. */
  timeoutMs?: number;
  /** Retry policy overrides (attempts, delays; sleep/clock/random for tests). */
  retry?: Partial<RetryPolicy>;
  /** Caps on what the server may send; unset ones keep {@link DEFAULT_RESPONSE_LIMITS}. */
  limits?: Partial<ResponseLimits>;
  /** Called before each retry wait. */
  onRetry?: (event: RetryEvent) => void;
  /** Default `openai:<baseURL>#<model>`. */
  label?: string;
}

/** The adapter also exposes what it talks to, for diagnostics such as the tool-call probe. */
export interface OpenAICompatibleModel extends ChatModel {
  readonly endpoint: { baseURL: string; model: string };
  /** Model ids from `GET <baseURL>/models`. Throws ModelCallError like `complete`. */
  listModels(signal?: AbortSignal): Promise<string[]>;
  warmUp(): Promise<boolean>;
  /** Closes the idle keep-alive connections (they never keep the process alive). */
  close(): Promise<void>;
}

export const DEFAULT_API_KEY_ENV = 'OPENAI_API_KEY';
/** Sent when no key is configured; vLLM, SGLang, llama.cpp and Ollama ignore it unless started with a key. */
export const DUMMY_API_KEY = 'EMPTY';
export const DEFAULT_TIMEOUT_MS = 600_000;

const RESERVED_BODY_FIELDS: Record<string, string> = {
  model: 'model',
  messages: 'the request messages',
  tools: 'the request tools',
  stream: 'nothing (the adapter is non-streaming)',
  temperature: 'temperature',
  max_tokens: 'maxTokens',
  tool_choice: 'toolChoice',
  parallel_tool_calls: 'parallelToolCalls',
  chat_template_kwargs: 'chatTemplateKwargs',
};

export function createOpenAICompatibleModel(options: OpenAICompatibleModelOptions): OpenAICompatibleModel {
  const settings = validateOptions(options);
  const baseURL = trimEndOf(settings.baseURL, '/');
  const chatURL = `${baseURL}/chat/completions`;
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const reasoningField = settings.reasoningField ?? 'auto';
  const retryPolicy = resolveRetryPolicy(settings.retry);
  const limits = resolveResponseLimits(settings.limits);

  const exchange = new HttpExchange();
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json',
    // Bodies are read and capped as they arrive: asked uncompressed (a compressed one is refused by okBodyJson).
    'accept-encoding': 'identity',
    authorization: `Bearer ${resolveApiKey(settings)}`,
    'user-agent': 'harness-r1',
  };
  const caps = { okBodyBytes: limits.maxBodyBytes, errorBodyBytes: Math.min(limits.maxBodyBytes, ERROR_BODY_BYTES) };

  const context: CallContext = { baseURL, model: settings.model, timeoutMs, now: retryPolicy.now };
  const modelsURL = `${baseURL}/models`;
  // Each endpoint parsed once; messages name it as configured.
  const chatTarget = { url: new URL(chatURL), name: chatURL };
  const modelsTarget = { url: new URL(modelsURL), name: modelsURL };

  /** One attempt: its own timer covers the connection, the headers and the body; any failure becomes a ModelCallError. */
  const send = async (target: { url: URL; name: string }, method: 'GET' | 'POST', body: string | undefined, signal: AbortSignal | undefined): Promise<unknown> => {
    const attempt = attemptSignal(timeoutMs, signal);
    try {
      const result = await exchange.send(target.url, { method, headers, ...(body === undefined ? {} : { body }), signal: attempt.signal, ...caps });
      return answerOf(result, context, target.name, limits.maxBodyBytes);
    } catch (error) {
      if (attempt.timedOut() && !signal?.aborted) throw timeoutError(context, target.name, error);
      throw toModelCallError(error, context, target.name, signal);
    } finally {
      attempt.done();
    }
  };

  return {
    label: settings.label ?? `openai:${baseURL}#${settings.model}`,
    simulated: false,
    endpoint: { baseURL, model: settings.model },

    async complete(request: ChatRequest): Promise<ChatResponse> {
      const body = buildBody(settings, request);
      const started = performance.now();
      const text = JSON.stringify(body);
      const completion = await retryWithBackoff(
        async () => {
          return send(chatTarget, 'POST', text, request.signal);
        },
        { policy: retryPolicy, signal: request.signal, onRetry: settings.onRetry },
      );
      const response = parseCompletion(completion, reasoningField, performance.now() - started, chatURL);
      const { message, hits } = applyResponseLimits(response.message, limits);
      return hits.length === 0 ? response : { ...response, message, limits: hits };
    },

    warmUp: () => warmUpClient(settings, headers, limits, reasoningField),

    async listModels(signal?: AbortSignal): Promise<string[]> {
      const page = await send(modelsTarget, 'GET', undefined, signal);
      const data = isRecord(page) ? page.data : undefined;
      if (!Array.isArray(data)) {
        throw new ModelCallError({ message: `Malformed response from ${modelsURL}: no 'data' list of models. Got: ${snippet(page)}`, failure: 'malformed_response' });
      }
      return data.flatMap((entry) => (isRecord(entry) && typeof entry.id === 'string' ? [entry.id] : []));
    },

    close: async () => exchange.close(),
  };
}

/**
 * A finished exchange as the server's JSON answer, or the ModelCallError that says what went wrong: a status
 * other than 2xx (with the server's message, Retry-After and x-should-retry), a body over the cap, cut short
 * or not JSON.
 */
function answerOf(result: HttpExchangeResult, context: CallContext, url: string, maxBodyBytes: number): unknown {
  if (result.status >= 200 && result.status < 300) return okBodyJson(result, url, maxBodyBytes);
  const { status, headers } = result;
  const { serverMessage } = errorBodyMessage(result);
  const location = status >= 300 && status < 400 ? headerOf(headers, 'location') : undefined;
  const said = serverMessage ?? (location === undefined ? 'no error message in the response body' : `redirected to ${location}; give that address as the base URL (redirects are not followed)`);
  throw new ModelCallError({
    message: `HTTP ${status} from ${url} (model '${context.model}'): ${said}`,
    status,
    retryable: isRetryableStatus(status) && headerOf(headers, 'x-should-retry') !== 'false',
    failure: 'http_status',
    serverMessage,
    retryAfterMs: parseRetryAfter({ 'retry-after': headerOf(headers, 'retry-after'), 'retry-after-ms': headerOf(headers, 'retry-after-ms') }, context.now()),
  });
}

function headerOf(headers: HttpExchangeResult['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The request of the warm-up: the parts a real turn has (system, user, assistant tool call, tool reply, a tool). */
const WARM_UP_REQUEST: ChatRequest = {
  messages: [
    { role: 'system', content: 'warm-up' },
    { role: 'user', content: 'warm-up' },
    { role: 'assistant', content: null, toolCalls: [{ id: 'call_0', name: 'warm_up', arguments: '{"step":0}' }] },
    { role: 'tool', content: 'warm-up', toolCallId: 'call_0' },
  ],
  tools: [{ name: 'warm_up', description: 'warm-up', parameters: { type: 'object', properties: { step: { type: 'integer' } } } }],
};

/** The canned reply of the warm-up, as servers send a completion: content, a tool call, usage. */
const WARM_UP_REPLY = JSON.stringify({
  id: 'warm-up', object: 'chat.completion', created: 0, model: 'warm-up',
  choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: 'warm-up', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'warm_up', arguments: '{"step":1}' } }] } }],
  usage: { prompt_tokens: 1, completion_tokens: 1 },
});

/**
 * One call's whole path (the body and its text, a keep-alive `node:http` exchange, the capped body read, the
 * JSON parse, the completion's parse, the response caps) against a server of its own on the loopback
 * interface that answers a canned completion, so nothing reaches the target's server. In a fresh process
 * this compiles the path before a batch's first wave, whose episodes otherwise wait for it: a CPU profile of
 * the first wave showed about 25 ms of Node's HTTP client compiling on its first requests.
 */
async function warmUpClient(settings: OpenAICompatibleModelOptions, headers: Record<string, string>, limits: ResponseLimits, reasoningField: ReasoningField): Promise<boolean> {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(WARM_UP_REPLY);
    });
  });
  const exchange = new HttpExchange();
  const attempt = attemptSignal(WARM_UP_TIMEOUT_MS, undefined);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    const { port } = server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/v1/chat/completions`;
    const body = JSON.stringify(buildBody(settings, WARM_UP_REQUEST));
    const result = await exchange.send(new URL(url), { method: 'POST', headers, body, signal: attempt.signal, okBodyBytes: limits.maxBodyBytes, errorBodyBytes: ERROR_BODY_BYTES });
    const completion = okBodyJson(result, url, limits.maxBodyBytes);
    const { message } = applyResponseLimits(parseCompletion(completion, reasoningField, 0, url).message, limits);
    return message.content === 'warm-up' && message.toolCalls.length === 1 && message.toolCalls[0]!.name === 'warm_up';
  } catch {
    return false;
  } finally {
    attempt.done();
    exchange.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** The warm-up's own bound: it is answered by this process at once, so this is only a backstop. */
const WARM_UP_TIMEOUT_MS = 5000;

function validateOptions(options: OpenAICompatibleModelOptions): OpenAICompatibleModelOptions {
  let url: URL;
  try {
    url = new URL(options.baseURL);
  } catch {
    throw new ConfigError({ message: `Base URL '${options.baseURL}' is not a URL (expected e.g. http://localhost:8000/v1).`, field: 'baseURL' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError({ message: `Base URL '${options.baseURL}' must use http or https.`, field: 'baseURL', allowed: ['http', 'https'] });
  }
  if (options.model.trim() === '') throw new ConfigError({ message: 'Model name is empty.', field: 'model' });
  if (options.temperature !== undefined && !(Number.isFinite(options.temperature) && options.temperature >= 0)) {
    throw new ConfigError({ message: `temperature must be a number >= 0, got ${options.temperature}.`, field: 'temperature' });
  }
  if (options.maxTokens !== undefined && !(Number.isInteger(options.maxTokens) && options.maxTokens > 0)) {
    throw new ConfigError({ message: `maxTokens must be a positive integer, got ${options.maxTokens}.`, field: 'maxTokens' });
  }
  if (options.timeoutMs !== undefined && !(Number.isInteger(options.timeoutMs) && options.timeoutMs > 0)) {
    throw new ConfigError({ message: `timeoutMs must be a positive integer, got ${options.timeoutMs}.`, field: 'timeoutMs' });
  }
  if (options.reasoningField !== undefined && !REASONING_FIELDS.includes(options.reasoningField)) {
    throw new ConfigError({ message: `Unknown reasoningField '${String(options.reasoningField)}'.`, field: 'reasoningField', allowed: REASONING_FIELDS });
  }
  for (const key of Object.keys(options.extraBody ?? {})) {
    const owner = RESERVED_BODY_FIELDS[key];
    if (owner !== undefined) {
      throw new ConfigError({ message: `extraBody must not set '${key}'; it is controlled by ${owner}.`, field: `extraBody.${key}` });
    }
  }
  return options;
}

function resolveApiKey(options: OpenAICompatibleModelOptions): string {
  const env = options.env ?? process.env;
  const name = options.apiKeyEnv ?? DEFAULT_API_KEY_ENV;
  const value = env[name];
  if (value !== undefined && value !== '') return value;
  if (options.apiKeyEnv !== undefined && options.apiKeyEnv !== DEFAULT_API_KEY_ENV) {
    throw new ConfigError({ message: `Environment variable ${name} (named as the API key variable) is not set.`, field: 'apiKeyEnv' });
  }
  return DUMMY_API_KEY;
}

function buildBody(options: OpenAICompatibleModelOptions, request: ChatRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: options.model,
    messages: request.messages.map(toWireMessage),
  };
  const temperature = request.temperature ?? options.temperature;
  if (temperature !== undefined) body.temperature = temperature;
  const maxTokens = request.maxTokens ?? options.maxTokens;
  if (maxTokens !== undefined) body.max_tokens = maxTokens;
  if (request.tools !== undefined && request.tools.length > 0) {
    body.tools = toWireTools(request.tools);
    const toolChoice = request.toolChoice ?? options.toolChoice;
    if (toolChoice !== undefined) body.tool_choice = toolChoice;
    const parallel = request.parallelToolCalls ?? options.parallelToolCalls;
    if (parallel !== undefined) body.parallel_tool_calls = parallel;
  }
  if (options.chatTemplateKwargs !== undefined) body.chat_template_kwargs = options.chatTemplateKwargs;
  if (options.continueFinalMessage && request.messages.at(-1)?.role === 'assistant') {
    body.continue_final_message = true;
    body.add_generation_prompt = false;
  }
  Object.assign(body, options.extraBody);
  return body;
}

/**
 * One attempt's abort signal: aborted with a TimeoutError after `timeoutMs`, or with the caller's reason when
 * `outer` aborts. Works as `AbortSignal.any([outer, AbortSignal.timeout(timeoutMs)])` does, with one
 * controller and one timer that `done()` clears when the attempt ends (creating those two signals was among a
 * call's largest costs of its own in a CPU profile, and their timer outlived the call).
 */
function attemptSignal(timeoutMs: number, outer: AbortSignal | undefined): { signal: AbortSignal; timedOut(): boolean; done(): void } {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, timeoutMs);
  timer.unref();
  const onOuterAbort = (): void => controller.abort(outer!.reason);
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    },
  };
}

function parseCompletion(completion: unknown, reasoningField: ReasoningField, latencyMs: number, url: string): ChatResponse {
  const malformed = (what: string): ModelCallError =>
    new ModelCallError({
      message: `Malformed response from ${url}: ${what}. Got: ${snippet(completion)}`,
      failure: 'malformed_response',
    });
  if (!isRecord(completion)) throw malformed('not a JSON object');
  if (!Array.isArray(completion.choices) || completion.choices.length === 0) throw malformed('no choices');
  const choice: unknown = completion.choices[0];
  if (!isRecord(choice) || !isRecord(choice.message)) throw malformed('choices[0].message missing');
  const message = choice.message;
  const reasoning = readReasoning(message, reasoningField);
  const usage = isRecord(completion.usage) ? completion.usage : {};
  return {
    message: {
      content: typeof message.content === 'string' ? message.content : null,
      toolCalls: fromWireToolCalls(message.tool_calls),
      ...(reasoning === undefined ? {} : { reasoning }),
    },
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
    usage: {
      promptTokens: typeof usage.prompt_tokens === 'number' ? usage.prompt_tokens : 0,
      completionTokens: typeof usage.completion_tokens === 'number' ? usage.completion_tokens : 0,
    },
    latencyMs,
  };
}

interface CallContext {
  baseURL: string;
  model: string;
  timeoutMs: number;
  now: () => number;
}

/** Classifies anything a call threw (a transport error, an abort, a ModelCallError) into a ModelCallError saying what happened. */
function toModelCallError(error: unknown, context: CallContext, url: string, signal: AbortSignal | undefined): ModelCallError {
  if (isModelCallError(error)) return error;
  if (signal?.aborted) {
    return new ModelCallError({ message: `Request to ${url} was aborted by the caller.`, failure: 'aborted', cause: error });
  }
  if (!(error instanceof Error)) return new ModelCallError({ message: `Calling ${url} failed: ${String(error)}`, failure: 'network', cause: error });
  const { failure, code } = classifyTransportError(error);
  const inner = innermostMessage(error);
  const detail = code === undefined || inner.includes(code) ? inner : `${inner}, ${code}`;
  const permanent = isPermanentTransportError(code);
  const explanation: Record<Exclude<ModelFailureKind, 'http_status' | 'malformed_response' | 'response_too_large' | 'aborted'>, string> = {
    connection_refused: `Cannot connect to ${context.baseURL}: connection refused (${detail}). Is the server running on that host and port?`,
    connection_lost: `Connection to ${url} was closed before a response arrived (${detail}).`,
    timeout: `Timed out connecting to ${url} (${detail}).`,
    network: `Network error calling ${url}: ${detail}.`,
  };
  const message = permanent ? `${explanation[failure]} Not retried: this error does not go away by waiting.` : explanation[failure];
  return new ModelCallError({ message, failure, retryable: !permanent, cause: error });
}

function timeoutError(context: CallContext, url: string, cause: unknown): ModelCallError {
  return new ModelCallError({
    message: `No response from ${url} within ${context.timeoutMs} ms (request timeout).`,
    failure: 'timeout',
    retryable: true,
    cause,
  });
}

const REFUSED_CODES = new Set(['ECONNREFUSED']);
const LOST_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED']);
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Host names that do not resolve (not a temporary DNS failure such as EAI_AGAIN). */
const UNKNOWN_HOST_CODES = new Set(['ENOTFOUND']);

/**
 * Transport failures that a retry cannot change: nothing listens at the address, or the host name does not
 * exist. They fail at once instead of being retried.
 */
function isPermanentTransportError(code: string | undefined): boolean {
  return code !== undefined && (REFUSED_CODES.has(code) || UNKNOWN_HOST_CODES.has(code));
}

function classifyTransportError(error: Error): { failure: 'connection_refused' | 'connection_lost' | 'timeout' | 'network'; code: string | undefined } {
  for (const code of causeCodes(error)) {
    if (REFUSED_CODES.has(code)) return { failure: 'connection_refused', code };
    if (LOST_CODES.has(code)) return { failure: 'connection_lost', code };
    if (TIMEOUT_CODES.has(code)) return { failure: 'timeout', code };
  }
  return { failure: 'network', code: causeCodes(error)[0] };
}

function causeCodes(error: unknown): string[] {
  const codes: string[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    if (current instanceof AggregateError) {
      for (const inner of current.errors) codes.push(...causeCodes(inner));
    }
    current = current.cause;
  }
  return codes;
}

function innermostMessage(error: Error): string {
  let current: unknown = error;
  let message = error.message;
  const seen = new Set<unknown>();
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    if (current.message !== '') message = current.message;
    current = current.cause;
  }
  return message;
}

function snippet(value: unknown): string {
  return truncate(typeof value === 'string' ? value : JSON.stringify(value) ?? String(value), 200);
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
