import { createHash } from 'node:crypto';

/** Bumped whenever what a rerun means changes, so old cached rewards are not reused. */
export const RERUN_CACHE_PROTOCOL = 'harness-r1-dbbench-codepatch-rerun-v1';

/** Canonical JSON: object keys sorted at every level. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The rerun cache key (protocol.md §6.3): everything that changes what a rerun means — the normalized patch,
 * the batch, and the reward context (target, benchmark options, grading, threshold, metric). Identical
 * patches for the same batch and context share one rerun.
 */
export function rerunCacheKey(input: { batchTag: string; taskIndices: number[]; patch: unknown; context: Record<string, unknown> }): string {
  const payload = canonicalJson({ protocol: RERUN_CACHE_PROTOCOL, ...input });
  return createHash('sha1').update(payload).digest('hex').slice(0, 16);
}
