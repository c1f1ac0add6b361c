import path from 'node:path';

import type { EpisodeRecord, HookName, Outcome, RecordedTurn } from '../../episode/index.js';
import { withDisabledHooks } from '../../hooks/disabled-hooks.js';
import { rerunFindings } from './rerun-findings.js';
import type { EngineerProposal, EngineerResult } from '../../engineer/engineer.js';
import type { Environment } from '../../runtime/environment.js';
import type { ChatModel } from '../../models/chat-model.js';
import type { AnyBenchmarkDefinition } from '../../benchmark/definition.js';
import { compileRulesOf, describeRejection, validateEngineerResponse, validatePatch, type HarnessPatch, type HookCompiler, type PatchRulesLookup, type PatchVerdict } from '../../patch/index.js';
import { createPythonHookProvider, type SandboxPool } from '../../sandbox/index.js';
import { codeHooksOf } from '../../patch/patch-parts.js';
import { RUN_MANIFEST_VERSION } from '../../store/run-manifest.js';
import { RunStore } from '../../store/run-store.js';
import { ImproveRunDir } from '../../run-dir/improve-run-dir.js';
import { runBatch } from '../run-batch.js';
import type { RewardMetric } from './batch-reward.js';
import { decideReward, type RewardDecision, type RewardEvidence } from './decide-reward.js';
import { rerunCacheKey } from './rerun-cache-key.js';
import { throwIfInterrupted } from '../interrupted.js';
import type { ReplayMode } from '../../models/replay-mode.js';
import { replayCounts, type ReplayCounts } from './replay-counts.js';
import type { StrategyName } from '../../runtime/strategies/index.js';

/** What the reward path needs besides the proposal: the benchmark, the frozen target and the rerun setup. */
export interface RewardPathContext {
  /** The benchmark of the batch: its patch rules and evaluation rules. */
  benchmark: AnyBenchmarkDefinition;
  /** Every registered benchmark's patch rules (a patch may name another benchmark; the original checks it by its own rules). */
  patchRules: PatchRulesLookup;
  split: string;
  /** Reruns are kept in `<rootDir>/reruns/<cache key>/`. */
  rootDir: string;
  /** A fresh environment for a rerun, with the legacy actions of the patch the benchmark honours at install. */
  openEnvironment(patch?: HarnessPatch): Promise<Environment>;
  target: ChatModel;
  compiler: HookCompiler;
  pool: SandboxPool;
  concurrency: number;
  threshold: number;
  metric: RewardMetric;
  /** Reruns of episodes that ended in an infrastructure failure (bounded; never "until positive"). */
  maxInfraRetries: number;
  /**
   * Lifecycle positions whose hooks are not called in reruns (the ablation switch). They change what a
   * rerun means, so the caller also puts them in `rerunContext`.
   */
  disabledHooks?: readonly HookName[];
  /**
   * The baseline target strategy reruns are played with, the same as the baseline's, so a reward compares
   * like with like (success@1 of the first episodes; Reflection's second episodes never enter it). It
   * changes what a rerun means, so the caller also puts it in `rerunContext`.
   */
  strategy?: StrategyName;
  /** What changes a rerun's meaning besides the patch and the batch (target, options); part of the cache key. */
  rerunContext: Record<string, unknown>;
  /**
   * `exact`: reruns answer each episode's model requests from the baseline's recorded turns of the same task
   * while the requests are exactly the baseline's, and call the target from the first difference on (see
   * `episodeModel`). Only for targets whose answer is a function of the request, so the records are the
   * same either way: it is not part of `rerunContext` (a rerun played with it is the same rerun). Default `off`.
   */
  replay?: ReplayMode;
  /**
   * `improve --generate-only`: a valid patch is kept (`onPatch`) but not rerun; it ends as `generated`.
   * Nothing is measured, so it changes no cache key.
   */
  generateOnly?: boolean;
  onProgress?: (event: RewardPathEvent) => void;
  /** Stops the rerun: episodes in flight finish and are stored, then {@link Interrupted} is thrown before anything is decided. */
  signal?: AbortSignal;
}

export type RewardPathEvent =
  | { kind: 'stage'; batchTag: string; stage: 'validate' | 'rerun' }
  | { kind: 'episode'; batchTag: string; done: number; total: number; /** Set when an episode just finished. */ outcome?: Outcome };

/** The batch as the reward path sees it: its tag, its baseline episodes and the stored evidence. */
export interface JudgedBatch {
  tag: string;
  /** Baseline episodes of the batch's tasks (infrastructure failures included; a benchmark's rerun check compares task identities against them). */
  episodes: readonly EpisodeRecord[];
  /** The reward evidence so far: stored baseline rewards, threshold, metric. */
  evidence: RewardEvidence;
  /** The baseline's recorded model turns per task, replayed by the rerun when `ctx.replay` is `exact`. */
  baselineTurns?: ReadonlyMap<number, readonly RecordedTurn[]>;
}

/** Everything the reward path found about one proposal; `decision` is the one reward decision. */
export interface JudgedProposal {
  decision: RewardDecision;
  verdict: PatchVerdict | null;
  patch: HarnessPatch | null;
  patchedRewards: Map<number, number> | null;
  hookEffects: Record<string, number>;
  hookFaults: number;
  rejection: string | null;
  rerun: { cacheKey: string; cacheHit: boolean; attempts: number; infraFailures: number; replay: ReplayCounts } | null;
  notes: string[];
}

/** Stage files the caller keeps (improve writes them into the batch folder); all optional. */
export interface JudgeSinks {
  onVerdict?(verdict: PatchVerdict): void;
  onPatch?(patch: HarnessPatch): void;
}

/**
 * The reward path of one engineer answer, shared by `improve` and GRPO groups: validation exactly as the
 * original (plus the runtime no-op check of the RL config), install and rerun of the batch's tasks with the
 * same target (cached by patch + batch + context, so identical patches share one rerun), then
 * `decideReward`. The baseline must have at least one failure (the caller checks `decideReward(evidence)` first).
 */
export async function judgeProposal(ctx: RewardPathContext, batch: JudgedBatch, proposal: EngineerResult, sinks: JudgeSinks = {}): Promise<JudgedProposal> {
  const { evidence } = batch;
  const engineerNotes = proposal.status === 'ok' ? (proposal.notes ?? []) : [];
  const none = { verdict: null, patch: null, patchedRewards: null, hookEffects: {}, hookFaults: 0, rejection: null, rerun: null };
  if (proposal.status === 'request_failed') return { ...none, decision: decideReward({ ...evidence, proposal: 'request_failed' }), notes: [proposal.detail] };
  if (proposal.proposal.kind === 'patch' && proposal.proposal.patch === null) return { ...none, decision: decideReward({ ...evidence, proposal: 'no_patch' }), notes: engineerNotes };

  ctx.onProgress?.({ kind: 'stage', batchTag: batch.tag, stage: 'validate' });
  const verdict = await validateProposal(ctx, proposal.proposal);
  sinks.onVerdict?.(verdict);
  if (verdict.kind === 'invalid') {
    return { ...none, verdict, decision: decideReward({ ...evidence, proposal: 'proposed', verdict }), rejection: describeRejection(verdict.rejection), notes: engineerNotes };
  }
  const patch = verdict.patch;
  sinks.onPatch?.(patch);
  if (ctx.generateOnly) return { ...none, verdict, patch, decision: decideReward({ ...evidence, proposal: 'proposed', verdict, generateOnly: true }), notes: engineerNotes };

  ctx.onProgress?.({ kind: 'stage', batchTag: batch.tag, stage: 'rerun' });
  const tasks = [...evidence.baseline.keys()];
  const cacheKey = rerunCacheKey({ batchTag: batch.tag, taskIndices: tasks, patch, context: ctx.rerunContext });
  const rerunDir = new ImproveRunDir(ctx.rootDir).rerunDir(cacheKey);
  const { records, attempts, cacheHit, replay } = await rerun(ctx, batch.tag, patch, tasks, rerunDir, batch.baselineTurns);
  // A rerun cut short is not a result: nothing is decided, the resumed run plays the rest.
  throwIfInterrupted(ctx.signal, `during the rerun of ${batch.tag}`);
  ctx.benchmark.evaluation.checkRerun?.(batch.episodes, records);
  const { hookEffects, hookFaults, appliedEffects, infra, patchedRewards, sandboxNotes } = rerunFindings(records);
  const decision = decideReward({ ...evidence, proposal: 'proposed', verdict, rerun: { rewards: patchedRewards, infraFailures: infra.length, appliedEffects } });
  const notes = decision.status === 'missing_evaluation'
    ? [...engineerNotes, ...sandboxNotes, `${infra.length} rerun episode(s) still failed for infrastructure reasons after ${attempts} attempt(s): ${infra.map((r) => `#${r.task.index} ${r.outcome}`).join(', ')}`]
    : [...engineerNotes, ...sandboxNotes];
  return { decision, verdict, patch, patchedRewards, hookEffects, hookFaults, rejection: null, rerun: { cacheKey, cacheHit, attempts, infraFailures: infra.length, replay }, notes };
}

/**
 * The validation stage of the reward path on its own: exactly as the original (plus the runtime no-op
 * check of the RL config). A benchmark whose runtime executes no legacy DSL action requires code hooks
 * only, as the original's shop evaluator does.
 */
export async function validateProposal(ctx: Pick<RewardPathContext, 'benchmark' | 'patchRules' | 'compiler'>, proposal: EngineerProposal): Promise<PatchVerdict> {
  const options = { bench: ctx.benchmark.name, benchmarks: ctx.patchRules, compiler: ctx.compiler, rejectRuntimeNoop: true, codeHookOnly: ctx.benchmark.evaluation.codeHookOnly };
  return proposal.kind === 'response'
    ? validateEngineerResponse(proposal.text, { ...options, protocol: proposal.protocol })
    : validatePatch(proposal.patch, options);
}

/**
 * Installs a patch and plays `tasks` with it into the run store at `dir` (created, or resumed when it
 * exists), retrying infrastructure failures up to `ctx.maxInfraRetries` times. Experiments use it for
 * their own reruns (a seed's held-out tasks, an ablation arm).
 */
export async function rerunPatch(ctx: RewardPathContext, batchTag: string, patch: HarnessPatch, tasks: number[], dir: string, baselineTurns?: ReadonlyMap<number, readonly RecordedTurn[]>) {
  return rerun(ctx, batchTag, patch, tasks, dir, baselineTurns);
}

async function rerun(ctx: RewardPathContext, batchTag: string, patch: HarnessPatch, tasks: number[], dir: string, baselineTurns: ReadonlyMap<number, readonly RecordedTurn[]> | undefined) {
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
            ...(ctx.replay === 'exact' && baselineTurns ? { replayFrom: baselineTurns } : {}),
            ...(ctx.strategy ? { strategy: ctx.strategy } : {}),
            onProgress: (p) => ctx.onProgress?.({ kind: 'episode', batchTag, done: p.done, total: p.total, ...(p.record ? { outcome: p.record.outcome } : {}) }),
          });
          if (tasks.every((i) => store.isDone(i, true)) || ctx.signal?.aborted) break;
        }
      } finally {
        await environment.close();
      }
    }
    return { records: store.records().filter((r) => tasks.includes(r.task.index)), attempts: Math.min(attempts, 1 + ctx.maxInfraRetries), cacheHit, replay: replayCounts(ctx.replay ?? 'off', store, tasks) };
  } finally {
    store.close();
  }
}
