import { describe, expect, it } from 'vitest';

import { computeBatchReward } from './batch-reward.js';
import type { EvalStatus } from '../../episode/eval-status.js';
import type { BatchResult } from './improve-batch.js';
import { summarizeImprove } from './summarize-improve.js';

const ctx = { bench: 'dbbench' as const, split: 'dev', target: { label: 'scripted', simulated: true }, engineer: { label: 'fixed', symbolic: false } };

/** A batch of four tasks (baseline: 2 pass) whose rerun gave `patched`, with the status and credited score given. */
function result(tag: string, status: EvalStatus, score: number, patched: number[] | null, effects = 1): BatchResult {
  const baseline = new Map([[0, 1], [1, 0], [2, 0], [3, 1]]);
  const raw = patched ? computeBatchReward({ baseline, patched: new Map(patched.map((r, i) => [i, r])) }) : null;
  return {
    schemaVersion: 1, batchTag: tag, taskIndices: [0, 1, 2, 3], status, validPatch: patched !== null, excludedTasks: [],
    baseline: { pass: 2, rewards: Object.fromEntries(baseline) },
    patched: raw ? { pass: raw.patchedPass, rewards: Object.fromEntries(patched!.map((r, i) => [String(i), r])) } : null,
    reward: { score, metric: 'delta_pass_rate', raw }, hookEffects: effects > 0 ? { 'make_pre_hint:hint': effects } : {}, hookFaults: 0,
    engineer: ctx.engineer, rejection: null, rerun: null, notes: [],
  };
}

describe('summarizeImprove', () => {
  it('leaves missing evaluations out of the mean score and counts them apart', () => {
    const summary = summarizeImprove(ctx, [
      result('batch_000', 'scored', 0.5, [1, 1, 1, 1]),
      // The rerun of #3 failed for infrastructure reasons; its measured delta is kept in raw but never credited.
      result('batch_001', 'missing_evaluation', 0, [1, 1, 1]),
      result('batch_002', 'inert', 0, [1, 1, 0, 1], 0),
    ]);
    expect(summary.totals.meanScore).toBe(0.25); // (0.5 + 0) / 2, not (0.5 + 0 + 0) / 3
    expect(summary.totals.missingEvaluations).toBe(1);
    expect(summary.totals.scored).toBe(1);
    expect(summary.totals.byStatus).toEqual({ scored: 1, missing_evaluation: 1, inert: 1 });
    expect(summary.totals.batches).toBe(3);
  });

  it('counts a batch with no scored baseline as missing, never as solved or in the mean', () => {
    const summary = summarizeImprove(ctx, [result('batch_000', 'scored', 0.5, [1, 1, 1, 1]), result('batch_001', 'no_scored_baseline', 0, [])]);
    expect(summary.totals).toMatchObject({ meanScore: 0.5, missingEvaluations: 1, scored: 1 });
    expect(summary.totals.byStatus).toEqual({ scored: 1, no_scored_baseline: 1 });
  });

  it('has a mean of 0 when every batch is a missing evaluation, not NaN', () => {
    const summary = summarizeImprove(ctx, [result('batch_000', 'missing_evaluation', 0, [1, 1, 1])]);
    expect(summary.totals).toMatchObject({ meanScore: 0, missingEvaluations: 1, scored: 0 });
  });

  it('counts patched passes only for batches whose rerun counts (scored, inert); the others keep their baseline', () => {
    const summary = summarizeImprove(ctx, [
      result('batch_000', 'scored', 0.5, [1, 1, 1, 1]),
      result('batch_001', 'inert', 0, [1, 1, 1, 1], 0),
      result('batch_002', 'missing_evaluation', 0, [1, 1, 1]),
      result('batch_003', 'invalid_patch_treated_as_no_patch', 0, null),
    ]);
    expect(summary.totals.baselinePass).toBe(8);
    expect(summary.totals.patchedPass).toBe(4 + 4 + 2 + 2);
    expect(summary.totals.tasks).toBe(16);
  });

  it('marks a generate-only run and never averages its generated batches in (nor counts them as missing)', () => {
    const summary = summarizeImprove({ ...ctx, generateOnly: true }, [
      result('batch_000', 'generated', 0, null, 0),
      result('batch_001', 'no_failures', 0, null, 0),
      result('batch_002', 'generated', 0, null, 0),
    ]);
    expect(summary.generateOnly).toBe(true);
    expect(summary.totals).toMatchObject({ meanScore: 0, missingEvaluations: 0, scored: 0, batches: 3, patchedPass: 6, byStatus: { generated: 2, no_failures: 1 } });
    // Next to scored batches, a generated one changes nothing of the mean.
    const mixed = summarizeImprove(ctx, [result('batch_000', 'scored', 0.5, [1, 1, 1, 1]), result('batch_001', 'generated', 0, null, 0)]);
    expect(mixed.totals.meanScore).toBe(0.5);
    expect('generateOnly' in mixed).toBe(false);
  });

    it('gives one row per batch with its flips, effects and patched passes', () => {
    const summary = summarizeImprove(ctx, [result('batch_000', 'scored', 0.25, [0, 1, 1, 1], 2), result('batch_001', 'no_patch_proposed', 0, null, 0)]);
    expect(summary.batches).toEqual([
      { tag: 'batch_000', status: 'scored', baselinePass: 2, patchedPass: 3, tasks: 4, score: 0.25, rescued: [1, 2], regressed: [0], hookEffects: 2 },
      { tag: 'batch_001', status: 'no_patch_proposed', baselinePass: 2, patchedPass: null, tasks: 4, score: 0, rescued: [], regressed: [], hookEffects: 0 },
    ]);
    expect(summary).toMatchObject({ schemaVersion: 1, bench: 'dbbench', split: 'dev', target: ctx.target, engineer: ctx.engineer });
  });
});
