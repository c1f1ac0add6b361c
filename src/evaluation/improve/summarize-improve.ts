import type { EvalStatus } from '../../episode/eval-status.js';
import { IMPROVE_SUMMARY_VERSION, type BatchResult, type ImproveSummary } from '../../run-dir/batch-artifacts.js';

export { IMPROVE_SUMMARY_VERSION, type ImproveSummary };

/** What the summary says about the run besides its batches (an `ImproveContext` fits). */
export interface SummaryContext {
  bench: string;
  split: string;
  target: { label: string; simulated: boolean };
  engineer: { label: string; symbolic: boolean };
  /** `improve --generate-only`: patches were generated, not rerun. */
  generateOnly?: boolean;
}

/**
 * The run's `summary.json`: one row per batch and the totals. `missing_evaluation` (and `no_scored_baseline`) batches are results that
 * do not exist: they are counted apart and left out of `meanScore`, never averaged in as 0. So are the
 * `generated` batches of a generate-only run (marked `generateOnly`): their patches were never rerun.
 */
export function summarizeImprove(ctx: SummaryContext, results: readonly BatchResult[]): ImproveSummary {
  const byStatus: Partial<Record<EvalStatus, number>> = {};
  for (const r of results) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
  const evaluated = results.filter((r) => !isMissing(r.status) && r.status !== 'generated');
  return {
    schemaVersion: IMPROVE_SUMMARY_VERSION,
    bench: ctx.bench,
    split: ctx.split,
    ...(ctx.generateOnly ? { generateOnly: true as const } : {}),
    target: { label: ctx.target.label, simulated: ctx.target.simulated },
    engineer: { label: ctx.engineer.label, symbolic: ctx.engineer.symbolic },
    batches: results.map((r) => ({
      tag: r.batchTag,
      status: r.status,
      baselinePass: r.baseline.pass,
      patchedPass: r.patched?.pass ?? null,
      tasks: Object.keys(r.baseline.rewards).length,
      score: r.reward.score,
      rescued: r.reward.raw?.rescued ?? [],
      regressed: r.reward.raw?.regressed ?? [],
      hookEffects: Object.values(r.hookEffects).reduce((a, b) => a + b, 0),
    })),
    totals: {
      batches: results.length,
      scored: results.filter((r) => r.status === 'scored').length,
      meanScore: evaluated.length === 0 ? 0 : evaluated.reduce((a, r) => a + r.reward.score, 0) / evaluated.length,
      baselinePass: results.reduce((a, r) => a + r.baseline.pass, 0),
      // A batch whose patch was never rerun keeps its baseline result.
      patchedPass: results.reduce((a, r) => a + ((r.status === 'scored' || r.status === 'inert') && r.patched ? r.patched.pass : r.baseline.pass), 0),
      tasks: results.reduce((a, r) => a + Object.keys(r.baseline.rewards).length, 0),
      missingEvaluations: results.filter((r) => isMissing(r.status)).length,
      byStatus,
      rerunTurns: {
        turns: results.reduce((a, r) => a + (r.rerun?.replay?.turns ?? 0), 0),
        replayed: results.reduce((a, r) => a + (r.rerun?.replay?.replayed ?? 0), 0),
      },
    },
  };
}

/** Statuses that are no result at all: left out of the mean, counted as missing evaluations. */
function isMissing(status: EvalStatus): boolean {
  return status === 'missing_evaluation' || status === 'no_scored_baseline';
}
