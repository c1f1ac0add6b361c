/**
 * What the OpenAI-compatible adapter makes of a response body read by {@link HttpExchange} under the
 * `max_body_bytes` cap: a 2xx body's JSON, or the error that says what came back (a body over the cap, one
 * cut short by a dropped connection, one that is not JSON), and the server's message in an error body of any
 * common shape. A body cut short on the way is retried like a transport error; a web page or other text,
 * which that address will always answer, is not.
 */
import { ModelCallError } from './chat-model.js';
import type { HttpExchangeResult } from './http-exchange.js';
import { isRecord } from './wire-format.js';

/** Error bodies (non-2xx) are read only this far: the message is at the start, the status says the rest. */
export const ERROR_BODY_BYTES = 64 * 1024;

/** How much of a body an error message quotes. */
const FIRST_CHARS = 200;

/** The JSON of a 2xx body read under `maxBodyBytes`; throws the ModelCallError that says what came back. */
export function okBodyJson(result: HttpExchangeResult, url: string, maxBodyBytes: number): unknown {
  const text = result.bytes.toString('utf8');
  if (result.over) {
    throw new ModelCallError({
      message:
        `Response from ${url} (HTTP ${result.status}) is larger than max_body_bytes=${maxBodyBytes}: reading stopped after ` +
        `${result.total} bytes. Raise the cap with the SPEC option max_body_bytes=<bytes> if such answers are expected. First bytes: ${firstChars(text)}`,
      status: result.status,
      failure: 'response_too_large',
      limit: { limit: 'max_body_bytes', cap: maxBodyBytes, actual: result.total },
    });
  }
  if (result.error !== undefined) {
    throw new ModelCallError({
      message: `Connection to ${url} was closed after ${result.total} bytes of the response body (HTTP ${result.status}; ${describeCause(result.error)}). First bytes: ${firstChars(text)}`,
      status: result.status,
      failure: 'connection_lost',
      retryable: true,
      cause: result.error,
    });
  }
  const encoding = String(result.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && encoding !== '') {
    throw new ModelCallError({
      message: `Malformed response from ${url} (HTTP ${result.status}): the body is compressed (content-encoding: ${encoding}) although the request asked for none (accept-encoding: identity); the server or a proxy in front of it must send it uncompressed.`,
      status: result.status,
      failure: 'malformed_response',
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    // A body that starts like JSON (or is empty) and does not parse was cut short on the way: worth another
    // attempt. A web page or other text is what that address always answers: not.
    const contentType = result.headers['content-type'] ?? '';
    const looksLikeJson = text.trim() === '' || /^\s*[[{]/.test(text) || /json/i.test(contentType);
    throw new ModelCallError({
      message: `Malformed response from ${url} (HTTP ${result.status}, ${result.total} bytes): the body is not valid JSON (${describeCause(cause)}). First bytes: ${firstChars(text)}`,
      status: result.status,
      failure: 'malformed_response',
      retryable: looksLikeJson,
      cause,
    });
  }
}

/** The server's message in a non-2xx body (read under {@link ERROR_BODY_BYTES}), and the body as read. */
export function errorBodyMessage(result: HttpExchangeResult): { serverMessage: string | undefined; raw: string } {
  const text = result.bytes.toString('utf8');
  const raw = result.over || result.error !== undefined ? `${text}…` : text;
  return { serverMessage: extractServerMessage(raw), raw };
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
