/**
 * The fetch the OpenAI-compatible adapter gives the `openai` client. It reads every response body itself,
 * under the `max_body_bytes` cap, so that an endless or huge body is stopped while it streams in (the
 * client would buffer it whole), and it checks that a 2xx body is JSON before the client parses it, so a
 * body cut short by a proxy or a dropped connection is retried like a transport error and the final error
 * says what came back.
 *
 * The client wraps anything a fetch throws into its own connection errors (and calls it a timeout when the
 * text mentions one), so the failure is also left in a per-attempt {@link BodyFailure} slot, which the
 * adapter reads first. A 2xx body is parsed once, by the client; when that parse fails, the slot's
 * `unparsed` builds the error from what the fetch read.
 */
import { ModelCallError } from './chat-model.js';
import { isRecord } from './wire-format.js';

/** Where a failed body read leaves its classified error for the adapter. One per attempt. */
export interface BodyFailure {
  error?: ModelCallError;
  /** Set for a 2xx body: the error to throw when the client cannot parse it as JSON. */
  unparsed?: (cause: unknown) => ModelCallError;
}

/** Error bodies (non-2xx) are read only this far: the message is at the start, the status says the rest. */
export const ERROR_BODY_BYTES = 64 * 1024;

/** How much of a body an error message quotes. */
const FIRST_CHARS = 200;

export interface CappedFetchOptions {
  maxBodyBytes: number;
  /**
   * The slot for every call of this fetch. Left out, each call names its own with {@link withBodyFailure}
   * (one fetch, and one client, serving every attempt); a call that names none gets a slot no one reads.
   */
  failure?: BodyFailure;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
}

/** The RequestInit key under which a call carries its failure slot; a symbol, so no fetch reads it as an option. */
const FAILURE_SLOT = Symbol('body failure slot');

type InitWithSlot = RequestInit & { [FAILURE_SLOT]?: BodyFailure };

/** Request options (the `openai` client's `fetchOptions`) that give a call of a capped fetch its failure slot. */
export function withBodyFailure(failure: BodyFailure): RequestInit {
  const init: InitWithSlot = { [FAILURE_SLOT]: failure };
  return init;
}

/** The call's failure slot and its RequestInit without it, as the inner fetch gets it. */
function takeSlot(init: RequestInit | undefined, fallback: BodyFailure | undefined): { failure: BodyFailure; init: RequestInit | undefined } {
  const slot = (init as InitWithSlot | undefined)?.[FAILURE_SLOT];
  if (slot === undefined) return { failure: fallback ?? {}, init };
  const { [FAILURE_SLOT]: _slot, ...rest } = init as InitWithSlot;
  return { failure: slot, init: rest };
}

/**
 * A fetch whose responses come back fully read: 2xx bodies labelled as JSON; non-2xx bodies rewritten into
 * `{"error":{"message":…,"raw":…}}`, because the `openai` client only surfaces `body.error.message` while
 * servers also answer `{"message":…}` (vLLM), `{"detail":…}` (FastAPI) or plain text, and those messages
 * are what tells the user what is wrong.
 */
export function createCappedFetch(options: CappedFetchOptions): typeof fetch {
  const inner = options.fetch ?? fetch;
  return async (input: string | URL | Request, given?: RequestInit): Promise<Response> => {
    const { failure, init } = takeSlot(given, options.failure);
    const response = await inner(input, init);
    if (response.status === 204 || response.status === 205 || response.status === 304) return response;
    const url = requestURL(input);
    const fail = (error: ModelCallError): never => {
      failure.error = error;
      throw error;
    };
    const read = await readCapped(response, response.ok ? options.maxBodyBytes : Math.min(options.maxBodyBytes, ERROR_BODY_BYTES));
    if (read.error !== undefined && init?.signal?.aborted) throw read.error;
    const text = new TextDecoder().decode(read.bytes);
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    headers.set('content-type', 'application/json');

    if (!response.ok) {
      const raw = read.over || read.error !== undefined ? `${text}…` : text;
      return new Response(JSON.stringify({ error: { message: extractServerMessage(raw), raw } }), { status: response.status, statusText: response.statusText, headers });
    }
    if (read.over) {
      return fail(
        new ModelCallError({
          message:
            `Response from ${url} (HTTP ${response.status}) is larger than max_body_bytes=${options.maxBodyBytes}: reading stopped after ` +
            `${read.total} bytes. Raise the cap with the SPEC option max_body_bytes=<bytes> if such answers are expected. First bytes: ${firstChars(text)}`,
          status: response.status,
          failure: 'response_too_large',
          limit: { limit: 'max_body_bytes', cap: options.maxBodyBytes, actual: read.total },
        }),
      );
    }
    if (read.error !== undefined) {
      return fail(
        new ModelCallError({
          message: `Connection to ${url} was closed after ${read.total} bytes of the response body (HTTP ${response.status}; ${describeCause(read.error)}). First bytes: ${firstChars(text)}`,
          status: response.status,
          failure: 'connection_lost',
          retryable: true,
          cause: read.error,
        }),
      );
    }
    // A body that starts like JSON (or is empty) and does not parse was cut short on the way: worth another
    // attempt. A web page or other text is what that address always answers: not.
    const looksLikeJson = text.trim() === '' || /^\s*[[{]/.test(text) || /json/i.test(response.headers.get('content-type') ?? '');
    failure.unparsed = (cause) =>
      new ModelCallError({
        message: `Malformed response from ${url} (HTTP ${response.status}, ${read.total} bytes): the body is not valid JSON (${describeCause(cause)}). First bytes: ${firstChars(text)}`,
        status: response.status,
        failure: 'malformed_response',
        retryable: looksLikeJson,
        cause,
      });
    return new Response(text, { status: response.status, statusText: response.statusText, headers });
  };
}

interface CappedRead {
  /** The bytes kept: all of them, or the first `limit` when the body was longer. */
  bytes: Uint8Array;
  /** Bytes received before reading ended or stopped. */
  total: number;
  /** True when the body passed `limit` and reading was stopped (the stream is cancelled). */
  over: boolean;
  /** Set when the stream failed before its end (connection lost, aborted). */
  error?: unknown;
}

/** Reads a body chunk by chunk, cancelling the stream as soon as more than `limit` bytes have arrived. */
async function readCapped(response: Response, limit: number): Promise<CappedRead> {
  const body = response.body;
  if (body === null) return { bytes: new Uint8Array(0), total: 0, over: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        const keep = value.byteLength - (total - limit);
        if (keep > 0) chunks.push(value.subarray(0, keep));
        await reader.cancel().catch(() => undefined);
        return { bytes: Buffer.concat(chunks), total, over: true };
      }
      chunks.push(value);
    }
  } catch (error) {
    return { bytes: Buffer.concat(chunks), total, over: false, error };
  }
  return { bytes: Buffer.concat(chunks), total, over: false };
}

/** The human-readable error message inside an error body of any common shape. */
export function extractServerMessage(raw: string): string | undefined {
  const text = raw.trim();
  if (text === '') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return truncate(text, 500);
  }
  if (!isRecord(json)) return truncate(text, 500);
  const error = json.error;
  if (isRecord(error) && typeof error.message === 'string') return error.message;
  if (typeof error === 'string') return error;
  if (typeof json.message === 'string') return json.message;
  if (typeof json.detail === 'string') return json.detail;
  if (json.detail !== undefined) return truncate(JSON.stringify(json.detail), 500);
  return truncate(text, 500);
}

function requestURL(input: string | URL | Request): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

/** The start of a body, quoted as a JSON string so control characters and line breaks stay visible. */
function firstChars(text: string): string {
  return text.length === 0 ? '(empty body)' : `${JSON.stringify(text.slice(0, FIRST_CHARS))}${text.length > FIRST_CHARS ? '…' : ''}`;
}

function describeCause(error: unknown): string {
  const parts: string[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    parts.push(typeof code === 'string' && !current.message.includes(code) ? `${current.message} (${code})` : current.message);
    current = current.cause;
  }
  return parts.length === 0 ? String(error) : parts.join(': ');
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
