/**
 * Runtime throughput on DBBench dev with the simulated target (SQLite backend): episodes per second and
 * the runtime's own overhead per model turn, i.e. wall time of an episode minus the time spent waiting
 * for the model (HTTP round trip to the local simulated server included in model time).
 *
 *   npx tsx bench/runtime-bench.ts [--tasks 0:60] [--repeat 3] [--latency-ms 200]
 *
 * It runs twice: with no model latency (the runtime's own cost) and with a fixed per-turn latency, where
 * concurrency pays off as it does against a real server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { resolveTarget } from '../src/app/resolve-target.js';
import { BenchmarkRegistry } from '../src/benchmarks/registry.js';
import { resolveDataDir } from '../src/config/data-dir.js';
import { dbBenchEnvironment } from '../src/benchmarks/dbbench/environment.js';
import { createSqliteBackend } from '../src/environments/dbbench/sqlite-backend.js';
import { runBatch } from '../src/evaluation/run-batch.js';
import { NO_HOOKS } from '../src/hooks/native-hooks.js';
import { RUN_MANIFEST_VERSION } from '../src/store/run-manifest.js';
import { RunStore } from '../src/store/run-store.js';
import { parseTaskRange } from '../src/cli/parse-task-range.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

async function measure(concurrency: number, tasks: number[], dataDir: string, spec: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'harness-bench-'));
  const environment = dbBenchEnvironment({ dataDir, split: 'dev', backend: createSqliteBackend() });
  const target = await resolveTarget(spec, { dataDir, registry: new BenchmarkRegistry() });
  const store = RunStore.create(dir, {
    schemaVersion: RUN_MANIFEST_VERSION, runId: 'bench', createdAt: new Date().toISOString(), bench: 'dbbench', split: 'dev',
    taskIndices: tasks, target: { spec, label: target.model.label, simulated: true }, patch: null, options: {},
  });
  const timings: { total: number; model: number; turns: number }[] = [];
  const started = performance.now();
  await runBatch({ environment, model: target.model, hooks: NO_HOOKS, taskIndices: tasks, store, concurrency });
  const wall = performance.now() - started;
  // Per-episode timings come from the store's timings.jsonl (kept apart from the records).
  const { readFileSync } = await import('node:fs');
  for (const line of readFileSync(path.join(dir, 'timings.jsonl'), 'utf8').split('\n').filter(Boolean)) {
    const t = JSON.parse(line) as { totalMs: number; modelMs: number[] };
    timings.push({ total: t.totalMs, model: t.modelMs.reduce((a, b) => a + b, 0), turns: t.modelMs.length });
  }
  store.close();
  await target.close();
  await environment.close();
  rmSync(dir, { recursive: true, force: true });
  const turns = timings.reduce((a, t) => a + t.turns, 0);
  const overhead = timings.reduce((a, t) => a + (t.total - t.model), 0);
  const model = timings.reduce((a, t) => a + t.model, 0);
  return { wall, episodes: tasks.length, turns, overheadPerTurnMs: overhead / Math.max(1, turns), modelPerTurnMs: model / Math.max(1, turns) };
}

const dataDir = resolveDataDir();
const tasks = parseTaskRange(arg('--tasks', '0:60'), 60);
const repeat = Number(arg('--repeat', '3'));
console.log(`runtime bench: DBBench dev, ${tasks.length} tasks, simulated target over local HTTP, SQLite backend, best of ${repeat}`);
for (const latency of [0, Number(arg('--latency-ms', '200'))]) {
  const spec = latency > 0 ? `sim:dbbench?seed=1&latency_ms=${latency}` : 'sim:dbbench?seed=1';
  console.log(latency > 0 ? `-- with ${latency} ms of model latency per turn (a real server's scale):` : '-- no model latency (the runtime alone):');
  const results: Record<number, Awaited<ReturnType<typeof measure>>> = {};
  for (const concurrency of [1, 8]) {
    let best: Awaited<ReturnType<typeof measure>> | undefined;
    for (let i = 0; i < repeat; i++) {
      const r = await measure(concurrency, tasks, dataDir, spec);
      if (!best || r.wall < best.wall) best = r;
    }
    results[concurrency] = best!;
    const r = best!;
    console.log(
      `concurrency ${concurrency}: ${(r.episodes / (r.wall / 1000)).toFixed(1)} episodes/s, ${r.turns} model turns, ` +
        `runtime overhead ${r.overheadPerTurnMs.toFixed(3)} ms/turn (excl. model), model ${r.modelPerTurnMs.toFixed(3)} ms/turn`,
    );
  }
  console.log(`speed-up at concurrency 8: ${((results[8]!.episodes / results[8]!.wall) / (results[1]!.episodes / results[1]!.wall)).toFixed(2)}x`);
}
