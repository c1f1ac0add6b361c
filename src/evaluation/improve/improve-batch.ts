import path from 'node:path';

import type { EpisodeRecord, Outcome, RecordedTurn } from '../../episode/index.js';
import { isInfraOutcome } from '../../episode/index.js';
import type { Engineer } from '../../engineer/engineer.js';
import { buildFailurePacket } from '../../engineer/failure-packet.js';
import type { Batch } from './batches.js';
import { BATCH_RESULT_VERSION, type BatchResult } from '../../run-dir/batch-artifacts.js';
import { IMPROVE_LAYOUT, ImproveRunDir } from '../../run-dir/improve-run-dir.js';
import { decideReward, type RewardDecision, type RewardEvidence } from './decide-reward.js';
import { throwIfInterrupted } from '../interrupted.js';
import { judgeProposal, type RewardPathContext } from './judge-proposal.js';

export { BATCH_RESULT_VERSION, type BatchResult };

/** Everything one batch needs; shared by all batches of an `improve` run: the reward path and the engineer. */
export interface ImproveContext extends RewardPathContext {
  engineer: Engineer;
  /** Run a second, revision pass for each batch whose patch was rerun (engineers that support it). */
  revise?: boolean;
  onProgress?: (event: ImproveEvent) => void;
  /** Stops the loop: episodes in flight finish and are stored, then {@link Interrupted} is thrown before anything is decided. */
  signal?: AbortSignal;
}

export type ImproveEvent =
  | { kind: 'stage'; batchTag: string; stage: 'engineer' | 'validate' | 'rerun' | 'done'; detail?: string }
  | { kind: 'episode'; batchTag: string; done: number; total: number; /** Set when an episode just finished. */ outcome?: Outcome };

/**
 * One batch of the Harness-R1 loop: baseline episodes → engineer → validation → install + rerun → reward,
 * each stage leaving a file in `<run>/batches/<tag>/`, so a killed run resumes where it stopped. Reruns
 * live in `<run>/reruns/<cache key>/`: identical patches for the same batch share one.
 */
export async function improveBatch(ctx: ImproveContext, batch: Batch, baselineRecords: ReadonlyMap<number, EpisodeRecord>, baselineTurns?: ReadonlyMap<number, readonly RecordedTurn[]>): Promise<BatchResult> {
  const run = new ImproveRunDir(ctx.rootDir);
  const dir = run.batch(batch.tag);
  const done = dir.readResult();
  if (done?.schemaVersion === BATCH_RESULT_VERSION) return done;

  const episodes = batch.taskIndices.map((i) => baselineRecords.get(i)).filter((r): r is EpisodeRecord => r !== undefined);
  const usable = episodes.filter((r) => !isInfraOutcome(r.outcome));
  const excludedTasks = batch.taskIndices.filter((i) => !usable.some((r) => r.task.index === i));
  const baselineRewards = new Map(usable.map((r) => [r.task.index, r.reward]));
  const base = {
    schemaVersion: BATCH_RESULT_VERSION,
    batchTag: batch.tag,
    taskIndices: batch.taskIndices,
    excludedTasks,
    baseline: { pass: [...baselineRewards.values()].filter((r) => r >= ctx.threshold).length, rewards: Object.fromEntries(baselineRewards) },
    engineer: { label: ctx.engineer.label, symbolic: ctx.engineer.kind === 'symbolic' },
  };
  const finish = (result: Omit<BatchResult, keyof typeof base>): BatchResult => {
    const full: BatchResult = { ...base, ...result };
    dir.writeResult(full);
    ctx.onProgress?.({ kind: 'stage', batchTag: batch.tag, stage: 'done', detail: full.status });
    return full;
  };
  // Every status and credited reward comes from `decideReward`; this function only gathers its evidence.
  const evidence: RewardEvidence = { baseline: baselineRewards, threshold: ctx.threshold, metric: ctx.metric };
  const noScore = (decision: RewardDecision, extra: Partial<BatchResult> = {}) =>
    finish({ status: decision.status, validPatch: decision.validPatch, patched: null, reward: { score: decision.score, metric: ctx.metric, raw: decision.raw }, hookEffects: {}, hookFaults: 0, rejection: null, rerun: null, notes: [], ...extra });

  dir.writeMetadata({ ...base, split: ctx.split, target: ctx.target.label, targetSimulated: ctx.target.simulated, threshold: ctx.threshold, metric: ctx.metric });
  const untouched = decideReward(evidence);
  if (untouched) return noScore(untouched, untouched.status === 'no_scored_baseline' ? { notes: [`every baseline episode of the batch ended in an infrastructure failure: ${episodes.map((r) => `#${r.task.index} ${r.outcome}`).join(', ') || 'none recorded'}`] } : {});

  // The evidence, as a stage file: the failure packet the benchmark renders from the baseline episodes.
  const input = { benchmark: ctx.benchmark.engineer, batchTag: batch.tag, split: ctx.split, taskIndices: batch.taskIndices, episodes: usable, passThreshold: ctx.threshold };
  if (!dir.readPacket()) dir.writePacket(buildFailurePacket(input));

  // Engineer (its answer is kept, so a resumed run never asks twice).
  let proposal = dir.readEngineer();
  if (!proposal) {
    throwIfInterrupted(ctx.signal, `before the engineer of ${batch.tag}`);
    ctx.onProgress?.({ kind: 'stage', batchTag: batch.tag, stage: 'engineer' });
    proposal = await ctx.engineer.propose(input);
    if (proposal.prompt) dir.writePrompt(proposal.prompt);
    if (proposal.status === 'ok' && proposal.proposal.kind === 'response') dir.writeRawResponse(proposal.proposal.text);
    dir.writeEngineer(proposal);
  }
  const judged = await judgeProposal(ctx, { tag: batch.tag, episodes, evidence, ...(baselineTurns ? { baselineTurns } : {}) }, proposal, { onVerdict: (v) => dir.writeVerdict(v), onPatch: (p) => dir.writePatch(p) });
  const { decision } = judged;
  if (decision.status === 'generated' && judged.patch) {
    // Written before result.json: a run killed in between validates again and rewrites it on resume.
    run.writeGeneratedPatch(batch.tag, ctx.benchmark.name, judged.patch);
    return noScore(decision, { notes: [...judged.notes, `generate-only: patch written to ${path.join(IMPROVE_LAYOUT.patches, batch.tag, `${ctx.benchmark.name}.json`)}, not rerun`] });
  }
  if (!judged.rerun || !decision.raw) {
    return noScore(decision, { rejection: judged.rejection, notes: judged.notes });
  }
  const raw = decision.raw;
  return finish({
    status: decision.status,
    validPatch: decision.validPatch,
    patched: { pass: raw.patchedPass, rewards: Object.fromEntries(judged.patchedRewards ?? new Map()) },
    reward: { score: decision.score, metric: ctx.metric, raw },
    hookEffects: judged.hookEffects,
    hookFaults: judged.hookFaults,
    rejection: null,
    rerun: judged.rerun,
    notes: judged.notes,
  });
}
export { rerunPatch } from './judge-proposal.js';
