import { describe, expect, it } from 'vitest';

import type { EpisodeRecord, Outcome } from '../episode/index.js';
import { familyOf, hasFamilies, summarizeFamilies } from './summarize-families.js';

function record(index: number, outcome: Outcome, reward: number, detail: Record<string, unknown>): EpisodeRecord {
  return { schemaVersion: 2, task: { bench: 'alfworld', split: 'dev', index }, attempt: 1, outcome, reward, rounds: 1, detail, steps: [], hookTrace: [], messages: [], usage: { promptTokens: 0, completionTokens: 0, modelCalls: 0 } };
}

describe('per-family summaries', () => {
  it('groups by ALFWorld family, else DBBench type, else none', () => {
    expect(familyOf(record(0, 'success', 1, { family: 'pick_two_obj', type: 'x' }))).toBe('pick_two_obj');
    expect(familyOf(record(0, 'success', 1, { type: 'counting' }))).toBe('counting');
    expect(familyOf(record(0, 'success', 1, { type: 3 }))).toBe('');
  });

  it('counts successes and mean reward per family, leaving infrastructure failures out', () => {
    const rows = summarizeFamilies([
      record(0, 'success', 1, { family: 'heat' }),
      record(1, 'round_limit', 0, { family: 'heat' }),
      record(2, 'model_error', 0, { family: 'heat' }),
      record(3, 'wrong_answer', 0.5, { family: 'clean' }),
    ]);
    expect(rows).toEqual([
      { family: 'clean', scored: 1, successes: 0, successRate: 0, meanReward: 0.5 },
      { family: 'heat', scored: 2, successes: 1, successRate: 0.5, meanReward: 0.5 },
    ]);
    expect(hasFamilies(rows)).toBe(true);
    expect(hasFamilies(summarizeFamilies([record(0, 'success', 1, {})]))).toBe(false);
  });

  it('orders families by name whatever order they were met in, and finds families in a table that also has tasks without one', () => {
    const rows = summarizeFamilies([
      record(0, 'success', 1, { family: 'pick_two_obj' }),
      record(1, 'success', 1, { family: 'look_at_obj' }),
      record(2, 'success', 1, { family: 'pick_and_place' }),
      record(3, 'success', 1, { family: 'clean' }),
      record(4, 'success', 1, {}),
    ]);
    expect(rows.map((r) => r.family)).toEqual(['', 'clean', 'look_at_obj', 'pick_and_place', 'pick_two_obj']);
    expect(hasFamilies(rows)).toBe(true);
  });
});
