import { INFRA_OUTCOMES, type EpisodeRecord } from '../episode/index.js';

/**
 * Episode-level Reflection's figure: a task counts at 2 when its first episode succeeded or, after it
 * failed, the second episode (with the reflection in context) did. It is its own column: success@1 rows
 * (the default harness, ReAct, Self-Refine, a patch) are never ranked against it.
 */
export interface SuccessAt2 {
  /** Tasks whose first episode is a scored agent outcome (infrastructure failures left out, as in success@1). */
  tasks: number;
  /** First-episode successes (success@1 of the same tasks). */
  success1: number;
  /** Tasks that succeeded in the first or the second episode. */
  success2: number;
  successAt1: number;
  successAt2: number;
  /** Failed first episodes that got a second one. */
  retried: number;
  /** Second episodes that succeeded. */
  rescued: number;
  /** Failed first episodes whose reflection could not be written (no second episode). */
  reflectionErrors: number;
  /** Second episodes that ended in an infrastructure failure (counted as not rescued). */
  retryInfra: number;
}

interface RetryView {
  retry?: { outcome?: unknown };
  error?: unknown;
}

const INFRA = new Set<unknown>(INFRA_OUTCOMES);

/** success@2 over a run's records (each task's last attempt, as the caller passes them). */
export function successAt2(records: readonly EpisodeRecord[]): SuccessAt2 {
  let tasks = 0;
  let success1 = 0;
  let retried = 0;
  let rescued = 0;
  let reflectionErrors = 0;
  let retryInfra = 0;
  for (const r of records) {
    if (INFRA.has(r.outcome)) continue;
    tasks++;
    if (r.outcome === 'success') {
      success1++;
      continue;
    }
    const view = r.detail.reflection as RetryView | undefined;
    if (!view) continue;
    if (view.retry === undefined) {
      if (view.error !== undefined) reflectionErrors++;
      continue;
    }
    retried++;
    if (view.retry.outcome === 'success') rescued++;
    else if (typeof view.retry.outcome === 'string' && INFRA.has(view.retry.outcome)) retryInfra++;
  }
  const success2 = success1 + rescued;
  const share = (n: number) => (tasks === 0 ? 0 : n / tasks);
  return { tasks, success1, success2, successAt1: share(success1), successAt2: share(success2), retried, rescued, reflectionErrors, retryInfra };
}
