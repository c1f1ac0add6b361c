import path from 'node:path';

import { resolveDataDir } from '../../config/data-dir.js';
import type { Engineer } from '../../engineer/engineer.js';
import type { ImproveContext } from '../../evaluation/improve/improve-batch.js';
import type { BaselineIdentity } from '../../experiments/shared/play-baseline.js';
import type { Environment } from '../../runtime/environment.js';
import { createSandboxPool, type SandboxPool } from '../../sandbox/index.js';
import { benchmarkOptions, chooseProtocol, chooseSplit, openBenchmark } from '../../app/open-environment.js';
import { resolveTarget } from '../../app/resolve-target.js';
import { sandboxCompiler } from '../../app/sandbox-compiler.js';
import { chooseReplay } from '../../app/replay-choice.js';
import type { ReplayMode } from '../../models/replay-mode.js';
import { splitOptions } from '../../app/options.js';
import { strategyAndTimeout } from '../../run-dir/run-identity.js';
import { STRATEGY_NAMES, type StrategyName } from '../../runtime/strategies/index.js';
import type { z } from 'zod';
import type { AnyBenchmarkDefinition } from '../../benchmark/definition.js';
import { parseTaskRange } from '../parse-task-range.js';
import { createImproveProgress } from '../progress.js';
import { benchmarkOf, receivedOptions, type CliContext } from '../cli-context.js';

/** What an experiment command opens before its protocol runs; `close` releases all of it. */
export interface ExperimentSetup {
  definition: AnyBenchmarkDefinition;
  split: string;
  taskIndices: number[];
  baselineEnvironment: Environment;
  baselineIdentity: BaselineIdentity;
  context: ImproveContext;
  /** The target's SPEC and the benchmark options: part of the experiment's identity. */
  settings: Record<string, unknown>;
  /** Another target on the same benchmark (an ablation repeat with another seed), closed with the rest. */
  openTarget(spec: string): Promise<{ model: ImproveContext['target']; identity: BaselineIdentity }>;
  close(): Promise<void>;
}

/** Splits and validates what an experiment command received: its own options and the benchmark's. */
export function experimentOptions<S extends z.ZodObject>(ctx: CliContext, schema: S, received: Record<string, unknown>): { own: Record<string, unknown>; bench: Record<string, unknown> } {
  return splitOptions(schema, receivedOptions(ctx, received, Object.keys(schema.shape)));
}

/**
 * Opens the benchmark, the target, the sandbox and the improve context an experiment runs in (as
 * `improve` does). The caller supplies the engineer (or a replay of patches) and the run directory.
 */
export async function openExperiment(
  ctx: CliContext,
  o: { bench: string; split?: string | undefined; tasks?: string | undefined; target: string; dataDir?: string | undefined; maxRounds?: number | undefined; protocol?: string | undefined; concurrency: number; replay?: ReplayMode | undefined; hookTimeoutMs?: number | undefined; strategy?: StrategyName | undefined },
  benchReceived: Record<string, unknown>,
  engineer: (definition: AnyBenchmarkDefinition, dataDir: string) => Promise<{ engineer: Engineer; close(): Promise<void> }>,
  rootDir: string,
  log: (line: string) => void,
): Promise<ExperimentSetup> {
  const definition = await benchmarkOf(ctx, o.bench);
  const benchOptions = benchmarkOptions(ctx.registry, definition, benchReceived);
  const dataDir = resolveDataDir(o.dataDir);
  const { split, taskFile } = chooseSplit(definition, o.split, benchOptions);
  const choice = { definition, dataDir, split, protocol: chooseProtocol(ctx.registry, definition, o.protocol), options: benchOptions, ...(o.maxRounds !== undefined ? { maxRounds: o.maxRounds } : {}) };
  const opened = await openBenchmark(choice);
  const { environment, identity } = opened;
  for (const notice of opened.notices ?? []) log(notice);
  // One live view of every stage (baseline, engineer, reruns): episodes done/total, successes, elapsed, ETA.
  const live = createImproveProgress(process.stderr);
  const closers: (() => Promise<void>)[] = [() => environment.close(), async () => live.stop()];
  const close = async () => {
    for (const c of closers.reverse()) await c();
  };
  try {
    const taskIndices = parseTaskRange(o.tasks ?? `0:${environment.size}`, environment.size);
    const target = await resolveTarget(o.target, { dataDir, registry: ctx.registry, bench: definition.name, ...(taskFile !== undefined ? { taskFile } : {}) });
    closers.push(() => target.close());
    const resolved = await engineer(definition, dataDir);
    closers.push(() => resolved.close());
    const pool: SandboxPool = createSandboxPool({ size: Math.min(2, o.concurrency), ...(o.hookTimeoutMs !== undefined ? { hookTimeoutMs: o.hookTimeoutMs } : {}) });
    closers.push(() => pool.close());
    const metric = definition.evaluation.defaultMetric;
    const context: ImproveContext = {
      benchmark: definition,
      patchRules: ctx.registry.patchRules(),
      split: environment.split,
      rootDir: path.resolve(rootDir),
      openEnvironment: async (patch) => (await openBenchmark(choice, patch)).environment,
      target: target.model,
      engineer: resolved.engineer,
      compiler: sandboxCompiler(pool),
      pool,
      concurrency: o.concurrency,
      threshold: 1,
      metric,
      maxInfraRetries: 2,
      // A hook time limit changes what a rerun means (a slow hook faults or not): part of the key when given.
      // The strategy too: the target plays the baseline and every rerun with it. Each only when given, as in improve.
      rerunContext: { target: o.target, bench: definition.name, split, ...identity, threshold: 1, metric, ...strategyAndTimeout(o) },
      ...(o.strategy ? { strategy: o.strategy } : {}),
      replay: chooseReplay(o.target, o.replay).mode,
      onProgress: (e) => live.event(e),
    };
    const identityOf = (spec: string, model: ImproveContext['target']): BaselineIdentity => ({
      bench: definition.name, split: environment.split, target: { spec, label: model.label, simulated: model.simulated }, options: { ...identity, ...strategyAndTimeout({ strategy: o.strategy }) }, ...(opened.data ? { data: opened.data } : {}),
    });
    return {
      definition,
      split: environment.split,
      openTarget: async (spec) => {
        const other = await resolveTarget(spec, { dataDir, registry: ctx.registry, bench: definition.name, ...(taskFile !== undefined ? { taskFile } : {}) });
        closers.push(() => other.close());
        return { model: other.model, identity: identityOf(spec, other.model) };
      },
      taskIndices,
      baselineEnvironment: environment,
      baselineIdentity: identityOf(o.target, target.model),
      context,
      settings: { target: o.target, options: identity, ...strategyAndTimeout({ strategy: o.strategy }) },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The help of `--strategy` and `--hook-timeout-ms` on the single-strategy experiments. */
export const PLAY_OPTION_HELP = {
  strategy: `a baseline target strategy the baseline and every rerun are played with: ${STRATEGY_NAMES.join(', ')} (the deltas stay success@1; reflection's success@2 is reported apart)`,
  hookTimeoutMs: 'wall-clock limit of one hook call in reruns (default 50, as the original)',
};

/** `runs/<kind>-<bench>-<split>-<time>` unless `--out` names the directory. */
export function experimentDir(kind: string, bench: string, split: string | undefined, out: string | undefined): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
  return path.resolve(out ?? path.join('runs', `${kind}-${bench}-${(split ?? 'default').replace(/[^\w.-]+/g, '-')}-${stamp}`));
}
