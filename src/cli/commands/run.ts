import path from 'node:path';

import { ConfigError } from '../../episode/index.js';
import { runBatch } from '../../evaluation/run-batch.js';
import { summarizeRun } from '../../evaluation/summarize-run.js';
import { successAt2 } from '../../evaluation/success-at-2.js';
import { describeStrategy, renderSuccessAt2 } from '../render-strategy.js';
import { NO_HOOKS } from '../../hooks/native-hooks.js';
import { withDisabledHooks } from '../../hooks/disabled-hooks.js';
import { createSandboxPool, type SandboxPool } from '../../sandbox/index.js';
import { loadRunPatch, type RunPatch } from '../../app/load-run-patch.js';
import { describePatchSource, loadPatchSource, patchSourceIdentity, playPatchSource, type PatchSourcePlan } from '../../app/run-patch-source.js';
import { DEFAULT_BATCH_SIZE } from '../../evaluation/improve/batches.js';
import type { BatchProgress } from '../../evaluation/run-batch.js';
import { RUN_MANIFEST_VERSION, type RunManifest } from '../../store/run-manifest.js';
import { RunStore } from '../../store/run-store.js';
import { lockRunDir } from '../../store/dir-lock.js';
import { EXIT_FAILED, EXIT_OK } from '../exit-codes.js';
import { describeAllInfraFailures } from '../infra-failure.js';
import { EXIT_INTERRUPTED, onInterrupt, resumeCommand } from '../interrupt.js';
import { preflightTarget } from '../../app/preflight.js';
import { parseTaskRange } from '../parse-task-range.js';
import { createProgressReporter } from '../progress.js';
import { renderRunSummary } from '../render-summary.js';
import { benchmarkOptions, chooseProtocol, chooseSplit, dataDirFor, openBenchmark, type BenchmarkChoice } from '../../app/open-environment.js';
import { summarizeModelTurns } from '../../evaluation/model-turn-health.js';
import { resolveMaxRecordBytes } from '../../store/record-size-cap.js';
import { parseWith, RunOptionsSchema, splitOptions, type RunOptions } from '../../app/options.js';
import { resolveTarget } from '../../app/resolve-target.js';
import { checkSpecs } from '../../app/check-specs.js';
import { benchmarkOf, receivedOptions, type CliContext } from '../cli-context.js';


export type RunCommandOptions = RunOptions;

/** Plays a batch of tasks with one target and prints a summary; the library function behind `harness-r1 run`. */
export async function runCommand(ctx: CliContext, received: Record<string, unknown>, out: NodeJS.WriteStream = process.stdout): Promise<number> {
  const { own, bench: benchReceived } = splitOptions(RunOptionsSchema, receivedOptions(ctx, received, Object.keys(RunOptionsSchema.shape)));
  const o = parseWith(RunOptionsSchema, own);
  const definition = await benchmarkOf(ctx, o.bench);
  const benchOptions = benchmarkOptions(ctx.registry, definition, benchReceived);
  if (o.resume && !o.runDir) throw new ConfigError({ message: '--resume needs --run-dir DIR (the run to continue).', field: 'resume' });
  if (o.resume && o.new) throw new ConfigError({ message: '--resume continues a run and --new starts one: give one of them.', field: 'new' });
  if (o.patch !== undefined && o.patchSource !== undefined) throw new ConfigError({ message: '--patch and --patch-source exclude each other: --patch installs one patch in every episode, --patch-source one patch per batch.', field: 'patchSource' });
  if (o.batchSize !== undefined && o.patchSource === undefined) throw new ConfigError({ message: '--batch-size cuts the tasks into the batches of --patch-source; give --patch-source DIR, or leave --batch-size out.', field: 'batchSize' });
  const storeOptions = { maxRecordBytes: resolveMaxRecordBytes(o.maxRecordBytes) };
  const { split, taskFile } = chooseSplit(definition, o.split, benchOptions);
  checkSpecs(ctx.registry, [{ bench: definition.name, targets: [o.target] }]);
  // The run directory is locked (and so known to be writable) before anything is opened or played.
  const base = o.runDir ?? path.join('runs', `${definition.name}-${split.replace(/[^\w.-]+/g, '-')}-${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-')}`);
  const { dir, lock } = lockRunDir(base, { fresh: o.new === true || o.runDir === undefined, command: 'run' });
  if (o.new && dir !== path.resolve(base)) process.stderr.write(`${path.resolve(base)} is taken: recording into the new run directory ${dir}\n`);
  try {
    return await playRun(ctx, o, { definition, benchOptions, storeOptions, split, taskFile, dir }, out);
  } finally {
    lock.release();
  }
}

interface RunPlan {
  definition: Awaited<ReturnType<typeof benchmarkOf>>;
  benchOptions: Record<string, unknown>;
  storeOptions: { maxRecordBytes: number };
  split: string;
  taskFile: string | undefined;
  dir: string;
}

async function playRun(ctx: CliContext, o: RunOptions, plan: RunPlan, out: NodeJS.WriteStream): Promise<number> {
  const { definition, benchOptions, storeOptions, split, taskFile, dir } = plan;
  const dataDir = dataDirFor(definition, o.dataDir);
  let pool: SandboxPool | undefined;
  let patch: RunPatch | undefined;
  if (o.patch !== undefined || o.patchSource !== undefined) {
    pool = await createSandboxPool({
      size: Math.min(o.concurrency, 4),
      ...(o.hookTimeoutMs !== undefined ? { hookTimeoutMs: o.hookTimeoutMs } : {}),
      ...(o.hookKillLimit !== undefined ? { hookKillLimit: o.hookKillLimit } : {}),
    });
  }
  if (o.patch !== undefined && pool) {
    try {
      patch = await loadRunPatch(o.patch, definition, ctx.registry.patchRules(), pool);
    } catch (error) {
      await pool.close();
      throw error;
    }
    for (const note of patch.notes) process.stderr.write(`patch note: ${note}\n`);
  }
  let opened;
  let choice: BenchmarkChoice;
  try {
    choice = { definition, dataDir, split, protocol: chooseProtocol(ctx.registry, definition, o.protocol), options: benchOptions, concurrency: o.concurrency, ...(o.maxRounds !== undefined ? { maxRounds: o.maxRounds } : {}) };
    opened = await openBenchmark(choice, patch?.patch);
  } catch (error) {
    await pool?.close();
    throw error;
  }
  const { environment, identity: envOptions } = opened;
  for (const notice of opened.notices ?? []) process.stderr.write(`${notice}\n`);
  const taskIndices = parseTaskRange(o.tasks ?? `0:${environment.size}`, environment.size);
  let target;
  let source: PatchSourcePlan | undefined;
  try {
    // Every batch's patch is checked and validated before any episode is played.
    if (o.patchSource !== undefined && pool) source = await loadPatchSource(o.patchSource, definition, taskIndices, o.batchSize ?? DEFAULT_BATCH_SIZE, ctx.registry.patchRules(), pool);
    for (const b of source?.batches ?? []) for (const note of b.patch?.notes ?? []) process.stderr.write(`patch note (${b.tag}): ${note}\n`);
    target = await resolveTarget(o.target, { dataDir, registry: ctx.registry, bench: definition.name, ...(taskFile !== undefined ? { taskFile } : {}) });
    for (const warning of await preflightTarget(target.model)) process.stderr.write(`warning: ${warning}\n`);
  } catch (error) {
    await target?.close();
    await environment.close();
    await pool?.close();
    throw error;
  }
  const runId = path.basename(dir);
  const manifest: RunManifest = {
    schemaVersion: RUN_MANIFEST_VERSION,
    runId,
    createdAt: new Date().toISOString(),
    bench: definition.name,
    split: environment.split,
    taskIndices,
    target: { spec: o.target, label: target.model.label, simulated: target.model.simulated },
    patch: patch?.manifest ?? null,
    // Run settings that change records belong to the identity too (null: this version's default); disabled
    // positions change what the run means, so a resume must agree on them as well.
    options: { ...envOptions, maxRecordBytes: storeOptions.maxRecordBytes, ...(source ? { patchSource: patchSourceIdentity(source) } : {}), ...(patch || source ? { hookTimeoutMs: o.hookTimeoutMs ?? null, hookKillLimit: o.hookKillLimit ?? null } : {}), ...(o.disableHooks ? { disabledHooks: o.disableHooks } : {}), ...(o.strategy ? { strategy: o.strategy } : {}) },
    ...(opened.data ? { data: opened.data } : {}),
  };
  const controller = new AbortController();
  const offInterrupt = onInterrupt(controller);
  let store: RunStore | undefined;
  try {
    store = o.resume ? RunStore.open(dir, manifest, storeOptions) : RunStore.create(dir, manifest, storeOptions);
    if (store.repairedBytes > 0) process.stderr.write(`Repaired ${dir}: dropped ${store.repairedBytes} bytes of a torn last record.\n`);
    if (!o.json && o.banner) out.write(`${o.banner}\n`);
    const progress = createProgressReporter(`${definition.name}/${environment.split}`);
    const play = {
      model: target.model,
      store,
      concurrency: o.concurrency,
      onProgress: (p: BatchProgress) => progress.update(p),
      signal: controller.signal,
      ...(o.retryInfra ? { retryInfra: true } : {}),
      ...(o.strategy ? { strategy: o.strategy } : {}),
    };
    const result = source
      ? await playPatchSource(source, { ...play, choice, environment, disabledHooks: o.disableHooks ?? [] })
      : await runBatch({ ...play, environment, hooks: withDisabledHooks(patch?.hooks ?? NO_HOOKS, o.disableHooks ?? []), taskIndices });
    progress.stop();
    const records = result.records.filter((r) => taskIndices.includes(r.task.index));
    const summary = summarizeRun(records);
    // Reflection's figure is success@2: reported on its own, beside (never in place of) success@1.
    const reflection = o.strategy === 'reflection' ? successAt2(records) : undefined;
    const sandbox = pool ? describeSandbox(pool) : undefined;
    if (o.json) {
      out.write(`${JSON.stringify({ runDir: dir, target: manifest.target, patch: manifest.patch, ...(source ? { patchSource: { ...patchSourceIdentity(source), batches: describePatchSource(source) } } : {}), ...(o.disableHooks ? { disabledHooks: o.disableHooks } : {}), ...(o.strategy ? { strategy: o.strategy } : {}), sandbox, interrupted: result.interrupted, ran: result.ran, skipped: result.skipped, ...(opened.data ? { data: opened.data } : {}), summary, ...(reflection ? { successAt2: reflection } : {}), modelTurns: summarizeModelTurns(records), tasks: records.map((r) => ({ index: r.task.index, attempt: r.attempt, outcome: r.outcome, reward: r.reward, rounds: r.rounds })) }, null, 2)}\n`);
    } else {
      out.write(`${renderRunSummary(records, summary, target.model.simulated ? `${target.model.label} — SIMULATED TARGET, not a real model` : target.model.label, { fullTable: o.tasksTable === true })}\n`);
      if (patch) out.write(`patch: ${patch.manifest.file} (${patch.hooks.installed.length} code hook(s) installed; ${sandbox})\n`);
      for (const b of source?.batches ?? []) out.write(`${b.tag} (tasks ${b.taskIndices.join(' ')}): ${b.patch ? `patch ${b.patch.manifest.file} (${b.patch.hooks.installed.length} code hook(s) installed)` : `no patch (no ${definition.name}.json in the patch source)`}\n`);
      if (source) out.write(`patch source: ${source.check.dir}, ${source.check.found.length} of ${source.batches.length} batch(es) patched; ${sandbox}\n`);
      if (o.disableHooks) out.write(`disabled lifecycle positions (hooks there are not called): ${o.disableHooks.join(', ')}\n`);
      if (o.strategy) out.write(`${describeStrategy(o.strategy, records)}\n`);
      if (reflection) out.write(`${renderSuccessAt2(reflection)}\n`);
      const unshipped = opened.data?.unshipped;
      if (unshipped) out.write(`not played: ${unshipped.count} of the ${unshipped.listed} games of ${environment.split} are not shipped with the data (listed in run.json)\n`);
      out.write(`run directory: ${dir}\n`);
      if (result.interrupted) out.write(`interrupted: ${taskIndices.length - records.length} task(s) left; continue with --run-dir ${dir} --resume\n`);
    }
    if (result.interrupted) {
      process.stderr.write(`interrupted: the finished episodes are stored. Continue with:\n  ${resumeCommand(dir, { resumeFlag: true })}\n`);
      return EXIT_INTERRUPTED;
    }
    const allFailed = describeAllInfraFailures(records);
    if (allFailed) {
      process.stderr.write(`error: ${allFailed}\n`);
      return EXIT_FAILED;
    }
    return EXIT_OK;
  } finally {
    offInterrupt();
    store?.close();
    await target.close();
    await environment.close();
    await pool?.close();
  }
}

function describeSandbox(pool: SandboxPool): string {
  const info = pool.info();
  return `sandbox: Python ${info.pythonVersion ?? '?'} in Pyodide ${info.pyodideVersion}, Node ${info.permissionFlag}, network: ${info.network.kind}${info.network.pidNamespace ? " + pid namespace" : ""}`;
}
