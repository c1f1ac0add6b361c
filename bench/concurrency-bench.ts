/**
 * Concurrency efficiency and runtime overhead on every registered benchmark with a simulated target
 * (results are the simulated target's, over local HTTP; default isolation, so DBBench runs SQLite in its
 * database processes):
 * - efficiency at concurrency C with L ms of model latency per turn: the critical-path bound over the
 *   measured wall time. The bound is max(total model time / C, the longest episode's model time): no
 *   schedule can finish sooner, so 1.0 means the runtime adds nothing that delays episodes;
 *   The measured model time also holds the model client's own work and the time a reply waits for this
 *   thread; the line also gives the median model turn and the wall time against the bound from the
 *   nominal latency (turns × latency), where those count as the runtime's;
 * - per-step overhead: an episode's wall time minus its model time, over its model turns (p50 and p99
 *   over the episodes that made at least one model turn), at concurrency 8;
 * - peak RSS: this process, and the largest sum over it and its child processes sampled during the run
 *   (without the simulated target's own process under `--sim-process`).
 *
 *   npx tsx bench/concurrency-bench.ts [--tasks 64] [--concurrency 64] [--latency-ms 200] [--bench dbbench,alfworld,webshop]
 *     [--split NAME] [--sqlite-workers N] [--sqlite-inline] [--sim-process] [--worst] [--json]
 *
 * The p99 is over episodes (each episode's mean per-step overhead), so over DBBench's 60 dev tasks it is
 * the single worst episode: one of the first few, which run code nothing has run yet. `--split` (with one
 * `--bench`) plays another split, e.g. `--bench dbbench --split standard --tasks 300`, where the p99 is
 * the third-worst of 300. `--worst` also prints the five episodes with the largest per-step overhead.
 *
 * `--sim-process` serves the simulated target from a process of its own (`sim-target-server.ts`), as a
 * real model server would be, instead of on this process's event loop. In-process, the simulation's work
 * for one episode's request delays the other episodes and so counts as their runtime overhead; the
 * separate-process figure leaves only the runtime's own work (and the machine's second core runs the
 * simulation). Rows say which one they measured.
 *
 * `--sqlite-inline` (DBBench only, for comparison) runs every statement in this thread (`isolation:
 * 'inline'`), where the default isolation runs only bounded ones and sends the rest to database processes
 * (see `sqlite-backend.ts`).
 *
 * `--sqlite-workers` caps DBBench's database processes (default: the CPU count, at least 2; episodes
 * past it share processes). The machine's load average is printed with every row: the figures are only
 * comparable between runs on an equally loaded machine.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { benchmarkOptions } from '../src/app/open-environment.js';
import { resolveTarget } from '../src/app/resolve-target.js';
import { BenchmarkRegistry } from '../src/benchmarks/registry.js';
import { resolveDataDir } from '../src/config/data-dir.js';
import { dbBenchEnvironment } from '../src/benchmarks/dbbench/environment.js';
import { createSqliteBackend } from '../src/environments/dbbench/sqlite-backend.js';
import { runBatch } from '../src/evaluation/run-batch.js';
import { NO_HOOKS } from '../src/hooks/native-hooks.js';
import { RUN_MANIFEST_VERSION } from '../src/store/run-manifest.js';
import { RunStore } from '../src/store/run-store.js';
import { createOpenAICompatibleModel } from '../src/models/openai-compatible-model.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Resident bytes of this process and its descendants (Linux /proc; 0 where it cannot be read). */
function treeRssBytes(pid = process.pid, skip?: number): number {
  if (pid === skip) return 0;
  let total = 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const file = `/proc/${pid}/task/${task}/children`;
      if (!existsSync(file)) continue;
      for (const child of readFileSync(file, 'utf8').split(' ').filter(Boolean)) total += treeRssBytes(Number(child), skip);
    }
  } catch {
    // The process ended while it was read.
  }
  return total;
}

export interface ConcurrencyFigures {
  bench: string;
  split: string;
  concurrency: number;
  latencyMs: number;
  episodes: number;
  wallMs: number;
  boundMs: number;
  efficiency: number;
  /**
   * The bound from the nominal latency instead of the measured model time: max(turns × latency / C, the
   * longest episode's turns × latency). The measured model time also holds the client's own work and the
   * time a reply waits for this thread, which are the runtime's, not the model's; over this bound they count.
   */
  nominalBoundMs: number;
  nominalEfficiency: number;
  /** The median of every model turn's measured time (the simulated target waits `latencyMs` of it). */
  modelTurnP50Ms: number;
  /** Episodes that ended before their first model turn: in `episodes`, not in the per-step figures. */
  withoutTurns: number;
  stepOverheadP50Ms: number;
  stepOverheadP99Ms: number;
  /** The episodes with the largest per-step overhead, largest first (the p99 is among them): task, model turns, ms per step. */
  worst: { task: number; turns: number; stepOverheadMs: number }[];
  peakTreeRssMb: number;
  /** Where the simulated target ran: this process's event loop, or a process of its own. */
  sim: 'in-process' | 'own process';
  /** Where DBBench's SQLite ran: the default isolation (bounded statements here, the rest in processes), or all here (`--sqlite-inline`). */
  sqlite?: 'default' | 'inline';
  /** The 1-minute load average when the run ended. */
  load1: number;
}

export async function measureConcurrency(
  bench: string,
  options: { tasks: number; concurrency: number; latencyMs: number; sqliteWorkers?: number; simProcess?: boolean; split?: string; sqliteInline?: boolean },
): Promise<ConcurrencyFigures> {
  const registry = new BenchmarkRegistry();
  const definition = registry.find(bench)!;
  const split = options.split ?? definition.defaultSplit;
  if (!definition.splits.includes(split)) throw new Error(`${bench} has no split '${split}' (its splits: ${definition.splits.join(', ')}).`);
  const dataDir = resolveDataDir();
  const opened = await definition.open({
    dataDir,
    split,
    protocol: definition.protocols[0]!,
    options: benchmarkOptions(registry, definition, bench === 'dbbench' && options.sqliteWorkers !== undefined ? { sqliteWorkers: options.sqliteWorkers } : {}),
    concurrency: options.concurrency,
  });
  let { environment } = opened;
  if (options.sqliteInline) {
    // For comparison only: every DBBench statement in this thread, which agent SQL never gets outside benches and tests.
    if (bench !== 'dbbench') throw new Error('--sqlite-inline applies to dbbench only.');
    await environment.close();
    environment = dbBenchEnvironment({ dataDir, split, backend: createSqliteBackend({ isolation: 'inline' }) });
  }
  const spec = `sim:${bench}?seed=1${options.latencyMs > 0 ? `&latency_ms=${options.latencyMs}` : ''}`;
  const target = options.simProcess
    ? await simTargetProcess(bench, options.latencyMs)
    : await resolveTarget(spec, { dataDir, registry, bench });
  const taskIndices = [...Array(Math.min(options.tasks, environment.size)).keys()];
  const dir = mkdtempSync(path.join(tmpdir(), 'harness-concurrency-'));
  const store = RunStore.create(dir, {
    schemaVersion: RUN_MANIFEST_VERSION, runId: 'bench', createdAt: new Date().toISOString(), bench, split,
    taskIndices, target: { spec, label: target.model.label, simulated: true }, patch: null, options: {},
  });
  // The simulated target's own process stands for the model server: it is not the runtime's memory.
  const skip = 'pid' in target ? (target.pid as number | undefined) : undefined;
  let peakTree = treeRssBytes(process.pid, skip);
  const sampler = setInterval(() => (peakTree = Math.max(peakTree, treeRssBytes(process.pid, skip))), 250);
  const started = performance.now();
  try {
    await runBatch({ environment, model: target.model, hooks: NO_HOOKS, taskIndices, store, concurrency: options.concurrency });
  } finally {
    clearInterval(sampler);
  }
  const wallMs = performance.now() - started;
  const timings = readFileSync(path.join(dir, 'timings.jsonl'), 'utf8').split('\n').filter(Boolean)
    .map((line) => JSON.parse(line) as { index: number; totalMs: number; modelMs: number[] });
  store.close();
  await target.close();
  await environment.close();
  rmSync(dir, { recursive: true, force: true });
  const model = timings.map((t) => t.modelMs.reduce((a, b) => a + b, 0));
  const boundMs = Math.max(model.reduce((a, b) => a + b, 0) / options.concurrency, ...model);
  const turns = timings.map((t) => t.modelMs.length);
  const nominalBoundMs = Math.max((turns.reduce((a, b) => a + b, 0) * options.latencyMs) / options.concurrency, ...turns.map((n) => n * options.latencyMs));
  const turnTimes = timings.flatMap((t) => t.modelMs).sort((a, b) => a - b);
  // An episode that ended before its first model turn (dev #5: its task table cannot be built, an env_error) has
  // no steps, so it has no per-step overhead; counting its whole time as one step made it the dev split's p99.
  const episodes = timings.flatMap((t, i) => (t.modelMs.length === 0 ? [] : [{ task: t.index, turns: t.modelMs.length, stepOverheadMs: (t.totalMs - model[i]!) / t.modelMs.length }]));
  const perStep = episodes.map((e) => e.stepOverheadMs).sort((a, b) => a - b);
  const worst = [...episodes].sort((a, b) => b.stepOverheadMs - a.stepOverheadMs).slice(0, 5);
  return {
    bench, split, concurrency: options.concurrency, latencyMs: options.latencyMs, episodes: timings.length, wallMs, boundMs,
    withoutTurns: timings.length - perStep.length,
    efficiency: boundMs / wallMs, nominalBoundMs, nominalEfficiency: nominalBoundMs / wallMs, modelTurnP50Ms: percentile(turnTimes, 50), stepOverheadP50Ms: percentile(perStep, 50), stepOverheadP99Ms: percentile(perStep, 99), worst,
    peakTreeRssMb: peakTree / 2 ** 20, sim: options.simProcess ? 'own process' : 'in-process',
    ...(bench === 'dbbench' ? { sqlite: options.sqliteInline ? 'inline' : 'default' } : {}), load1: loadavg()[0]!,
  };
}

/** The simulated target served by `sim-target-server.ts` in a child process, reached over HTTP. */
async function simTargetProcess(bench: string, latencyMs: number): Promise<{ model: ReturnType<typeof createOpenAICompatibleModel>; pid: number | undefined; close(): Promise<void> }> {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sim-target-server.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script, '--bench', bench, '--seed', '1', '--latency-ms', String(latencyMs)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the simulated target's process exited (${code}) before it listened`)));
  });
  const { url } = JSON.parse(line) as { url: string };
  const model = createOpenAICompatibleModel({ baseURL: url, model: `sim-${bench}`, label: `sim:${bench}?seed=1 (simulated target, own process)`, retry: { maxAttempts: 1 } });
  return { model, pid: child.pid, close: async () => { child.stdin!.end(); await exited; } };
}

const isMain = process.argv[1] !== undefined && /concurrency-bench\.ts$/.test(process.argv[1]);
if (isMain) {
  const tasks = Number(arg('--tasks', '64'));
  const concurrency = Number(arg('--concurrency', '64'));
  const latencyMs = Number(arg('--latency-ms', '200'));
  const benches = arg('--bench', 'dbbench,alfworld,webshop').split(',');
  const sqliteWorkers = process.argv.includes('--sqlite-workers') ? Number(arg('--sqlite-workers', '')) : undefined;
  const simProcess = process.argv.includes('--sim-process');
  const sqliteInline = process.argv.includes('--sqlite-inline');
  const showWorst = process.argv.includes('--worst');
  if (sqliteInline && benches.some((b) => b !== 'dbbench')) {
    console.error('--sqlite-inline applies to dbbench only: give --bench dbbench.');
    process.exit(2);
  }
  const split = process.argv.includes('--split') ? arg('--split', '') : undefined;
  if (split !== undefined && benches.length !== 1) {
    console.error('--split needs exactly one --bench (splits differ between benchmarks).');
    process.exit(2);
  }
  const splits = split === undefined ? [] : (new BenchmarkRegistry().find(benches[0]!)?.splits ?? []);
  if (split !== undefined && !splits.includes(split)) {
    console.error(`--split ${split}: ${benches[0]} has no such split (allowed: ${splits.join(', ')}).`);
    process.exit(2);
  }
  const rows: ConcurrencyFigures[] = [];
  for (const bench of benches) rows.push(await measureConcurrency(bench, { tasks, concurrency, latencyMs, simProcess, sqliteInline, ...(split === undefined ? {} : { split }), ...(sqliteWorkers === undefined ? {} : { sqliteWorkers }) }));
  if (process.argv.includes('--json')) console.log(JSON.stringify({ rows, peakRssMb: process.resourceUsage().maxRSS / 1024 }));
  else {
    for (const r of rows) {
      console.log(`${r.bench}: ${r.episodes} episodes (${r.split}) at concurrency ${r.concurrency}, ${r.latencyMs} ms/turn: wall ${r.wallMs.toFixed(0)} ms, ` +
        `bound ${r.boundMs.toFixed(0)} ms, efficiency ${r.efficiency.toFixed(2)}; step overhead p50 ${r.stepOverheadP50Ms.toFixed(2)} ms p99 ${r.stepOverheadP99Ms.toFixed(2)} ms` +
        `${r.withoutTurns > 0 ? ` (over ${r.episodes - r.withoutTurns} episodes; ${r.withoutTurns} ended before a model turn)` : ''}; ` +
        `peak tree RSS ${r.peakTreeRssMb.toFixed(0)} MB; sim ${r.sim}${r.sqlite ? `; sqlite ${r.sqlite}` : ''}; load ${r.load1.toFixed(2)}; ` +
        `model turn median ${r.modelTurnP50Ms.toFixed(1)} ms (nominal ${r.latencyMs}), over the nominal bound ${r.nominalBoundMs.toFixed(0)} ms: ${r.nominalEfficiency.toFixed(2)}`);
      if (showWorst) console.log(`  worst episodes (task: turns, ms per step): ${r.worst.map((w) => `#${w.task}: ${w.turns}, ${w.stepOverheadMs.toFixed(2)}`).join('; ')}`);
    }
    console.log(`peak RSS of this process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  }
  process.exit(0);
}
