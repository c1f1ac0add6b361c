import { isInfraOutcome, type EpisodeRecord } from '../../episode/index.js';
import type { Environment } from '../../runtime/environment.js';
import { RunStore } from '../../store/run-store.js';
import type { PreviousAttempt } from '../../engineer/previous-attempt.js';
import { ImproveRunDir } from '../../run-dir/improve-run-dir.js';
import type { Batch } from './batches.js';
import { playBaseline, recordedTurnsOf, type BaselineManifest } from './play-baseline.js';
import { improveBatch, type BatchResult, type ImproveContext } from './improve-batch.js';
import { summarizeImprove, type ImproveSummary } from './summarize-improve.js';
import { throwIfInterrupted } from '../interrupted.js';

export { IMPROVE_SUMMARY_VERSION, type ImproveSummary } from './summarize-improve.js';

export interface ImproveRunOptions {
  context: ImproveContext;
  batches: Batch[];
  /** The no-harness environment used for the baseline. */
  baselineEnvironment: Environment;
  /** Identity of the baseline (target, benchmark options); a stored baseline is reused only when it matches. */
  baselineManifest: BaselineManifest;
}


/**
 * The whole improvement loop over several batches: one baseline run of every task (stored once in
 * `<run>/baseline`, reused on resume and refused for another target or protocol), then `improveBatch` per
 * batch, then `<run>/summary.json`.
 */
export async function improveRun(options: ImproveRunOptions): Promise<{ results: BatchResult[]; summary: ImproveSummary; baseline: EpisodeRecord[] }> {
  const { context: ctx, batches } = options;
  const allTasks = batches.flatMap((b) => b.taskIndices);
  const run = new ImproveRunDir(ctx.rootDir);
  const baseline = await playBaseline({
    dir: run.baselineDir, environment: options.baselineEnvironment, target: ctx.target, taskIndices: allTasks, manifest: options.baselineManifest,
    concurrency: ctx.concurrency, maxInfraRetries: ctx.maxInfraRetries, ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(ctx.strategy ? { strategy: ctx.strategy } : {}),
    onProgress: (p) => ctx.onProgress?.({ kind: 'episode', batchTag: 'baseline', done: p.done, total: p.total, ...(p.outcome ? { outcome: p.outcome } : {}) }),
  });
  throwIfInterrupted(ctx.signal, 'during the baseline');
  const byIndex = new Map(baseline.map((r) => [r.task.index, r]));
  const baselineTurns = ctx.replay === 'exact' ? recordedTurnsOf(run.baselineDir) : undefined;
  const results: BatchResult[] = [];
  for (const batch of batches) {
    throwIfInterrupted(ctx.signal, `before ${batch.tag}`);
    const first = await improveBatch(ctx, batch, byIndex, baselineTurns);
    results.push(first);
    const revised = ctx.revise && ctx.engineer.revise && (first.status === 'scored' || first.status === 'inert') ? ctx.engineer.revise(previousAttempt(ctx, first)) : undefined;
    if (revised) results.push(await improveBatch({ ...ctx, engineer: revised }, { tag: `${batch.tag}-revision`, taskIndices: batch.taskIndices }, byIndex, baselineTurns));
  }
  const summary = summarizeImprove({ bench: ctx.benchmark.name, split: ctx.split, target: ctx.target, engineer: { label: ctx.engineer.label, symbolic: ctx.engineer.kind === 'symbolic' }, ...(ctx.generateOnly ? { generateOnly: true } : {}) }, results);
  run.writeSummary(summary);
  return { results, summary, baseline };
}

/**
 * What a revision pass sees of the first attempt: its result, flips, answer, patch, the flipped episodes
 * and the episodes that still fail (the engineer's revision context picks what its benchmark shows).
 */
function previousAttempt(ctx: ImproveContext, result: BatchResult): PreviousAttempt {
  const run = new ImproveRunDir(ctx.rootDir);
  const dir = run.batch(result.batchTag);
  const engineer = dir.readEngineer();
  const rawOutput = engineer?.status === 'ok' && engineer.proposal.kind === 'response' ? engineer.proposal.text : '';
  const raw = result.reward.raw;
  const flips = { correctToWrong: raw?.regressed ?? [], wrongToCorrect: raw?.rescued ?? [] };
  let rerunRecords: EpisodeRecord[] = [];
  if (result.rerun) {
    const store = RunStore.open(run.rerunDir(result.rerun.cacheKey));
    rerunRecords = store.records();
    store.close();
  }
  return {
    result: {
      tasks: Object.keys(result.baseline.rewards).length, baselinePass: result.baseline.pass, patchedPass: result.patched?.pass ?? result.baseline.pass, delta: raw?.deltaAverageReward ?? 0, status: result.status,
      ...(raw ? { baselineMean: raw.baselineAverage, patchedMean: raw.patchedAverage } : {}),
    },
    flips,
    rawOutput,
    patch: dir.readPatch() ?? null,
    regressions: rerunRecords.filter((r) => flips.correctToWrong.includes(r.task.index)),
    improvements: rerunRecords.filter((r) => flips.wrongToCorrect.includes(r.task.index)),
    stillFailing: rerunRecords.filter((r) => !isInfraOutcome(r.outcome) && r.reward < ctx.threshold && !flips.correctToWrong.includes(r.task.index)),
  };
}
