import { describe, expect, it } from 'vitest';

import { ConfigError } from '../episode/index.js';
import { ModelCallError } from './chat-model.js';
import {
  abortableSleep,
  backoffDelayMs,
  isRetryableStatus,
  parseRetryAfter,
  resolveRetryPolicy,
  retryWithBackoff,
} from './retry.js';
import type { RetryEvent } from './retry.js';

function recordingSleep(): { sleeps: number[]; sleep: (ms: number) => Promise<void> } {
  const sleeps: number[] = [];
  return { sleeps, sleep: async (ms: number) => void sleeps.push(ms) };
}

const transient = (extra: Partial<ConstructorParameters<typeof ModelCallError>[0]> = {}): ModelCallError =>
  new ModelCallError({ message: 'HTTP 503 from server', status: 503, retryable: true, failure: 'http_status', ...extra });

describe('isRetryableStatus', () => {
  it('retries 408, 409, 425, 429 and 5xx only', () => {
    for (const status of [408, 409, 425, 429, 500, 502, 503, 504, 599]) expect(isRetryableStatus(status)).toBe(true);
    for (const status of [200, 400, 401, 403, 404, 405, 413, 422, 600]) expect(isRetryableStatus(status)).toBe(false);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('reads delta-seconds, including fractions', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(parseRetryAfter(new Headers({ 'retry-after': '0.5' }), now)).toBe(500);
  });

  it('reads an HTTP date relative to the clock, and a past date as 0', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:07 GMT' }), now)).toBe(7000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' }), now)).toBe(0);
  });

  it('prefers retry-after-ms and accepts a plain record with any header case', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(parseRetryAfter({ 'Retry-After': '2' }, now)).toBe(2000);
  });

  it('ignores absent or unparseable values', () => {
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after': '-1' }), now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('backoffDelayMs', () => {
  it('doubles from the base delay up to the maximum', () => {
    const policy = resolveRetryPolicy({ baseDelayMs: 100, maxDelayMs: 1000, random: () => 0 });
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelayMs(n, policy))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it('removes at most jitterRatio of the delay', () => {
    const policy = resolveRetryPolicy({ baseDelayMs: 1000, jitterRatio: 0.25, random: () => 0.999999 });
    expect(backoffDelayMs(1, policy)).toBe(750);
    expect(backoffDelayMs(1, { ...policy, random: () => 0.5 })).toBe(875);
  });
});

describe('resolveRetryPolicy', () => {
  it('rejects nonsensical values with a ConfigError naming the field', () => {
    expect(() => resolveRetryPolicy({ maxAttempts: 0 })).toThrow(ConfigError);
    expect(() => resolveRetryPolicy({ maxAttempts: 1.5 })).toThrow(/maxAttempts/);
    expect(() => resolveRetryPolicy({ baseDelayMs: -1 })).toThrow(/baseDelayMs/);
    expect(() => resolveRetryPolicy({ jitterRatio: 2 })).toThrow(/jitterRatio/);
  });
});

describe('retryWithBackoff', () => {
  it('retries retryable failures with exponential backoff, then succeeds', async () => {
    const { sleeps, sleep } = recordingSleep();
    const events: RetryEvent[] = [];
    let calls = 0;
    const result = await retryWithBackoff(
      async (attempt) => {
        calls++;
        if (attempt < 3) throw transient();
        return 'ok';
      },
      { policy: { baseDelayMs: 100, random: () => 0, sleep }, onRetry: (event) => events.push(event) },
    );
    expect(result).toBe('ok');
    expect(calls).toBe(3);
    expect(sleeps).toEqual([100, 200]);
    expect(events.map((e) => [e.attempt, e.delayMs, e.fromRetryAfter])).toEqual([
      [1, 100, false],
      [2, 200, false],
    ]);
  });

  it("waits the server's Retry-After instead of the backoff, capped", async () => {
    const { sleeps, sleep } = recordingSleep();
    let calls = 0;
    await retryWithBackoff(
      async () => {
        calls++;
        if (calls === 1) throw transient({ status: 429, retryAfterMs: 4000 });
        if (calls === 2) throw transient({ status: 429, retryAfterMs: 3_600_000 });
        return 'ok';
      },
      { policy: { maxRetryAfterMs: 10_000, sleep } },
    );
    expect(sleeps).toEqual([4000, 10_000]);
  });

  it('throws non-retryable failures and foreign errors at once', async () => {
    const { sleeps, sleep } = recordingSleep();
    const fatal = new ModelCallError({ message: 'HTTP 400', status: 400, retryable: false });
    await expect(retryWithBackoff(async () => Promise.reject(fatal), { policy: { sleep } })).rejects.toBe(fatal);
    const bug = new TypeError('bug');
    await expect(retryWithBackoff(async () => Promise.reject(bug), { policy: { sleep } })).rejects.toBe(bug);
    expect(sleeps).toEqual([]);
  });

  it('gives up after maxAttempts with the status, the attempt count and the last error', async () => {
    const { sleeps, sleep } = recordingSleep();
    let calls = 0;
    const error = await retryWithBackoff(
      async () => {
        calls++;
        throw transient({ serverMessage: 'overloaded' });
      },
      { policy: { maxAttempts: 3, baseDelayMs: 10, random: () => 0, sleep } },
    ).catch((e: unknown) => e);
    expect(calls).toBe(3);
    expect(sleeps).toEqual([10, 20]);
    expect(error).toBeInstanceOf(ModelCallError);
    const failure = error as ModelCallError;
    expect(failure.message).toMatch(/failed after 3 attempts; last error: HTTP 503/);
    expect(failure.status).toBe(503);
    expect(failure.attempts).toBe(3);
    expect(failure.failure).toBe('http_status');
    expect(failure.serverMessage).toBe('overloaded');
    expect(failure.cause).toBeInstanceOf(ModelCallError);
  });

  it('stops waiting when the signal aborts', async () => {
    const controller = new AbortController();
    const promise = retryWithBackoff(async () => Promise.reject(transient()), {
      policy: { baseDelayMs: 60_000, sleep: abortableSleep },
      signal: controller.signal,
    });
    controller.abort();
    const error = (await promise.catch((e: unknown) => e)) as ModelCallError;
    expect(error.failure).toBe('aborted');
    expect(error.message).toMatch(/aborted while waiting to retry/);
  });
});
