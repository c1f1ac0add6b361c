import { ConfigError } from '../episode/index.js';
import { ModelCallError, isModelCallError } from './chat-model.js';

/**
 * How failed model calls are retried. A call is retried only when it throws a {@link ModelCallError}
 * marked `retryable` (the adapter sets that for 408, 409, 425, 429, 5xx and transport failures; see
 * {@link isRetryableStatus}); everything else is thrown at once.
 *
 * The wait before retry `n` (1-based) is the server's `Retry-After` when it sent one, capped at
 * `maxRetryAfterMs`; otherwise `min(maxDelayMs, baseDelayMs * 2^(n-1))`, shortened by a random share of
 * up to `jitterRatio` so that many clients hitting one server spread out.
 */
export interface RetryPolicy {
  /** Attempts in total, the first one included. 1 disables retries. Default 5. */
  maxAttempts: number;
  /** Backoff before the first retry. Default 1000 ms. */
  baseDelayMs: number;
  /** Upper bound of the exponential backoff. Default 30 s. */
  maxDelayMs: number;
  /** Upper bound of a server-requested wait (Retry-After). Default 60 s. */
  maxRetryAfterMs: number;
  /** Share of the backoff that jitter may remove, in [0, 1]. Default 0.25. */
  jitterRatio: number;
  /** Source of randomness in [0, 1) for jitter. Inject a constant in tests. */
  random: () => number;
  /** Waits `ms`; rejects when `signal` aborts. Inject a recorder in tests so they never sleep. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Wall clock in epoch milliseconds, used to read HTTP-date `Retry-After` values. */
  now: () => number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxAttempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
  jitterRatio: 0.25,
  random: Math.random,
  sleep: abortableSleep,
  now: Date.now,
});

/** Fills unset fields from {@link DEFAULT_RETRY_POLICY} and rejects nonsensical values. */
export function resolveRetryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY };
  for (const [key, value] of Object.entries(overrides) as [keyof RetryPolicy, unknown][]) {
    if (value !== undefined) (policy as unknown as Record<string, unknown>)[key] = value;
  }
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1) {
    throw new ConfigError({ message: `Retry maxAttempts must be an integer >= 1, got ${policy.maxAttempts}.`, field: 'retry.maxAttempts' });
  }
  for (const key of ['baseDelayMs', 'maxDelayMs', 'maxRetryAfterMs'] as const) {
    if (!Number.isFinite(policy[key]) || policy[key] < 0) {
      throw new ConfigError({ message: `Retry ${key} must be a number >= 0, got ${policy[key]}.`, field: `retry.${key}` });
    }
  }
  if (!(policy.jitterRatio >= 0 && policy.jitterRatio <= 1)) {
    throw new ConfigError({ message: `Retry jitterRatio must be within [0, 1], got ${policy.jitterRatio}.`, field: 'retry.jitterRatio' });
  }
  return policy;
}

/** HTTP statuses worth another attempt: request timeout, conflict/lock, too early, rate limit, server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 425 || status === 429 || (status >= 500 && status <= 599);
}

/**
 * Reads how long the server asked us to wait, in milliseconds: `retry-after-ms` first, then `Retry-After`
 * as delta-seconds (fractions allowed) or as an HTTP date relative to `nowMs`. Returns undefined when
 * neither header is present or parseable; a date in the past gives 0.
 */
export function parseRetryAfter(headers: Headers | Record<string, string | undefined> | undefined, nowMs: number): number | undefined {
  if (headers === undefined) return undefined;
  const get = (name: string): string | undefined => {
    if (headers instanceof Headers) return headers.get(name) ?? undefined;
    const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
    return entry?.[1];
  };
  const ms = get('retry-after-ms')?.trim();
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms)) return Number(ms);
  const value = get('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  // HTTP dates always name the month ("Wed, 21 Oct 2015 07:28:00 GMT"); this keeps "-1" from parsing as a year.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** The backoff before retry number `retry` (1-based) when the server gave no Retry-After. */
export function backoffDelayMs(retry: number, policy: RetryPolicy): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(exponential * (1 - policy.jitterRatio * policy.random()));
}

/** Reported before each wait, e.g. for a "retrying in 2 s" progress line. */
export interface RetryEvent {
  /** The attempt that just failed (1-based). */
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  /** True when the wait came from the server's Retry-After header. */
  fromRetryAfter: boolean;
  error: ModelCallError;
}

export interface RetryOptions {
  policy?: Partial<RetryPolicy>;
  signal?: AbortSignal;
  onRetry?: (event: RetryEvent) => void;
}

/**
 * Runs `operation` until it succeeds, throws something that is not a retryable ModelCallError, or runs
 * out of attempts. When attempts run out, throws a ModelCallError that keeps the last status and failure
 * kind, says how many attempts were made, and carries the last error as `cause`.
 */
export async function retryWithBackoff<T>(operation: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const policy = resolveRetryPolicy(options.policy);
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation(attempt);
    } catch (error) {
      if (!isModelCallError(error) || !error.retryable) throw error;
      if (attempt >= policy.maxAttempts) throw exhausted(error, attempt);
      const fromRetryAfter = error.retryAfterMs !== undefined;
      const delayMs = fromRetryAfter
        ? Math.min(Math.max(0, error.retryAfterMs ?? 0), policy.maxRetryAfterMs)
        : backoffDelayMs(attempt, policy);
      options.onRetry?.({ attempt, maxAttempts: policy.maxAttempts, delayMs, fromRetryAfter, error });
      try {
        await policy.sleep(delayMs, options.signal);
      } catch (cause) {
        throw new ModelCallError({
          message: `Model call aborted while waiting to retry (after attempt ${attempt}): ${error.message}`,
          failure: 'aborted',
          attempts: attempt,
          cause,
        });
      }
    }
  }
}

function exhausted(last: ModelCallError, attempts: number): ModelCallError {
  if (attempts === 1) return last;
  return new ModelCallError({
    message: `Model call failed after ${attempts} attempts; last error: ${last.message}`,
    status: last.status,
    retryable: true,
    failure: last.failure,
    serverMessage: last.serverMessage,
    attempts,
    ...(last.limit === undefined ? {} : { limit: last.limit }),
    cause: last,
  });
}

/** A setTimeout-based sleep that rejects as soon as `signal` aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
