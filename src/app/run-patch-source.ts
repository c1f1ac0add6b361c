import { makeBatches, type Batch } from '../evaluation/improve/batches.js';
import { runBatch, type RunBatchOptions, type RunBatchResult } from '../evaluation/run-batch.js';
import type { AnyBenchmarkDefinition } from '../benchmark/definition.js';
import { checkPatchSource, patchSourceFile, type PatchSourceCheck } from '../engineer/patch-source-dir.js';
import type { HookName } from '../episode/index.js';
import { withDisabledHooks } from '../hooks/disabled-hooks.js';
import { NO_HOOKS } from '../hooks/native-hooks.js';
import type { PatchRulesLookup } from '../patch/index.js';
import type { Environment } from '../runtime/environment.js';
import type { SandboxPool } from '../sandbox/index.js';
import { loadRunPatch, type RunPatch } from './load-run-patch.js';
import { openBenchmark, type BenchmarkChoice } from './open-environment.js';

/** `run --patch-source DIR`: the run's tasks cut into batches as `improve` cuts them, each with its patch or none. */
export interface PatchSourcePlan {
  check: PatchSourceCheck;
  batchSize: number;
  batches: (Batch & { patch: RunPatch | null })[];
}

/**
 * Checks the folder against the batches of the run's tasks and validates and installs every patch in it
 * before any episode (an invalid one is a usage error naming its file, as `run --patch` does). A batch
 * without a file is played without a patch.
 */
export async function loadPatchSource(dir: string, definition: AnyBenchmarkDefinition, taskIndices: readonly number[], batchSize: number, benchmarks: PatchRulesLookup, pool: SandboxPool): Promise<PatchSourcePlan> {
  const batches = makeBatches(taskIndices, batchSize);
  const check = checkPatchSource(dir, definition.name, batches.map((b) => b.tag));
  const loaded: PatchSourcePlan['batches'] = [];
  for (const batch of batches) {
    const patch = check.found.includes(batch.tag) ? await loadRunPatch(patchSourceFile(check.dir, batch.tag, definition.name), definition, benchmarks, pool) : null;
    loaded.push({ ...batch, patch });
  }
  return { check, batchSize, batches: loaded };
}

/** What the run's identity records of its patch source (a changed patch file changes the digest: a resume is refused). */
export function patchSourceIdentity(plan: PatchSourcePlan): { dir: string; digest: string; batchSize: number } {
  return { dir: plan.check.dir, digest: plan.check.digest, batchSize: plan.batchSize };
}

/** Each batch and the patch it is played with, for the summary and `--json`. */
export function describePatchSource(plan: PatchSourcePlan): { tag: string; tasks: number[]; patch: { file: string; sha256: string } | null }[] {
  return plan.batches.map((b) => ({ tag: b.tag, tasks: b.taskIndices, patch: b.patch?.manifest ?? null }));
}

/**
 * Plays each batch with its own patch into the one store: a batch with a patch in a fresh environment that
 * honours the patch's legacy actions (as an improve rerun), a batch without one in the plain environment.
 * Progress counts over all batches; an interrupt stops after the episodes in flight.
 */
export async function playPatchSource(
  plan: PatchSourcePlan,
  play: { choice: BenchmarkChoice; environment: Environment; disabledHooks: readonly HookName[] } & Omit<RunBatchOptions, 'environment' | 'hooks' | 'taskIndices'>,
): Promise<RunBatchResult> {
  const { choice, environment: plain, disabledHooks, onProgress, ...common } = play;
  const total = plan.batches.reduce((a, b) => a + b.taskIndices.length, 0);
  let offset = 0;
  let ran = 0;
  let skipped = 0;
  let interrupted = false;
  for (const batch of plan.batches) {
    const environment = batch.patch ? (await openBenchmark(choice, batch.patch.patch)).environment : plain;
    try {
      const result = await runBatch({
        ...common,
        environment,
        hooks: withDisabledHooks(batch.patch?.hooks ?? NO_HOOKS, disabledHooks),
        taskIndices: batch.taskIndices,
        onProgress: (p) => onProgress?.({ ...p, done: offset + p.done, total }),
      });
      ran += result.ran;
      skipped += result.skipped;
      interrupted = result.interrupted;
    } finally {
      if (environment !== plain) await environment.close();
    }
    offset += batch.taskIndices.length;
    if (interrupted) break;
  }
  return { records: common.store.records(), ran, skipped, interrupted };
}
