import path from 'node:path';

import type { EpisodeRecord, HookName, Outcome } from '../../episode/index.js';
import { withDisabledHooks } from '../../hooks/disabled-hooks.js';
import { isInfraOutcome } from '../../episode/index.js';
import type { Engineer } from '../../engineer/engineer.js';
import { buildFailurePacket } from '../../engineer/failure-packet.js';
import type { Environment } from '../../runtime/environment.js';
import type { ChatModel } from '../../models/chat-model.js';
import type { AnyBenchmarkDefinition } from '../../benchmark/definition.js';
import { compileRulesOf, describeRejection, validateEngineerResponse, validatePatch, type HarnessPatch, type HookCompiler, type PatchRulesLookup, type PatchVerdict } from '../../patch/index.js';
import { createPythonHookProvider, type SandboxPool } from '../../sandbox/index.js';
import { codeHooksOf } from '../../patch/patch-parts.js';
import { RUN_MANIFEST_VERSION } from '../../store/run-manifest.js';
import { RunStore } from '../../store/run-store.js';
import { runBatch } from '../run-batch.js';
import type { RewardMetric } from './batch-reward.js';
import type { Batch } from './batches.js';
import { BATCH_RESULT_VERSION, type BatchResult } from '../../run-dir/batch-artifacts.js';
import { ImproveRunDir } from '../../run-dir/improve-run-dir.js';
import { decideReward, type RewardDecision, type RewardEvidence } from './decide-reward.js';
import { rerunCacheKey } from './rerun-cache-key.js';
import { throwIfInterrupted } from '../interrupted.js';

export { BATCH_RESULT_VERSION, type BatchResult };

/** Everything one batch needs; shared by all batches of an `improve` run. */
export interface ImproveContext {
  /** The benchmark of every batch: its engineer view, patch rules, evaluation rules. */
  benchmark: AnyBenchmarkDefinition;
  /** Every registered benchmark's patch rules (a patch may name another benchmark; the original checks it by its own rules). */
  patchRules: PatchRulesLookup;
  split: string;
  rootDir: string;
  /** A fresh environment for a rerun, with the legacy actions of the patch the benchmark honours at install. */
  openEnvironment(patch?: HarnessPatch): Promise<Environment>;
  target: ChatModel;
  engineer: Engineer;
  compiler: HookCompiler;
  pool: SandboxPool;
  concurrency: number;
  threshold: number;
  metric: RewardMetric;
  /** Reruns of episodes that ended in an infrastructure failure (bounded; never "until positive"). */
  maxInfraRetries: number;
  /** Run a second, revision pass for each batch whose patch was rerun (engineers that support it). */
  revise?: boolean;
  /**
   * Lifecycle positions whose hooks are not called in reruns (the ablation switch). They change what a
   * rerun means, so the caller also puts them in `rerunContext`.
   */
  disabledHooks?: readonly HookName[];
  /** What changes a rerun's meaning besides the patch and the batch (target, options); part of the cache key. */
  rerunContext: Record<string, unknown>;
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
export async function improveBatch(ctx: ImproveContext, batch: Batch, baselineRecords: ReadonlyMap<number, EpisodeRecord>): Promise<BatchResult> {
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
  const engineerNotes = proposal.status === 'ok' ? (proposal.notes ?? []) : [];
  if (proposal.status === 'request_failed') return noScore(decideReward({ ...evidence, proposal: 'request_failed' }), { notes: [proposal.detail] });
  if (proposal.proposal.kind === 'patch' && proposal.proposal.patch === null) return noScore(decideReward({ ...evidence, proposal: 'no_patch' }), { notes: engineerNotes });

  // Validation, exactly as the original (plus the runtime no-op check of the RL config). A benchmark whose
  // runtime executes no legacy DSL action requires code hooks only, as the original's shop evaluator does.
  ctx.onProgress?.({ kind: 'stage', batchTag: batch.tag, stage: 'validate' });
  const options = { bench: ctx.benchmark.name, benchmarks: ctx.patchRules, compiler: ctx.compiler, rejectRuntimeNoop: true, codeHookOnly: ctx.benchmark.evaluation.codeHookOnly };
  const verdict: PatchVerdict =
    proposal.proposal.kind === 'response'
      ? await validateEngineerResponse(proposal.proposal.text, { ...options, protocol: proposal.proposal.protocol })
      : await validatePatch(proposal.proposal.patch, options);
  dir.writeVerdict(verdict);
  if (verdict.kind === 'invalid') {
    return noScore(decideReward({ ...evidence, proposal: 'proposed', verdict }), { rejection: describeRejection(verdict.rejection), notes: engineerNotes });
  }
  const patch = verdict.patch;
  dir.writePatch(patch);

  // Install and rerun the same tasks with the same target (cached by patch + batch + context).
  ctx.onProgress?.({ kind: 'stage', batchTag: batch.tag, stage: 'rerun' });
  const tasks = [...baselineRewards.keys()];
  const cacheKey = rerunCacheKey({ batchTag: batch.tag, taskIndices: tasks, patch, context: ctx.rerunContext });
  const rerunDir = run.rerunDir(cacheKey);
  const { records, attempts, cacheHit } = await rerun(ctx, batch.tag, patch, tasks, rerunDir);
  // A rerun cut short is not a result: nothing is decided, the resumed run plays the rest.
  throwIfInterrupted(ctx.signal, `during the rerun of ${batch.tag}`);
  ctx.benchmark.evaluation.checkRerun?.(episodes, records);
  const infra = records.filter((r) => isInfraOutcome(r.outcome));
  const hookEffects: Record<string, number> = {};
  let hookFaults = 0;
  const switchedOff = new Set<string>();
  for (const r of records) {
    for (const t of r.hookTrace) {
      if (t.fault) hookFaults++;
      if (t.fault?.kind === 'disabled') switchedOff.add(`#${r.task.index} ${t.hook}[${t.hookIndex}]`);
      if (t.disposition === 'applied') hookEffects[`${t.hook}:${t.effect}`] = (hookEffects[`${t.hook}:${t.effect}`] ?? 0) + 1;
    }
  }
  // Hooks the sandbox switched off (their calls kept costing worker kills) are named in the batch result.
  const sandboxNotes = switchedOff.size > 0 ? [`${switchedOff.size} hook(s) switched off after repeated sandbox worker kills: ${[...switchedOff].join(', ')}`] : [];
  const patchedRewards = new Map(records.filter((r) => !isInfraOutcome(r.outcome)).map((r) => [r.task.index, r.reward]));
  const decision = decideReward({ ...evidence, proposal: 'proposed', verdict, rerun: { rewards: patchedRewards, infraFailures: infra.length, appliedEffects: Object.values(hookEffects).reduce((a, b) => a + b, 0) } });
  const raw = decision.raw;
  const notes = decision.status === 'missing_evaluation'
    ? [...engineerNotes, ...sandboxNotes, `${infra.length} rerun episode(s) still failed for infrastructure reasons after ${attempts} attempt(s): ${infra.map((r) => `#${r.task.index} ${r.outcome}`).join(', ')}`]
    : [...engineerNotes, ...sandboxNotes];
  return finish({
    status: decision.status,
    validPatch: decision.validPatch,
    patched: { pass: raw.patchedPass, rewards: Object.fromEntries(patchedRewards) },
    reward: { score: decision.score, metric: ctx.metric, raw },
    hookEffects,
    hookFaults,
    rejection: null,
    rerun: { cacheKey, cacheHit, attempts, infraFailures: infra.length },
    notes,
  });
}

/**
 * Installs a patch and plays `tasks` with it into the run store at `dir` (created, or resumed when it
 * exists), retrying infrastructure failures up to `ctx.maxInfraRetries` times. Experiments use it for
 * their own reruns (a seed's held-out tasks, an ablation arm).
 */
export async function rerunPatch(ctx: ImproveContext, batchTag: string, patch: HarnessPatch, tasks: number[], dir: string) {
  return rerun(ctx, batchTag, patch, tasks, dir);
}

async function rerun(ctx: ImproveContext, batchTag: string, patch: HarnessPatch, tasks: number[], dir: string) {
  const cacheHit = RunStore.exists(dir) && (() => {
    const s = RunStore.open(dir);
    const complete = tasks.every((i) => s.isDone(i, true));
    s.close();
    return complete;
  })();
  const codeHooks = codeHooksOf(patch);
  const store = RunStore.exists(dir)
    ? RunStore.open(dir)
    : RunStore.create(dir, {
        schemaVersion: RUN_MANIFEST_VERSION, runId: path.basename(dir), createdAt: new Date().toISOString(), bench: ctx.benchmark.name, split: ctx.split,
        taskIndices: tasks, target: { spec: String(ctx.rerunContext.target ?? ''), label: ctx.target.label, simulated: ctx.target.simulated },
        patch: null, options: { batchTag, rerunOf: 'patch', ...ctx.rerunContext },
      });
  let attempts = 0;
  try {
    if (!cacheHit) {
      const installed = await createPythonHookProvider(ctx.pool, codeHooks, { rules: compileRulesOf(ctx.benchmark.patch), label: `patch for ${batchTag}` });
      const hooks = withDisabledHooks(installed, ctx.disabledHooks ?? []);
      const environment = await ctx.openEnvironment(patch);
      try {
        for (attempts = 1; attempts <= 1 + ctx.maxInfraRetries; attempts++) {
          await runBatch({
            environment, model: ctx.target, hooks, taskIndices: tasks, store, concurrency: ctx.concurrency, retryInfra: attempts > 1, ...(ctx.signal ? { signal: ctx.signal } : {}),
            onProgress: (p) => ctx.onProgress?.({ kind: 'episode', batchTag, done: p.done, total: p.total, ...(p.record ? { outcome: p.record.outcome } : {}) }),
          });
          if (tasks.every((i) => store.isDone(i, true)) || ctx.signal?.aborted) break;
        }
      } finally {
        await environment.close();
      }
    }
    return { records: store.records().filter((r) => tasks.includes(r.task.index)), attempts: Math.min(attempts, 1 + ctx.maxInfraRetries), cacheHit };
  } finally {
    store.close();
  }
}
