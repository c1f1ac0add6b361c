import path from 'node:path';

import { ConfigError } from '../../episode/index.js';
import { makeBatches } from '../../evaluation/improve/batches.js';
import type { RewardMetric } from '../../evaluation/improve/batch-reward.js';
import { improveRun, type ImproveSummary } from '../../evaluation/improve/improve-run.js';
import { writeReport } from '../../report/write-report.js';
import { createSandboxPool } from '../../sandbox/index.js';
import { EXIT_FAILED, EXIT_OK } from '../exit-codes.js';
import { describeAllInfraFailures } from '../infra-failure.js';
import { onInterrupt, resumeCommand } from '../interrupt.js';
import { Interrupted } from '../../evaluation/interrupted.js';
import { preflightEngineer, preflightTarget } from '../../app/preflight.js';
import { parseTaskRange } from '../parse-task-range.js';
import { batchReasons } from '../batch-reasons.js';
import { createImproveProgress } from '../progress.js';
import { renderImproveSummary } from '../render-improve-summary.js';
import { benchmarkOptions, chooseProtocol, chooseSplit, dataDirFor, openBenchmark } from '../../app/open-environment.js';
import { modelTurnHealthOf } from '../../report/render-model-turns.js';
import { chooseReplay } from '../../app/replay-choice.js';
import { DEFAULT_BATCH_SIZE, ImproveOptionsSchema, parseWith, splitOptions, type ImproveOptions } from '../../app/options.js';
import { benchmarkOf, receivedOptions, type CliContext } from '../cli-context.js';
import { resolveEngineer } from '../../app/resolve-engineer.js';
import { engineerOrSource } from '../../app/experiment-options.js';
import { checkPatchSource, type PatchSourceCheck } from '../../engineer/patch-source-dir.js';
import { createPatchSourceEngineer } from '../../engineer/patch-source-engineer.js';
import { resolveTarget } from '../../app/resolve-target.js';
import { checkSpecs } from '../../app/check-specs.js';
import { sandboxCompiler } from '../../app/sandbox-compiler.js';
import { ImproveRunDir } from '../../run-dir/improve-run-dir.js';
import { IMPROVE_IDENTITY_VERSION, PATCH_SOURCE_ENGINEER, strategyAndTimeout } from '../../run-dir/run-identity.js';
import { lockRunDir } from '../../store/dir-lock.js';
import { strategyReport } from '../improve-strategy.js';

export type ImproveCommandOptions = ImproveOptions;

/** The full loop on batches of tasks; the library function behind `harness-r1 improve` (and the demo). */
export async function improveCommand(ctx: CliContext, received: Record<string, unknown>, out: NodeJS.WriteStream = process.stdout): Promise<{ code: number; summary: ImproveSummary; runDir: string; report: string }> {
  const { own, bench: benchReceived } = splitOptions(ImproveOptionsSchema, receivedOptions(ctx, received, Object.keys(ImproveOptionsSchema.shape)));
  const o = parseWith(ImproveOptionsSchema, own);
  const definition = await benchmarkOf(ctx, o.bench);
  const benchOptions = benchmarkOptions(ctx.registry, definition, benchReceived);
  const source = engineerOrSource(o);
  checkImproveModes(o, source);
  const metric: RewardMetric = o.metric ?? definition.evaluation.defaultMetric;
  const dataDir = dataDirFor(definition, o.dataDir);
  const { split, taskFile } = chooseSplit(definition, o.split, benchOptions);
  checkSpecs(ctx.registry, [{ bench: definition.name, targets: [o.target] }], 'engineer' in source ? [source.engineer] : []);
  // The run directory is locked (and so known to be writable) before anything is opened or played.
  const base = o.runDir ?? path.join('runs', `improve-${definition.name}-${split.replace(/[^\w.-]+/g, '-')}-${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-')}`);
  const { dir: runDir, lock } = lockRunDir(base, { fresh: o.new === true || o.runDir === undefined, command: o.banner ? 'demo' : 'improve' });
  if (o.new && runDir !== path.resolve(base)) process.stderr.write(`${path.resolve(base)} is taken: recording into the new run directory ${runDir}\n`);
  try {
    return await improveLocked(ctx, o, { definition, benchOptions, metric, dataDir, split, taskFile, runDir, source }, out);
  } finally {
    lock.release();
  }
}

interface ImprovePlan {
  definition: Awaited<ReturnType<typeof benchmarkOf>>;
  benchOptions: Record<string, unknown>;
  metric: RewardMetric;
  dataDir: string;
  split: string;
  taskFile: string | undefined;
  runDir: string;
  /** The engineer SPEC, or the folder whose patches are replayed. */
  source: { engineer: string } | { patchSource: string };
}

/** The combinations of `--generate-only`, `--patch-source` and `--revise` that cannot work, as usage errors. */
function checkImproveModes(o: ImproveOptions, source: ImprovePlan['source']): void {
  if (o.generateOnly && 'patchSource' in source) throw new ConfigError({ message: '--generate-only and --patch-source exclude each other: --generate-only asks the engineer for patches, --patch-source replays patches made before.', field: 'generateOnly' });
  if (o.revise && o.generateOnly) throw new ConfigError({ message: '--revise and --generate-only exclude each other: a revision pass needs the rerun of the first patch, which --generate-only skips.', field: 'revise' });
  if (o.revise && 'patchSource' in source) throw new ConfigError({ message: '--revise needs an LLM engineer; replayed patches (--patch-source) have no revision pass.', field: 'revise' });
  if (o.revise && 'engineer' in source && source.engineer === 'symbolic') throw new ConfigError({ message: '--revise needs an LLM engineer; the symbolic engineer has no revision pass.', field: 'revise' });
}

async function improveLocked(ctx: CliContext, o: ImproveOptions, plan: ImprovePlan, out: NodeJS.WriteStream): Promise<{ code: number; summary: ImproveSummary; runDir: string; report: string }> {
  const { definition, benchOptions, metric, dataDir, split, taskFile, runDir, source } = plan;
  const protocol = chooseProtocol(ctx.registry, definition, o.protocol);
  const choice = { definition, dataDir, split, protocol, options: benchOptions, concurrency: o.concurrency, ...(o.maxRounds !== undefined ? { maxRounds: o.maxRounds } : {}) };
  const opened = await openBenchmark(choice);
  const { environment: baselineEnvironment, identity: backendOptions } = opened;
  for (const notice of opened.notices ?? []) process.stderr.write(`${notice}\n`);
  const taskIndices = parseTaskRange(o.tasks ?? `0:${Math.min(DEFAULT_BATCH_SIZE, baselineEnvironment.size)}`, baselineEnvironment.size);
  const batches = makeBatches(taskIndices, o.batchSize, o.batches);
  let patchSource: PatchSourceCheck | undefined;
  try {
    // The patch folder is checked against the batches before anything is played or written.
    patchSource = 'patchSource' in source ? checkPatchSource(source.patchSource, definition.name, batches.map((b) => b.tag)) : undefined;
    new ImproveRunDir(runDir).claimIdentity({
      schemaVersion: IMPROVE_IDENTITY_VERSION, bench: definition.name, split, taskIndices, batchSize: o.batchSize, batches: o.batches ?? null,
      target: o.target, engineer: 'engineer' in source ? source.engineer : PATCH_SOURCE_ENGINEER, metric, threshold: 1, protocol, revise: o.revise === true, options: backendOptions,
      ...(o.disableHooks ? { disabledHooks: o.disableHooks } : {}),
      ...strategyAndTimeout(o),
      ...(o.generateOnly ? { generateOnly: true } : {}),
      ...(patchSource ? { patchSource: patchSource.dir, patchSourceDigest: patchSource.digest } : {}),
    });
  } catch (error) {
    await baselineEnvironment.close();
    throw error;
  }
  let target: Awaited<ReturnType<typeof resolveTarget>> | undefined;
  let engineer: Awaited<ReturnType<typeof resolveEngineer>> | undefined;
  try {
    target = await resolveTarget(o.target, { dataDir, registry: ctx.registry, bench: definition.name, ...(taskFile !== undefined ? { taskFile } : {}) });
    engineer = 'engineer' in source ? await resolveEngineer(source.engineer, { dataDir }) : { engineer: createPatchSourceEngineer(source.patchSource, definition.name), close: async () => {} };
    if (patchSource && patchSource.missing.length > 0) process.stderr.write(`patch source: no ${definition.name}.json for ${patchSource.missing.join(', ')} in ${patchSource.dir}: ${patchSource.missing.length === 1 ? 'that batch gets' : 'those batches get'} no patch\n`);
    // Both servers answer before any episode is played, or the command stops with the diagnosis.
    for (const warning of await preflightTarget(target.model)) process.stderr.write(`warning: ${warning}\n`);
    await preflightEngineer(engineer.model);
  } catch (error) {
    await engineer?.close();
    await target?.close();
    await baselineEnvironment.close();
    throw error;
  }
  return playImprove(ctx, o, plan, { opened, choice, baselineEnvironment, backendOptions, batches, target, engineer, ...(patchSource ? { patchSource } : {}) }, out);
}

interface ImproveParts {
  opened: Awaited<ReturnType<typeof openBenchmark>>;
  choice: Parameters<typeof openBenchmark>[0];
  baselineEnvironment: Awaited<ReturnType<typeof openBenchmark>>['environment'];
  backendOptions: Record<string, unknown>;
  batches: ReturnType<typeof makeBatches>;
  target: Awaited<ReturnType<typeof resolveTarget>>;
  engineer: Awaited<ReturnType<typeof resolveEngineer>>;
  patchSource?: PatchSourceCheck;
}

async function playImprove(ctx: CliContext, o: ImproveOptions, plan: ImprovePlan, parts: ImproveParts, out: NodeJS.WriteStream): Promise<{ code: number; summary: ImproveSummary; runDir: string; report: string }> {
  const { definition, metric, split, runDir } = plan;
  const { opened, choice, baselineEnvironment, backendOptions, batches, target, engineer, patchSource } = parts;
  const pool = createSandboxPool({ size: Math.min(2, o.concurrency), ...(o.hookTimeoutMs !== undefined ? { hookTimeoutMs: o.hookTimeoutMs } : {}) });
  const controller = new AbortController();
  const offInterrupt = onInterrupt(controller);
  try {
    if (!o.json && o.banner) out.write(`${o.banner}\n`);
    const progress = o.json ? null : createImproveProgress(process.stderr);
    const { summary, baseline } = await improveRun({
      batches,
      baselineEnvironment,
      baselineManifest: {
        bench: definition.name, split: baselineEnvironment.split, target: { spec: o.target, label: target.model.label, simulated: target.model.simulated },
        // The strategy is part of the stored baseline's identity (absent for the plain target, as before).
        options: { ...backendOptions, ...(o.strategy ? { strategy: o.strategy } : {}) },
        ...(opened.data ? { data: opened.data } : {}),
      },
      context: {
        benchmark: definition,
        patchRules: ctx.registry.patchRules(),
        split: baselineEnvironment.split,
        rootDir: runDir,
        // Each rerun gets its own environment (and database backend), so batches never share state.
        openEnvironment: async (patch) => (await openBenchmark(choice, patch)).environment,
        target: target.model,
        engineer: engineer.engineer,
        compiler: sandboxCompiler(pool),
        pool,
        concurrency: o.concurrency,
        threshold: 1,
        metric,
        maxInfraRetries: 2,
        signal: controller.signal,
        ...(o.revise ? { revise: true } : {}),
        ...(o.generateOnly ? { generateOnly: true } : {}),
        ...(o.disableHooks ? { disabledHooks: o.disableHooks } : {}),
        ...(o.strategy ? { strategy: o.strategy } : {}),
        replay: chooseReplay(o.target, o.replay).mode,
        rerunContext: { target: o.target, bench: definition.name, split, ...backendOptions, threshold: 1, metric, ...(o.disableHooks ? { disabledHooks: o.disableHooks } : {}), ...strategyAndTimeout(o) },
        onProgress: (e) => progress?.event(e),
      },
    });
    progress?.stop();
    const written = await writeReport({ runDir });
    const report = written.file;
    const modelTurns = modelTurnHealthOf(written.artifacts);
    const unshipped = opened.data?.unshipped;
    const strategy = o.strategy ? strategyReport(o.strategy, runDir, baseline, summary) : undefined;
    const run = new ImproveRunDir(runDir);
    const modes = { ...(o.generateOnly ? { generateOnly: true, patches: run.patchesDir } : {}), ...(patchSource ? { patchSource: { dir: patchSource.dir, digest: patchSource.digest, missing: patchSource.missing } } : {}) };
    if (o.json) out.write(`${JSON.stringify({ runDir, report, ...modes, ...(o.disableHooks ? { disabledHooks: o.disableHooks } : {}), ...(strategy ? { strategy: strategy.json } : {}), ...(opened.data ? { data: opened.data } : {}), summary, modelTurns }, null, 2)}\n`);
    else {
      out.write(`${renderImproveSummary(summary, modelTurns, metric)}\n`);
      for (const line of batchReasons(runDir, summary)) out.write(`${line}\n`);
      if (o.generateOnly) out.write(`generate-only: patches written to ${run.patchesDir}; score them with: harness-r1 improve --patch-source ${run.patchesDir} (same --bench, --tasks and --batch-size, another --run-dir)\n`);
      if (patchSource) out.write(`patches replayed from ${patchSource.dir} (${patchSource.found.length} of ${batches.length} batch(es) have one)\n`);
      if (o.disableHooks) out.write(`disabled lifecycle positions in every rerun (hooks there are not called): ${o.disableHooks.join(', ')}\n`);
      for (const line of strategy?.lines ?? []) out.write(`${line}\n`);
      if (unshipped) out.write(`not played: ${unshipped.count} of the ${unshipped.listed} games of ${split} are not shipped with the data (listed in baseline/run.json)\n`);
      out.write(`report: ${report}\nrun directory: ${runDir}\n`);
    }
    const allFailed = describeAllInfraFailures(baseline);
    if (allFailed) process.stderr.write(`error: baseline: ${allFailed}\n`);
    return { code: allFailed ? EXIT_FAILED : EXIT_OK, summary, runDir, report };
  } catch (error) {
    if (error instanceof Interrupted) {
      throw new Interrupted({ message: `${error.message}: every finished episode and stage file is stored in ${runDir}. Continue with:\n  ${resumeCommand(runDir, { resumeFlag: false })}`, cause: error });
    }
    throw error;
  } finally {
    offInterrupt();
    await baselineEnvironment.close();
    await target.close();
    await engineer.close();
    await pool.close();
  }
}
