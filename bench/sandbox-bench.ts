/**
 * Sandbox costs: pool cold start (with and without the Pyodide memory snapshot), respawn after a kill,
 * warm hook-call overhead (p50/p99 of one `EpisodeHooks.call` round trip, parent -> worker process ->
 * interpreter thread -> back), and validation time per patch of the original corpus. Prints numbers only.
 *
 * The warm calls are also run side by side in plain python3 (bench/hook-call-reference.py), the way the original
 * runner calls hooks in-process (ctx deep copy, settrace line budget, SIGALRM timer), and the ratio is printed.
 * Worker RSS (whole process tree) is printed for snapshot-started and cold-started pools.
 *
 *   npx tsx bench/sandbox-bench.ts [--calls 2000] [--repeat 3] [--calls-only]
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { resolveDataDir } from '../src/config/data-dir.js';
import type { HookName } from '../src/episode/index.js';
import { compileHook } from '../src/sandbox/compile-hook.js';
import { createPythonHookProvider } from '../src/sandbox/python-hook-provider.js';
import { createSandboxPool, type SandboxPool } from '../src/sandbox/worker-pool.js';
import { CTX } from './hook-call-ctx.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function summary(values: number[]): string {
  const s = [...values].sort((a, b) => a - b);
  return summarySorted(s);
}

function summarySorted(s: number[]): string {
  const mean = s.reduce((a, b) => a + b, 0) / Math.max(1, s.length);
  return `p50 ${quantile(s, 0.5).toFixed(3)} ms  p99 ${quantile(s, 0.99).toFixed(3)} ms  mean ${mean.toFixed(3)} ms  max ${s[s.length - 1]?.toFixed(3)} ms  (n=${s.length})`;
}

async function allReady(pool: SandboxPool): Promise<void> {
  await pool.ready();
  while (pool.info().workers.some((w) => w.state !== 'ready')) await new Promise((r) => setTimeout(r, 10));
}

interface CorpusPatch {
  file: string;
  benchmark: string;
  hooks: Array<{ hook: HookName; code: string }>;
}

function loadCorpus(): CorpusPatch[] {
  const root = path.join(resolveDataDir(), 'patches');
  const patches: CorpusPatch[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.json')) {
        const patch = JSON.parse(readFileSync(full, 'utf8')) as { benchmark?: string; actions?: Array<{ type?: string; hook?: HookName; code?: string }> };
        const hooks = (patch.actions ?? []).filter((a) => a.type === 'add_code_hook' && typeof a.code === 'string' && a.hook);
        if (hooks.length > 0) {
          patches.push({ file: path.relative(root, full), benchmark: patch.benchmark ?? '', hooks: hooks.map((a) => ({ hook: a.hook!, code: a.code! })) });
        }
      }
    }
  };
  walk(root);
  return patches;
}

/** RSS in MiB of a process and all its descendants (a worker may run under an `unshare` wrapper). */
function treeRssMb(pid: number): number {
  let kb = 0;
  const visit = (p: number): void => {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      kb += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      for (const task of readdirSync(`/proc/${p}/task`)) {
        const children = readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim();
        for (const c of children ? children.split(/\s+/) : []) visit(Number(c));
      }
    } catch {
      // process gone or /proc unavailable
    }
  };
  visit(pid);
  return kb / 1024;
}

function workerRss(pool: SandboxPool): string {
  return pool.info().workers.map((w) => (w.pid === undefined ? '?' : `${treeRssMb(w.pid).toFixed(0)} MiB`)).join(', ');
}

const callsOnly = process.argv.includes('--calls-only');
const calls = Number(arg('--calls', '2000'));
const repeat = Number(arg('--repeat', '3'));
console.log(`sandbox bench: Node ${process.version}, ${calls} warm calls, validation repeated ${repeat}x`);

// 1. Cold start.
for (const useSnapshot of callsOnly ? [] : [true, false]) {
  const started = performance.now();
  const pool = createSandboxPool({ size: 2, useSnapshot });
  await pool.ready();
  const first = performance.now() - started;
  await allReady(pool);
  const all = performance.now() - started;
  const info = pool.info();
  const loads = info.workers.map((w) => `${w.fromSnapshot ? 'snapshot' : 'cold'} ${w.loadMs} ms`).join(', ');
  console.log(`worker RSS (${useSnapshot ? 'snapshot on' : 'snapshot off'}), idle after start: ${workerRss(pool)}`);
  console.log(
    `cold start (${useSnapshot ? 'snapshot on' : 'snapshot off'}): first worker ready ${first.toFixed(0)} ms, pool of 2 ready ${all.toFixed(0)} ms; worker load: ${loads}` +
      (useSnapshot ? `; snapshot ${(info.snapshot.bytes / 1048576).toFixed(1)} MiB` : ''),
  );
  if (useSnapshot) {
    // Respawn after a kill: what a hook that ignores its interrupt costs the pool.
    const victim = info.workers[0]!;
    const t = performance.now();
    process.kill(victim.pid!, 'SIGKILL');
    const replaced = (): boolean => {
      const workers = pool.info().workers;
      return !workers.some((w) => w.pid === victim.pid) && workers.length >= 2 && workers.every((w) => w.state === 'ready');
    };
    while (!replaced()) await new Promise((r) => setTimeout(r, 5));
    console.log(`respawn after SIGKILL (from snapshot): ${(performance.now() - t).toFixed(0)} ms`);
    console.log(`isolation: ${info.network.kind}${info.network.pidNamespace ? ' + pid namespace' : ''} (${info.network.detail}); Python ${info.pythonVersion}, Pyodide ${info.pyodideVersion}`);
  }
  await pool.close();
}

const pool = createSandboxPool({ size: 2 });
await allReady(pool);

// 2. Warm call overhead.
interface CallCase {
  label: string;
  hook: HookName;
  code: string;
  ctx: Record<string, unknown>;
  sorted: number[];
}
const cases: CallCase[] = [];
async function timeCalls(label: string, hook: HookName, code: string, ctx: Record<string, unknown>): Promise<void> {
  const provider = await createPythonHookProvider(pool, [{ hook, code }]);
  const episode = await provider.openEpisode();
  for (let i = 0; i < 200; i++) await episode.call(hook, ctx);
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    const [result] = await episode.call(hook, ctx);
    times.push(performance.now() - t);
    if (result !== undefined && 'fault' in result) throw new Error(`${label}: ${result.fault.kind} ${result.fault.message}`);
  }
  await episode.close();
  console.log(`warm call, ${label}: ${summary(times)}`);
  cases.push({ label, hook, code, ctx, sorted: [...times].sort((a, b) => a - b) });
}

await timeCalls('trivial hook, empty ctx', 'make_pre_hint', 'def hook(ctx, nb):\n    return {"message": "x"}\n', {});
await timeCalls('trivial hook, 1.7 KB ctx', 'make_pre_hint', 'def hook(ctx, nb):\n    return {"message": "x"}\n', CTX);
// A hook that assigns an attribute: shared objects are checked and restored after each of its calls.
await timeCalls('hook assigning an attribute (shared-state restore), 1.7 KB ctx', 'make_pre_hint', 'def hook(ctx, nb):\n    re.error.planted = 1\n    return {"message": "x"}\n', CTX);
const corpus = loadCorpus();
const alfworld = corpus.find((p) => p.file === path.join('heldout_generalization', 'harness-r1', 'seed20260721', 'alfworld.json'));
const postStep = alfworld?.hooks.find((h) => h.hook === 'on_post_step');
if (postStep) await timeCalls('corpus ALFWorld on_post_step (3 helpers), 1.7 KB ctx', 'on_post_step', postStep.code, CTX);

// The same hooks and ctx called in-process by plain python3, the way the original runner calls them.
{
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'hook-call-reference.py');
  const input = JSON.stringify({ calls, warmup: 200, line_budget: 2000, time_budget_s: 0.05, cases: cases.map(({ label, hook, code, ctx }) => ({ label, hook, code, ctx })) });
  const run = spawnSync('python3', [script], { input, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`reference runner failed: ${run.stderr}`);
  const version = spawnSync('python3', ['--version'], { encoding: 'utf8' }).stdout.trim();
  const rows = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as { label: string; p50: number; p99: number; mean: number; max: number });
  for (const row of rows) {
    const ours = cases.find((c) => c.label === row.label)!;
    const p50 = quantile(ours.sorted, 0.5);
    const p99 = quantile(ours.sorted, 0.99);
    console.log(
      `in-process reference (${version}), ${row.label}: p50 ${row.p50.toFixed(3)} ms  p99 ${row.p99.toFixed(3)} ms  mean ${row.mean.toFixed(3)} ms  max ${row.max.toFixed(3)} ms` +
        `  | sandbox/reference p50 ${(p50 / row.p50).toFixed(2)}x (goal <= 1.5x), sandbox p99 ${p99.toFixed(3)} ms (goal <= 0.5 ms)`,
    );
  }
}
console.log(`worker RSS after the warm calls (snapshot-started pool): ${workerRss(pool)}`);

if (callsOnly) {
  await pool.close();
  process.exit(0);
}

// Throughput with concurrent episodes spread over the two workers.
{
  const provider = await createPythonHookProvider(pool, [{ hook: 'make_pre_hint', code: 'def hook(ctx, nb):\n    return {"message": "x"}\n' }]);
  const episodes = await Promise.all(Array.from({ length: 8 }, () => provider.openEpisode()));
  const per = Math.floor(calls / 4);
  const t = performance.now();
  await Promise.all(episodes.map(async (e) => {
    for (let i = 0; i < per; i++) await e.call('make_pre_hint', CTX);
  }));
  const elapsed = performance.now() - t;
  console.log(`throughput, 8 concurrent episodes on 2 workers: ${((per * episodes.length) / (elapsed / 1000)).toFixed(0)} calls/s`);
  await Promise.all(episodes.map((e) => e.close()));
}

// 3. Validation per patch (each repeat changes a trailing comment so no cached verdict is reused).
const perPatch: number[] = [];
const perHook: number[] = [];
for (let r = 0; r < repeat; r++) {
  for (const patch of corpus) {
    const t = performance.now();
    for (const h of patch.hooks) {
      const th = performance.now();
      const verdict = await compileHook(pool, `${h.code}\n# bench ${r}\n`, { numberedInstances: patch.benchmark === "alfworld" });
      perHook.push(performance.now() - th);
      if (!verdict.ok) throw new Error(`${patch.file}: ${verdict.reason}`);
    }
    perPatch.push(performance.now() - t);
  }
}
const hooksPerPatch = corpus.reduce((a, p) => a + p.hooks.length, 0) / corpus.length;
console.log(`validation per patch (${corpus.length} corpus patches, ${hooksPerPatch.toFixed(1)} hooks each): ${summary(perPatch)}`);
console.log(`validation per hook: ${summary(perHook)}`);

await pool.close();
