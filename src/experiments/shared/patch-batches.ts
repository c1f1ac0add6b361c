import { isInfraOutcome, type EpisodeRecord } from '../../episode/index.js';
import { makeBatches } from '../../evaluation/improve/batches.js';
import { improveBatch, type BatchResult, type ImproveContext } from '../../evaluation/improve/improve-batch.js';
import { IncompleteExperimentError } from './incomplete.js';

/** Every task's reward at baseline and with its batch's patch, over the batches of one engineer. */
export interface PatchedTasks {
  /** The batch results, in batch order (each a file under `<ctx.rootDir>/batches/<tag>/`). */
  batches: BatchResult[];
  /** Tasks whose baseline episode ended in an infrastructure failure after the retries: left out. */
  excluded: number[];
  /**
   * Task → reward with its batch's patch installed: the rerun's reward where the patch was valid and
   * rerun (inert ones included: they were installed), the baseline's reward where there was no
   * intervention (no patch, a rejected one, an engineer failure, no failure to fix).
   */
  patched: Map<number, number>;
}

/**
 * The improve loop's batches over `tasks` (consecutive batches of `batchSize`, tags `batch_000`, …), each
 * through `improveBatch` against the given baseline: one failure packet, one engineer answer, validation,
 * the rerun. Resumes from the batch files. A batch whose rerun still had infrastructure failures after
 * the retries leaves the experiment incomplete (rerunning the command retries it).
 */
export async function patchBatches(ctx: ImproveContext, tasks: readonly number[], batchSize: number, baseline: ReadonlyMap<number, EpisodeRecord>): Promise<PatchedTasks> {
  const batches: BatchResult[] = [];
  const patched = new Map<number, number>();
  const excluded: number[] = [];
  for (const batch of makeBatches(tasks, batchSize)) {
    const result = await improveBatch(ctx, batch, baseline);
    if (result.status === 'missing_evaluation') {
      throw new IncompleteExperimentError({ message: `${ctx.rootDir} ${batch.tag}: rerun episodes still failed for infrastructure reasons (${result.notes.join('; ')}); run the same command again.` });
    }
    batches.push(result);
    for (const task of batch.taskIndices) {
      const record = baseline.get(task);
      if (!record || isInfraOutcome(record.outcome)) {
        excluded.push(task);
        continue;
      }
      const rerun = result.patched?.rewards[String(task)];
      patched.set(task, rerun ?? record.reward);
    }
  }
  return { batches, excluded, patched };
}
