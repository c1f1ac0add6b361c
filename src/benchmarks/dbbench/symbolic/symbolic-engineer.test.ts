import { describe, expect, it } from 'vitest';

import type { EpisodeRecord } from '../../../episode/index.js';
import type { EngineerInput, EngineerResult } from '../../../engineer/engineer.js';
import type { SymbolicPatch } from './compose-patch.js';
import { NO_SIGNATURE_NOTE, SIGNATURE_PATCH_NOTE, SYMBOLIC_ENGINEER_LABEL, createSymbolicEngineer, isNoSignatureResult } from '../../../engineer/symbolic/symbolic-engineer.js';
import { testEpisode } from '../../../testing/dbbench-test-episodes.js';
import { engineerBenchmark } from '../../../testing/sim-baseline.fixture.js';

const QUESTION = 'Which circuit hosted the round where Takashi Kogure got the fastest lap?';

function input(episodes: EpisodeRecord[], bench = 'dbbench'): EngineerInput {
  return { benchmark: engineerBenchmark(bench), batchTag: 'batch_000', split: 'dev', taskIndices: episodes.map((e) => e.task.index), episodes, passThreshold: 1 };
}

function patchOf(result: EngineerResult): SymbolicPatch {
  if (result.status !== 'ok' || result.proposal.kind !== 'patch') throw new Error(`no patch: ${JSON.stringify(result)}`);
  return result.proposal.patch as SymbolicPatch;
}

/** A batch with two early commits, two repeat loops, one snake-cased unknown column, one success and one infrastructure failure. */
function batch(): EpisodeRecord[] {
  const loop = { sql: 'SELECT `Circuit` FROM `Race Results`', result: "[('Fuji Speedway',)]" };
  return [
    testEpisode({ index: 0, question: QUESTION, turns: [{ commit: ['Suzuka'] }], detail: { answer: ['Suzuka'], reason: 'expected SECRET-GOLD-ONE' } }),
    testEpisode({ index: 1, question: QUESTION, turns: [{ commit: ['Motegi'] }], detail: { reason: 'expected SECRET-GOLD-TWO' } }),
    testEpisode({ index: 2, question: QUESTION, turns: [loop, loop, loop, loop], outcome: 'round_limit', detail: { reason: 'no final answer' } }),
    testEpisode({ index: 3, question: QUESTION, turns: [loop, loop, loop], outcome: 'round_limit' }),
    testEpisode({
      index: 4,
      question: QUESTION,
      turns: [{ sql: 'SELECT Fastest_Lap FROM `Race Results`', result: "1054 (42S22): Unknown column 'Fastest_Lap' in 'field list'" }, { sql: 'SELECT `Circuit` FROM `Race Results`', result: "[('Fuji',)]" }, { commit: ['Fuji'] }],
    }),
    testEpisode({ index: 5, question: QUESTION, turns: [loop, { commit: ['Fuji Speedway'] }], outcome: 'success' }),
    testEpisode({ index: 6, question: QUESTION, turns: [{ commit: ['x'] }, { commit: ['y'] }], outcome: 'model_error' }),
  ];
}

describe('createSymbolicEngineer', () => {
  it('is the built-in symbolic engineer', () => {
    const engineer = createSymbolicEngineer();
    expect(engineer.label).toBe(SYMBOLIC_ENGINEER_LABEL);
    expect(engineer.label).toBe('symbolic engineer (built-in, rule-based)');
    expect(engineer.kind).toBe('symbolic');
  });

  it('keeps recurring signatures, writes a general patch and explains it in notes', async () => {
    const result = await createSymbolicEngineer().propose(input(batch()));
    const patch = patchOf(result);
    expect(patch.benchmark).toBe('dbbench');
    expect(patch.actions.map((a) => a.hook)).toEqual(['on_init', 'on_post_step', 'make_pre_hint', 'on_before_action']);
    expect(patch.description).toBe(
      'Symbolic engineer (rule-based) patch for DBBench failure patterns that recur across the batch: run SQL before committing; do not repeat the same query.',
    );
    expect(result.status === 'ok' && result.notes).toEqual([
      'batch: 7 episodes, 6 scored, 5 failed, 1 infrastructure failures left out',
      'thresholds: at least 2 failed episodes or 0.5 of the failed episodes',
      'signature commit_before_sql: 2 of 5 failed episodes (0 passed) -> kept',
      'signature repeated_sql: 2 of 5 failed episodes (0 passed) -> kept',
      'signature unquoted_identifier: 1 of 5 failed episodes (0 passed) -> below threshold',
      'signature unknown_column: 1 of 5 failed episodes (0 passed) -> below threshold',
      'template on_init: skills[commit_before_sql, repeated_sql], tool_hint[commit_before_sql, repeated_sql]',
      'template on_post_step: stages[repeat]',
      'template make_pre_hint: hints[repeat]',
      'template on_before_action: guards[no_sql, same_sql]',
      SIGNATURE_PATCH_NOTE,
    ]);
    expect(isNoSignatureResult(result)).toBe(false);
  });

  it('writes no task ids, values or answers into the patch, and never reads detail', async () => {
    const episodes = batch();
    const text = JSON.stringify(patchOf(await createSymbolicEngineer().propose(input(episodes))));
    for (const leak of ['SECRET-GOLD', 'Suzuka', 'Motegi', 'Fuji', 'Kogure', 'Race Results', 'Fastest_Lap', 'batch_000']) expect(text).not.toContain(leak);
    const trapped = episodes.map((e) => ({ ...e, detail: new Proxy({}, { get: () => { throw new Error('detail was read'); }, ownKeys: () => { throw new Error('detail was read'); } }) }));
    expect(JSON.stringify(patchOf(await createSymbolicEngineer().propose(input(trapped))))).toBe(text);
  });

  it('is deterministic: the same episodes, in any order, give byte-identical results', async () => {
    const a = await createSymbolicEngineer().propose(input(batch()));
    const b = await createSymbolicEngineer().propose(input(batch()));
    const c = await createSymbolicEngineer().propose(input([...batch()].reverse()));
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    expect(JSON.stringify(c)).toBe(JSON.stringify(a));
  });

  it('a share threshold lets a single failure count in a small batch', async () => {
    const one = [testEpisode({ question: QUESTION, turns: [{ commit: ['Suzuka'] }] }), testEpisode({ index: 1, question: QUESTION, turns: [{ commit: ['x'] }], outcome: 'success' })];
    const result = await createSymbolicEngineer().propose(input(one));
    expect(patchOf(result).actions.map((a) => a.hook)).toEqual(['on_init', 'on_before_action']);
    expect(result.status === 'ok' && result.notes).toContain('signature commit_before_sql: 1 of 1 failed episodes (1 passed) -> kept');
    const strict = await createSymbolicEngineer({ minEpisodes: 3, minShare: 1 }).propose(input(batch()));
    expect(patchOf(strict).description).not.toMatch(/repeat/);
    expect(isNoSignatureResult(strict)).toBe(true);
  });

  it('returns the soft-hint patch, marked in notes, when nothing recurs or nothing failed', async () => {
    const passed = [testEpisode({ question: QUESTION, turns: [{ sql: 'SELECT 1', result: "[('1',)]" }, { commit: ['1'] }], outcome: 'success' })];
    for (const episodes of [passed, [], [testEpisode({ question: QUESTION, turns: [], outcome: 'env_error' })]]) {
      const result = await createSymbolicEngineer().propose(input(episodes));
      expect(patchOf(result).actions.map((a) => a.hook)).toEqual(['on_init', 'make_pre_hint']);
      expect(result.status === 'ok' && result.notes?.at(-1)).toBe(NO_SIGNATURE_NOTE);
      expect(isNoSignatureResult(result)).toBe(true);
    }
  });

  it('answers WebShop and ALFWorld batches with their own templates (soft patch when nothing failed)', async () => {
    for (const bench of ['webshop', 'alfworld'] as const) {
      const result = await createSymbolicEngineer().propose(input([], bench));
      expect(result.status).toBe('ok');
      expect((patchOf(result) as unknown as { benchmark: string }).benchmark).toBe(bench);
      expect(isNoSignatureResult(result)).toBe(true);
    }
  });

  it('rejects bad thresholds', () => {
    expect(() => createSymbolicEngineer({ minEpisodes: 0 })).toThrow(/minEpisodes/);
    expect(() => createSymbolicEngineer({ minEpisodes: 1.5 })).toThrow(/minEpisodes/);
    expect(() => createSymbolicEngineer({ minShare: 0 })).toThrow(/minShare/);
    expect(() => createSymbolicEngineer({ minShare: 1.2 })).toThrow(/minShare/);
  });
});
