import type { EpisodeRecord } from '../../episode/index.js';
import type { ImproveContext } from '../../evaluation/improve/improve-batch.js';
import { runBatch } from '../../evaluation/run-batch.js';
import { NO_HOOKS } from '../../hooks/native-hooks.js';
import type { Environment } from '../../runtime/environment.js';
import { RUN_MANIFEST_VERSION, type RunManifest } from '../../store/run-manifest.js';
import { RunStore } from '../../store/run-store.js';

/** The baseline's identity, as `improveRun` takes it: a stored baseline is reused only when it matches. */
export type BaselineIdentity = Omit<RunManifest, 'taskIndices' | 'schemaVersion' | 'runId' | 'createdAt' | 'patch'>;

/**
 * The no-harness baseline of `tasks` in `dir` (a run store): played once, resumed after a crash, refused
 * for another target or options; infrastructure failures are retried up to `ctx.maxInfraRetries` times.
 * Returns the last record of every task.
 */
export async function playBaseline(ctx: ImproveContext, environment: Environment, identity: BaselineIdentity, tasks: number[], dir: string): Promise<Map<number, EpisodeRecord>> {
  const manifest: RunManifest = { ...identity, schemaVersion: RUN_MANIFEST_VERSION, runId: 'baseline', createdAt: new Date().toISOString(), taskIndices: tasks, patch: null };
  const store = RunStore.exists(dir) ? RunStore.open(dir, manifest) : RunStore.create(dir, manifest);
  try {
    for (let attempt = 1; attempt <= 1 + ctx.maxInfraRetries; attempt++) {
      await runBatch({
        environment, model: ctx.target, hooks: NO_HOOKS, taskIndices: tasks, store, concurrency: ctx.concurrency, retryInfra: attempt > 1,
        onProgress: (p) => ctx.onProgress?.({ kind: 'episode', batchTag: 'baseline', done: p.done, total: p.total }),
      });
      if (tasks.every((i) => store.isDone(i, true))) break;
    }
    return new Map(store.records().map((r) => [r.task.index, r]));
  } finally {
    store.close();
  }
}
