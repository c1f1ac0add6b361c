import { isInfraOutcome, type EpisodeRecord } from '../episode/index.js';

/**
 * When every episode of a run ended in an infrastructure failure (model_error, env_error, hook_fault), the
 * run measured nothing: this says so with the outcomes and the commonest cause, for the terminal. Undefined
 * when at least one episode was scored, or none was played.
 */
export function describeAllInfraFailures(records: readonly EpisodeRecord[]): string | undefined {
  if (records.length === 0 || !records.every((r) => isInfraOutcome(r.outcome))) return undefined;
  const outcomes = new Map<string, number>();
  const causes = new Map<string, number>();
  for (const r of records) {
    outcomes.set(r.outcome, (outcomes.get(r.outcome) ?? 0) + 1);
    const cause = typeof r.detail.error === 'string' ? r.detail.error : typeof r.detail.message === 'string' ? r.detail.message : r.outcome;
    causes.set(cause, (causes.get(cause) ?? 0) + 1);
  }
  const [cause, count] = [...causes.entries()].sort((a, b) => b[1] - a[1])[0]!;
  const by = [...outcomes.entries()].map(([o, n]) => `${o} ${n}`).join(', ');
  return `every episode (${records.length}) ended in an infrastructure failure (${by}); nothing was measured.\ncause${count < records.length ? ` (${count} of ${records.length})` : ''}: ${cause}`;
}
