import path from 'node:path';

import type { Command } from 'commander';

import { resolveDataDir } from '../../config/data-dir.js';
import { ConfigError } from '../../episode/index.js';
import { runBatch } from '../../evaluation/run-batch.js';
import { MODEL_TURN_WARN_SHARE, summarizeModelTurns } from '../../evaluation/model-turn-health.js';
import { describeResponseLimits } from '../../models/response-limits.js';
import { summarizeRun } from '../../evaluation/summarize-run.js';
import { NO_HOOKS } from '../../hooks/native-hooks.js';
import { createSandboxPool, type SandboxPool } from '../../sandbox/index.js';
import { loadRunPatch, type RunPatch } from '../load-run-patch.js';
import { RUN_MANIFEST_VERSION, type RunManifest } from '../../store/run-manifest.js';
import { DEFAULT_MAX_RECORD_BYTES, MAX_RECORD_BYTES_ENV, resolveMaxRecordBytes } from '../../store/record-size-cap.js';
import { RunStore } from '../../store/run-store.js';
import { EXIT_OK } from '../exit-codes.js';
import { parseTaskRange } from '../parse-task-range.js';
import { createProgressReporter } from '../progress.js';
import { renderRunSummary } from '../render-summary.js';
import { BENCHES, checkBench, environmentChoice, openEnvironment } from '../resolve-environment.js';
import { resolveTarget } from '../resolve-target.js';


export interface RunCommandOptions {
  bench: string;
  /** Default dev; not with `data` / `games`. */
  split?: string;
  /** DBBench: a task file to play instead of a split; WebShop: a human-instructions (goals) file. */
  data?: string;
  /** ALFWorld: a games file to play instead of a split. */
  games?: string;
  tasks?: string;
  target: string;
  concurrency: number;
  runDir?: string;
  resume?: boolean;
  json?: boolean;
  dataDir?: string;
  backend?: string;
  dsn?: string;
  maxRounds?: number;
  grading?: string;
  /** A patch file to validate and install into every episode; none = the no-harness baseline. */
  patchFile?: string;
  /** ALFWorld wording; WebShop goal set and seed. */
  wording?: string;
  protocol?: string;
  goals?: string;
  goalSeed?: number;
  /** Wall-clock limit of one hook call in milliseconds (default 50, as the original). */
  hookTimeoutMs?: number;
  hookKillLimit?: number;
  /** With --resume: play again the tasks that ended in an infrastructure failure (model/env/hook). */
  retryInfra?: boolean;
  /** Extra lines printed before the summary (the demo uses it to say the target is simulated). */
  banner?: string;
  /** Cap on one serialized episode record (default `HARNESS_MAX_RECORD_BYTES`, else 16 MiB). */
  maxRecordBytes?: number;
}

/** Plays a batch of tasks with one target and prints a summary; the library function behind `harness-r1 run`. */
export async function runCommand(o: RunCommandOptions, out: NodeJS.WriteStream = process.stdout): Promise<number> {
  const bench = checkBench(o.bench);
  if (!Number.isInteger(o.concurrency) || o.concurrency < 1 || o.concurrency > 256) {
    throw new ConfigError({ message: `--concurrency must be an integer from 1 to 256, got ${o.concurrency}.`, field: 'concurrency' });
  }
  if (o.resume && !o.runDir) throw new ConfigError({ message: '--resume needs --run-dir DIR (the run to continue).', field: 'resume' });
  const storeOptions = { maxRecordBytes: resolveMaxRecordBytes(o.maxRecordBytes) };

  const dataDir = resolveDataDir(o.dataDir);
  let pool: SandboxPool | undefined;
  let patch: RunPatch | undefined;
  if (o.patchFile !== undefined) {
    pool = await createSandboxPool({
      size: Math.min(o.concurrency, 4),
      ...(o.hookTimeoutMs !== undefined ? { hookTimeoutMs: o.hookTimeoutMs } : {}),
      ...(o.hookKillLimit !== undefined ? { hookKillLimit: o.hookKillLimit } : {}),
    });
    try {
      patch = await loadRunPatch(o.patchFile, bench, pool);
    } catch (error) {
      await pool.close();
      throw error;
    }
    for (const note of patch.notes) process.stderr.write(`patch note: ${note}\n`);
  }
  let choice;
  let opened;
  try {
    choice = environmentChoice(bench, dataDir, o);
    opened = await openEnvironment({
      ...choice,
      ...(patch && bench === 'dbbench' ? { overlay: patch.overlay } : {}),
    });
  } catch (error) {
    await pool?.close();
    throw error;
  }
  const { environment, options: envOptions } = opened;
  for (const notice of opened.notices) process.stderr.write(`${notice}\n`);
  const taskIndices = parseTaskRange(o.tasks ?? `0:${environment.size}`, environment.size);
  const target = await resolveTarget(o.target, { dataDir, ...taskFileOf(o) });
  const runId = o.runDir ? path.basename(path.resolve(o.runDir)) : `${o.bench}-${choice.split.replace(/[^\w.-]+/g, '-')}-${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-')}`;
  const dir = path.resolve(o.runDir ?? path.join('runs', runId));
  const manifest: RunManifest = {
    schemaVersion: RUN_MANIFEST_VERSION,
    runId,
    createdAt: new Date().toISOString(),
    bench: o.bench,
    split: environment.split,
    taskIndices,
    target: { spec: o.target, label: target.model.label, simulated: target.model.simulated },
    patch: patch?.manifest ?? null,
    options: envOptions,
    ...(opened.data ? { data: opened.data } : {}),
  };
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\nInterrupted: finishing running episodes (Ctrl-C again to quit now)…\n');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  let store: RunStore | undefined;
  try {
    store = o.resume ? RunStore.open(dir, manifest, storeOptions) : RunStore.create(dir, manifest, storeOptions);
    if (store.repairedBytes > 0) process.stderr.write(`Repaired ${dir}: dropped ${store.repairedBytes} bytes of a torn last record.\n`);
    if (!o.json && o.banner) out.write(`${o.banner}\n`);
    const progress = createProgressReporter(`${o.bench}/${environment.split}`);
    const result = await runBatch({
      environment,
      model: target.model,
      hooks: patch?.hooks ?? NO_HOOKS,
      taskIndices,
      store,
      concurrency: o.concurrency,
      onProgress: (p) => progress.update(p),
      signal: controller.signal,
      ...(o.retryInfra ? { retryInfra: true } : {}),
    });
    progress.stop();
    const records = result.records.filter((r) => taskIndices.includes(r.task.index));
    const summary = summarizeRun(records);
    const sandbox = pool ? describeSandbox(pool) : undefined;
    if (o.json) {
      out.write(`${JSON.stringify({ runDir: dir, target: manifest.target, patch: manifest.patch, sandbox, interrupted: result.interrupted, ran: result.ran, skipped: result.skipped, ...(opened.data ? { data: opened.data } : {}), summary, modelTurns: summarizeModelTurns(records), tasks: records.map((r) => ({ index: r.task.index, attempt: r.attempt, outcome: r.outcome, reward: r.reward, rounds: r.rounds })) }, null, 2)}\n`);
    } else {
      out.write(`${renderRunSummary(records, summary, target.model.simulated ? `${target.model.label} — SIMULATED TARGET, not a real model` : target.model.label)}\n`);
      if (patch) out.write(`patch: ${patch.manifest.file} (${patch.hooks.installed.length} code hook(s) installed; ${sandbox})\n`);
      const unshipped = opened.data?.unshipped;
      if (unshipped) out.write(`not played: ${unshipped.count} of the ${unshipped.listed} games of ${environment.split} are not shipped with the data (listed in run.json)\n`);
      out.write(`run directory: ${dir}\n`);
      if (result.interrupted) out.write(`interrupted: ${taskIndices.length - records.length} task(s) left; continue with --run-dir ${dir} --resume\n`);
    }
    return EXIT_OK;
  } finally {
    process.off('SIGINT', onSigint);
    store?.close();
    await target.close();
    await environment.close();
    await pool?.close();
  }
}

/** The task file a simulated target must know: the one the run plays instead of a split. */
export function taskFileOf(o: { data?: string; games?: string }): { taskFile?: string } {
  const file = o.data ?? o.games;
  return file === undefined ? {} : { taskFile: file };
}

function describeSandbox(pool: SandboxPool): string {
  const info = pool.info();
  return `sandbox: Python ${info.pythonVersion ?? '?'} in Pyodide ${info.pyodideVersion}, Node ${info.permissionFlag}, network: ${info.network.kind}${info.network.pidNamespace ? " + pid namespace" : ""}`;
}

export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description('Play benchmark tasks with a target model and record every episode (no engineer, no reward).')
    .requiredOption('--bench <bench>', `benchmark (${BENCHES.join(', ')})`)
    .option('--split <split>', 'dbbench: dev, standard or standard.v0.2; alfworld: dev, standard, new_std, train_valid; webshop: ignored (goal set) (default: dev)')
    .option('--data <file>', 'dbbench: a task file in the shipped format to play instead of a split; webshop: a goals file (items_human_ins.json format) for human goals')
    .option('--games <file>', 'alfworld: a games file in the shipped format (.jsonl or .jsonl.gz) to play instead of a split')
    .option('--tasks <range>', 'task indices: START:END (end exclusive), 7, or 1,3,9 (default: the whole split)')
    .requiredOption('--target <spec>', 'target model: openai:<base-url>#<model>, sim:dbbench[?seed=N&faults=…], scripted:<file>')
    .option('--concurrency <n>', 'episodes played at once', (v) => Number(v), 1)
    .option('--run-dir <dir>', 'where the run is recorded (default runs/<bench>-<split>-<time>)')
    .option('--resume', 'continue the run in --run-dir: skip recorded episodes, play the rest')
    .option('--retry-infra', 'with --resume: also replay episodes that ended in model_error, env_error or hook_fault')
    .option('--patch <file>', 'validate a Harness-R1 patch and install its hooks (sandboxed Python) into every episode')
    .option('--hook-timeout-ms <ms>', 'wall-clock limit of one hook call (default 50, as the original)', (v) => Number(v))
    .option('--hook-kill-limit <n>', 'switch a hook off for the rest of an episode after its calls cost this many sandbox worker kills (default 2; 0 never)', (v) => Number(v))
    .option('--backend <name>', 'dbbench database: sqlite (default) or mariadb')
    .option('--dsn <url>', 'MariaDB/MySQL server for --backend mariadb, mysql://user:pass@host:port')
    .option('--max-rounds <n>', 'rounds per episode (dbbench 20 as Harness-R1, AgentBench uses 15; alfworld 50 steps, 35 with --protocol v0.2; webshop 20, 10 with --protocol v0.2)', (v) => Number(v))
    .option('--protocol <p>', 'alfworld, webshop: fc (AgentBench function calling, default) or v0.2 (the text protocol with one-shot examples)')
    .option('--grading <rule>', 'dbbench query grading: fc (tolerant, default) or v0.2 (exact)')
    .option('--wording <w>', "alfworld: 2.1.1 ('put X in/on Y', default) or 2.1.2 ('move X to Y')")
    .option('--goals <mode>', 'webshop: human (needs items_human_ins.json) or synthetic goals')
    .option('--goal-seed <n>', 'webshop: goal seed (reference 233)', (v) => Number(v))
    .option('--data-dir <dir>', 'benchmark data folder (default ../shared/data or HARNESS_DATA_DIR)')
    .option('--max-record-bytes <n>', `cap on one stored episode record; a record over it is stored as that episode's model_error (default ${DEFAULT_MAX_RECORD_BYTES}, or ${MAX_RECORD_BYTES_ENV})`, (v) => Number(v))
    .option('--json', 'print a machine-readable summary on stdout')
    .addHelpText(
      'after',
      `
Examples:
  harness-r1 run --bench dbbench --split dev --tasks 0:60 --target sim:dbbench --concurrency 8
  OPENAI_API_KEY=… harness-r1 run --bench dbbench --tasks 0:10 --target 'openai:http://127.0.0.1:8000/v1#Qwen/Qwen3.5-9B'
  harness-r1 run --bench dbbench --run-dir runs/my-run --resume --target sim:dbbench   # continue after a crash
  harness-r1 run --bench dbbench --tasks 0:60 --target sim:dbbench --patch patch.json     # rerun with a patch
  harness-r1 run --bench alfworld --split dev --target sim:alfworld                       # 20 ALFWorld games
  harness-r1 run --bench webshop --tasks 0:100 --target sim:webshop                       # WebShop goals
  harness-r1 run --bench alfworld --protocol v0.2 --target sim:alfworld                # AgentBench's v0.2 text protocol
  harness-r1 run --bench dbbench --data my-tasks.jsonl --target sim:dbbench              # your own task file
  harness-r1 run --bench alfworld --games my-games.jsonl --target sim:alfworld           # your own games

Every finished episode is appended to <run-dir>/episodes.jsonl at once; a killed run loses nothing. When the
run ends the file is rewritten in task order (then attempt), so the same seed gives the same bytes at any
concurrency. Each record carries its attempt; a task's last attempt is the one that counts.

Caps on what an openai: target may send (SPEC options, e.g. …#model?max_tool_calls=4; defaults shown):
${describeResponseLimits().map((line) => `  ${line}`).join('\n')}
Each cap that bites is recorded in the episode's detail.modelLimits and counted in the summary.
The summary warns (and --json counts, under modelTurns) when ${MODEL_TURN_WARN_SHARE * 100} % or more of the model turns came back
with the tool call as text in content, empty, or with unparseable tool arguments: a server setting, not the model.`,
    )
    .action(async (opts: Record<string, unknown>) => {
      process.exitCode = await runCommand({
        bench: String(opts.bench),
        target: String(opts.target),
        ...(opts.split !== undefined ? { split: String(opts.split) } : {}),
        ...(opts.data !== undefined ? { data: String(opts.data) } : {}),
        ...(opts.games !== undefined ? { games: String(opts.games) } : {}),
        concurrency: opts.concurrency as number,
        ...(opts.tasks !== undefined ? { tasks: String(opts.tasks) } : {}),
        ...(opts.runDir !== undefined ? { runDir: String(opts.runDir) } : {}),
        ...(opts.resume ? { resume: true } : {}),
        ...(opts.json ? { json: true } : {}),
        ...(opts.dataDir !== undefined ? { dataDir: String(opts.dataDir) } : {}),
        ...(opts.backend !== undefined ? { backend: String(opts.backend) } : {}),
        ...(opts.dsn !== undefined ? { dsn: String(opts.dsn) } : {}),
        ...(opts.maxRounds !== undefined ? { maxRounds: opts.maxRounds as number } : {}),
        ...(opts.grading !== undefined ? { grading: String(opts.grading) } : {}),
        ...(opts.wording !== undefined ? { wording: String(opts.wording) } : {}),
        ...(opts.protocol !== undefined ? { protocol: String(opts.protocol) } : {}),
        ...(opts.goals !== undefined ? { goals: String(opts.goals) } : {}),
        ...(opts.goalSeed !== undefined ? { goalSeed: opts.goalSeed as number } : {}),
        ...(opts.patch !== undefined ? { patchFile: String(opts.patch) } : {}),
        ...(opts.retryInfra ? { retryInfra: true } : {}),
        ...(opts.hookTimeoutMs !== undefined ? { hookTimeoutMs: opts.hookTimeoutMs as number } : {}),
        ...(opts.maxRecordBytes !== undefined ? { maxRecordBytes: opts.maxRecordBytes as number } : {}),
        ...(opts.hookKillLimit !== undefined ? { hookKillLimit: opts.hookKillLimit as number } : {}),
      });
    });
}
