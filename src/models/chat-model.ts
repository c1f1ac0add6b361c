import type { ChatMessage, ToolCall, ToolSpec } from '../episode/index.js';

/** One request to a chat model. Sampling fields left undefined use the model's configured defaults. */
export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ToolSpec[];
  toolChoice?: 'auto' | 'required' | 'none';
  temperature?: number;
  maxTokens?: number;
  parallelToolCalls?: boolean;
  signal?: AbortSignal;
}

/** The assistant turn a model returned, with structured tool calls kept apart from text. */
export interface ChatResponse {
  message: { content: string | null; toolCalls: ToolCall[]; reasoning?: string };
  finishReason: string | null;
  usage: { promptTokens: number; completionTokens: number };
  /** Wall-clock time of the call in milliseconds (not rounded: the runtime subtracts it from the episode time), retries included. Never written into deterministic records. */
  latencyMs: number;
  /** The response caps that cut this turn (see `response-limits.ts`); absent when none did. */
  limits?: ResponseLimitHit[];
  /**
   * How many model requests stand behind this turn (a baseline strategy such as Self-Refine makes several
   * per turn; their usage is summed above). Absent: one.
   */
  calls?: number;
  /** What a baseline strategy did on this turn (its decision, the draft, the critique), for the record. */
  strategy?: Record<string, unknown>;
}

/**
 * The caps on what a model server may send. `max_body_bytes` stops reading the HTTP body; the others cut
 * the parsed assistant turn: content and reasoning are shortened, a call with oversized arguments is kept
 * only as a short head and never executed, calls past `max_tool_calls` are dropped.
 */
export const RESPONSE_LIMIT_NAMES = ['max_body_bytes', 'max_content_chars', 'max_reasoning_chars', 'max_tool_args_chars', 'max_tool_calls'] as const;
export type ResponseLimitName = (typeof RESPONSE_LIMIT_NAMES)[number];

/** One cap that bit: which, its value, and how much the server sent. */
export interface ResponseLimitHit {
  limit: ResponseLimitName;
  /** The configured cap. */
  cap: number;
  /**
   * What the server sent: characters of content/reasoning/arguments, tool calls in the turn, or for
   * `max_body_bytes` the bytes read before reading stopped (the body was at least that long).
   */
  actual: number;
  /** `max_tool_args_chars`: the 0-based position of the call in the turn. */
  call?: number;
}

/**
 * Anything that can play an assistant turn: an OpenAI-compatible server, a scripted model, a simulated
 * target. `simulated` is true for offline stand-ins so every output built from them can say so.
 */
export interface ChatModel {
  readonly label: string;
  readonly simulated: boolean;
  complete(request: ChatRequest): Promise<ChatResponse>;
  /**
   * Runs the adapter's own request and response code once on a canned reply, without calling the model,
   * so that the first episodes of a batch do not each wait while it is loaded and compiled. Never throws;
   * resolves to whether the canned reply came back as expected.
   */
  warmUp?(): Promise<boolean>;
  close?(): Promise<void>;
}

/**
 * What kind of failure a {@link ModelCallError} reports, so callers (retry, probe, CLI) can react without
 * matching message text. `http_status`: the server answered with a non-2xx status; `connection_refused`:
 * nothing listens at the address; `connection_lost`: the connection was reset or closed before a response;
 * `timeout`: no response within the request timeout; `network`: any other transport failure (DNS, TLS);
 * `malformed_response`: a 2xx answer that is not a chat completion; `response_too_large`: the body passed
 * the `max_body_bytes` cap and reading stopped; `aborted`: the caller's signal fired.
 */
export type ModelFailureKind =
  | 'http_status'
  | 'connection_refused'
  | 'connection_lost'
  | 'timeout'
  | 'network'
  | 'malformed_response'
  | 'response_too_large'
  | 'aborted';

/** A model call that failed after retries (network, HTTP status, malformed response). */
export class ModelCallError extends Error {
  readonly code = 'model_error' as const;
  readonly status: number | undefined;
  readonly retryable: boolean;
  /** Optional: the failure class, when the adapter knows it. */
  readonly failure: ModelFailureKind | undefined;
  /** Optional: the error message the server put in its response body, verbatim. */
  readonly serverMessage: string | undefined;
  /** Optional: how long the server asked us to wait (Retry-After), in milliseconds. */
  readonly retryAfterMs: number | undefined;
  /** Optional: how many attempts were made before giving up. */
  readonly attempts: number | undefined;
  /** Optional: the response cap that ended the call (`max_body_bytes`). */
  readonly limit: ResponseLimitHit | undefined;
  constructor(options: {
    message: string;
    status?: number;
    retryable?: boolean;
    cause?: unknown;
    failure?: ModelFailureKind;
    serverMessage?: string;
    retryAfterMs?: number;
    attempts?: number;
    limit?: ResponseLimitHit;
  }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ModelCallError';
    this.status = options.status;
    this.retryable = options.retryable ?? false;
    this.failure = options.failure;
    this.serverMessage = options.serverMessage;
    this.retryAfterMs = options.retryAfterMs;
    this.attempts = options.attempts;
    this.limit = options.limit;
  }
}

export function isModelCallError(value: unknown): value is ModelCallError {
  return value instanceof Error && (value as { code?: unknown }).code === 'model_error';
}
