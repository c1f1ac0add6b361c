import type { EpisodeRecord, Outcome } from '../../episode/index.js';

/** How many failed and passed episodes show one signature. */
export interface BenchSignatureTally<Id extends string> {
  id: Id;
  failed: number;
  passed: number;
  kept: boolean;
}

/** The per-batch counts behind a trace benchmark's patch. */
export interface BenchTally<Id extends string> {
  episodes: number;
  scored: number;
  failed: number;
  infrastructure: number;
  /** Every signature of the library, most frequent in failed episodes first (ties in library order). */
  signatures: BenchSignatureTally<Id>[];
}

const INFRASTRUCTURE: readonly Outcome[] = ['model_error', 'env_error', 'hook_fault'];

/**
 * Counts the signatures `detect` finds in each episode, leaving out infrastructure failures, and marks
 * the ones that recur: at least `minEpisodes` failed episodes, or at least `minShare` of them.
 */
export function tallyBench<Id extends string>(
  episodes: readonly EpisodeRecord[],
  passThreshold: number,
  ids: readonly Id[],
  detect: (record: EpisodeRecord) => ReadonlySet<Id>,
  thresholds: { minEpisodes: number; minShare: number },
): BenchTally<Id> {
  const failed = new Map<Id, number>();
  const passed = new Map<Id, number>();
  let infrastructure = 0;
  let failedCount = 0;
  for (const record of episodes) {
    if (INFRASTRUCTURE.includes(record.outcome)) {
      infrastructure++;
      continue;
    }
    const isFailure = !(record.reward >= passThreshold);
    if (isFailure) failedCount++;
    const into = isFailure ? failed : passed;
    for (const id of detect(record)) into.set(id, (into.get(id) ?? 0) + 1);
  }
  const signatures = ids
    .map((id) => {
      const f = failed.get(id) ?? 0;
      const kept = f > 0 && (f >= thresholds.minEpisodes || (failedCount > 0 && f / failedCount >= thresholds.minShare));
      return { id, failed: f, passed: passed.get(id) ?? 0, kept };
    })
    .sort((a, b) => b.failed - a.failed || ids.indexOf(a.id) - ids.indexOf(b.id));
  return { episodes: episodes.length, scored: episodes.length - infrastructure, failed: failedCount, infrastructure, signatures };
}

/** The assistant turns that made no tool call. */
export function countTextOnlyTurns(record: EpisodeRecord): number {
  return record.messages.filter((m) => m.role === 'assistant' && (m.toolCalls ?? []).length === 0).length;
}

/** The first argument value of a step as text. */
export function stepText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (input === undefined || input === null) return '';
  return JSON.stringify(input);
}
