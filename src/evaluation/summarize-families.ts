import { isInfraOutcome, type EpisodeRecord } from '../episode/index.js';

/**
 * The group a task belongs to for per-family tables: a task family (`pick_and_place`, …) or a question type
 * (`counting`, `INSERT`, …), as the environment recorded it; '' when there is none (e.g. shop goals).
 */
export function familyOf(record: EpisodeRecord): string {
  const { family, type } = record.detail;
  if (typeof family === 'string') return family;
  return typeof type === 'string' ? type : '';
}

export interface FamilySummary {
  family: string;
  /** Episodes with an agent-caused ending; infrastructure failures are left out, as in every rate. */
  scored: number;
  successes: number;
  successRate: number;
  meanReward: number;
}

/** Success and mean reward per family, families in alphabetical order. */
export function summarizeFamilies(records: readonly EpisodeRecord[]): FamilySummary[] {
  const groups = new Map<string, { scored: number; successes: number; reward: number }>();
  for (const r of records) {
    if (isInfraOutcome(r.outcome)) continue;
    const g = groups.get(familyOf(r)) ?? { scored: 0, successes: 0, reward: 0 };
    g.scored++;
    if (r.outcome === 'success') g.successes++;
    g.reward += r.reward;
    groups.set(familyOf(r), g);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([family, g]) => ({ family, scored: g.scored, successes: g.successes, successRate: g.successes / g.scored, meanReward: g.reward / g.scored }));
}

/** True when a per-family table says something: at least one task has a family. */
export function hasFamilies(summaries: readonly FamilySummary[]): boolean {
  return summaries.some((s) => s.family !== '');
}
