import { createHash } from 'node:crypto';

import type { RecordedTurn } from '../episode/index.js';
import type { ChatRequest, ChatResponse, ResponseLimitHit } from './chat-model.js';

export type { RecordedTurn };

/** Canonical JSON: object keys sorted at every level, undefined fields left out. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * A digest of everything in a request that reaches the model: the messages, the tools and every sampling
 * field. Two requests with the same digest are the same request; the abort signal is not part of it.
 */
export function requestDigest(request: ChatRequest): string {
  const { signal: _signal, ...sent } = request;
  return createHash('sha256').update(canonical(sent)).digest('hex');
}

/** The part of a response worth keeping: everything but its wall-clock latency. */
export function recordedResponse(response: ChatResponse): RecordedTurn['response'] {
  return {
    message: response.message,
    finishReason: response.finishReason,
    usage: response.usage,
    ...(response.limits && response.limits.length > 0 ? { limits: response.limits } : {}),
  };
}

/** A recorded answer as the response the model gave (latency 0: no call was made). */
export function responseOf(recorded: RecordedTurn['response']): ChatResponse {
  const { limits, ...copy } = structuredClone(recorded);
  return { ...copy, ...(limits ? { limits: limits as ResponseLimitHit[] } : {}), latencyMs: 0 };
}
