import type { EpisodeRecord } from '../../episode/index.js';
import type { ImproveContext } from '../../evaluation/improve/improve-batch.js';
import { playBaseline as playStoredBaseline, type BaselineManifest } from '../../evaluation/improve/play-baseline.js';
import type { Environment } from '../../runtime/environment.js';

/** The baseline's identity, as `improveRun` takes it: a stored baseline is reused only when it matches. */
export type BaselineIdentity = BaselineManifest;

/**
 * The no-harness baseline of `tasks` in `dir` (a run store), through the same stored-baseline path as
 * `improve`: played once, resumed after a crash, refused for another target or options; infrastructure
 * failures retried up to `ctx.maxInfraRetries` times. Returns the last record of every task.
 */
export async function playBaseline(ctx: ImproveContext, environment: Environment, identity: BaselineIdentity, tasks: number[], dir: string): Promise<Map<number, EpisodeRecord>> {
  const records = await playStoredBaseline({
    dir, environment, target: ctx.target, taskIndices: tasks, manifest: identity, concurrency: ctx.concurrency, maxInfraRetries: ctx.maxInfraRetries,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(ctx.strategy ? { strategy: ctx.strategy } : {}),
    onProgress: (p) => ctx.onProgress?.({ kind: 'episode', batchTag: 'baseline', done: p.done, total: p.total, ...(p.outcome ? { outcome: p.outcome } : {}) }),
  });
  return new Map(records.map((r) => [r.task.index, r]));
}
