/**
 * Caps on what a model server may send. A server is not trusted to be sane: one that answers with a 100 MB
 * `content`, an endless body, 20 MB of tool arguments or 20 000 tool calls in one turn must cost the run
 * one bounded turn, not the host's memory or the rest of the run. Each cap is a SPEC option of `openai:`
 * models (`max_body_bytes=…`, …) with the default below, and every cap that bites is reported with the
 * turn (`ChatResponse.limits`, or `ModelCallError.limit` for the body), so records and summaries say so.
 *
 * What happens when a cap bites:
 * - `max_body_bytes`: reading the HTTP body stops there and the call fails as a model_error
 *   (`response_too_large`, not retried: the same request gets the same answer).
 * - `max_content_chars`, `max_reasoning_chars`: the text is cut to the cap and the turn goes on, as if the
 *   server had stopped generating there.
 * - `max_tool_args_chars`: a call whose arguments (or name or id) are longer is kept only as a short head
 *   that says it was cut, and is answered as invalid arguments; it is never executed.
 * - `max_tool_calls`: the first N calls of the turn are kept and processed, the rest are dropped (the
 *   conversation then holds only the kept calls, so every call in it is answered).
 */
import { ConfigError } from '../episode/index.js';
import type { ToolCall } from '../episode/index.js';
import type { ChatResponse, ResponseLimitHit, ResponseLimitName } from './chat-model.js';

export interface ResponseLimits {
  /** Bytes of one HTTP response body (after content decoding). */
  maxBodyBytes: number;
  /** Characters of `message.content`. */
  maxContentChars: number;
  /** Characters of the reasoning field. */
  maxReasoningChars: number;
  /** Characters of one tool call's arguments (also its name and id). */
  maxToolArgsChars: number;
  /** Tool calls in one turn. */
  maxToolCalls: number;
}

/**
 * Far above anything a sane turn needs (a 12 288-token engineer answer is about 50 000 characters; agent
 * turns with max_tokens 4096 are a few kilobytes), far below what hurts the host.
 */
export const DEFAULT_RESPONSE_LIMITS: Readonly<ResponseLimits> = Object.freeze({
  maxBodyBytes: 16 * 1024 * 1024,
  maxContentChars: 262_144,
  maxReasoningChars: 262_144,
  maxToolArgsChars: 65_536,
  maxToolCalls: 16,
});

/** The SPEC option (and record name) of each cap. */
export const RESPONSE_LIMIT_OPTION: Readonly<Record<keyof ResponseLimits, ResponseLimitName>> = Object.freeze({
  maxBodyBytes: 'max_body_bytes',
  maxContentChars: 'max_content_chars',
  maxReasoningChars: 'max_reasoning_chars',
  maxToolArgsChars: 'max_tool_args_chars',
  maxToolCalls: 'max_tool_calls',
});

/** How much of an oversized tool call is kept in the conversation and the record, for diagnosis. */
export const CUT_TOOL_CALL_HEAD_CHARS = 200;

/** Fills unset caps from {@link DEFAULT_RESPONSE_LIMITS}; every cap must be a positive integer. */
export function resolveResponseLimits(overrides: Partial<ResponseLimits> = {}): ResponseLimits {
  const limits: ResponseLimits = { ...DEFAULT_RESPONSE_LIMITS };
  for (const key of Object.keys(RESPONSE_LIMIT_OPTION) as (keyof ResponseLimits)[]) {
    const value = overrides[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new ConfigError({ message: `${RESPONSE_LIMIT_OPTION[key]} must be a positive integer, got ${value}.`, field: `limits.${key}` });
    }
    limits[key] = value;
  }
  return limits;
}

/** One line per cap with its default, for help texts and docs. */
export function describeResponseLimits(limits: Readonly<ResponseLimits> = DEFAULT_RESPONSE_LIMITS): string[] {
  return [
    `max_body_bytes=${limits.maxBodyBytes}: bytes of one response body; reading stops there and the call fails as a model_error (not retried)`,
    `max_content_chars=${limits.maxContentChars}, max_reasoning_chars=${limits.maxReasoningChars}: longer text is cut to the cap and the turn goes on`,
    `max_tool_args_chars=${limits.maxToolArgsChars}: a tool call with longer arguments (or name or id) is answered as invalid arguments, never executed`,
    `max_tool_calls=${limits.maxToolCalls}: calls past the first ${limits.maxToolCalls} of a turn are dropped`,
  ];
}

type TurnMessage = ChatResponse['message'];

/**
 * Applies the per-turn caps to a parsed assistant turn. Returns the turn to use and the caps that bit, in a
 * fixed order (content, reasoning, tool-call count, then each cut call by position). Pure.
 */
export function applyResponseLimits(message: TurnMessage, limits: Readonly<ResponseLimits>): { message: TurnMessage; hits: ResponseLimitHit[] } {
  const hits: ResponseLimitHit[] = [];
  let content = message.content;
  if (content !== null && content.length > limits.maxContentChars) {
    hits.push({ limit: 'max_content_chars', cap: limits.maxContentChars, actual: content.length });
    content = cutText(content, limits.maxContentChars);
  }
  let reasoning = message.reasoning;
  if (reasoning !== undefined && reasoning.length > limits.maxReasoningChars) {
    hits.push({ limit: 'max_reasoning_chars', cap: limits.maxReasoningChars, actual: reasoning.length });
    reasoning = cutText(reasoning, limits.maxReasoningChars);
  }
  let toolCalls = message.toolCalls;
  if (toolCalls.length > limits.maxToolCalls) {
    hits.push({ limit: 'max_tool_calls', cap: limits.maxToolCalls, actual: toolCalls.length });
    toolCalls = toolCalls.slice(0, limits.maxToolCalls);
  }
  toolCalls = toolCalls.map((call, index) => {
    const size = Math.max(call.arguments.length, call.name.length, call.id.length);
    if (size <= limits.maxToolArgsChars) return call;
    hits.push({ limit: 'max_tool_args_chars', cap: limits.maxToolArgsChars, actual: size, call: index });
    return cutToolCall(call, size, limits.maxToolArgsChars);
  });
  if (hits.length === 0) return { message, hits };
  return { message: { content, toolCalls, ...(reasoning === undefined ? {} : { reasoning }) }, hits };
}

/**
 * An oversized call as it is kept: the heads of its id and name, and arguments that are the head followed
 * by a note. The note starts with a character no JSON text may continue with and holds no quote, so the
 * kept arguments never parse, whatever the head was; the loops also refuse the call explicitly.
 */
function cutToolCall(call: ToolCall, size: number, cap: number): ToolCall {
  const note = `…[cut by harness-r1: ${size} characters, over max_tool_args_chars=${cap}; not executed]`;
  return {
    id: cutText(call.id, CUT_TOOL_CALL_HEAD_CHARS),
    name: cutText(call.name, CUT_TOOL_CALL_HEAD_CHARS),
    arguments: `${cutText(call.arguments, CUT_TOOL_CALL_HEAD_CHARS)}${note}`,
  };
}

/** The first `max` UTF-16 units of `text`, one fewer when the cut would split a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return text.slice(0, end);
}
