/**
 * The reward service over local HTTP, on DBBench rows exported here with the simulated target at
 * L ms per turn (figures are the simulated target's; no assertions):
 * - rewards/s for cache hits: H requests for a finished result, C clients at once;
 * - p50 overhead per request besides the rerun: a cache hit's latency (sequential), and for new jobs the
 *   request's wall time minus the rerun's own time;
 * - rerun concurrency reached: R distinct patches at once against --concurrency K, the peak of reruns in
 *   flight sampled from /health, and the wall time against the one-at-a-time sum.
 *
 *   npx tsx bench/serve-reward-bench.ts [--latency-ms 200] [--hits 2000] [--clients 32] [--reruns 8] [--concurrency 8]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { BenchmarkRegistry } from '../src/benchmarks/registry.js';
import { exportRlCommand } from '../src/cli/commands/export-rl.js';
import { openRewardServer } from '../src/cli/commands/serve-reward.js';
import { readRows } from '../src/training/rows/export-rl.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
};
const latency = Number(arg('--latency-ms', '200'));
const hits = Number(arg('--hits', '2000'));
const clients = Number(arg('--clients', '32'));
const reruns = Number(arg('--reruns', '8'));
const concurrency = Number(arg('--concurrency', '8'));

const work = mkdtempSync(path.join(tmpdir(), 'harness-serve-bench-'));
const ctx = { registry: new BenchmarkRegistry() };
const hook = (text: string) => ({ benchmark: 'dbbench', actions: [{ type: 'add_code_hook', hook: 'on_init', code: `def hook(ctx, nb):\n    return {"skills": ["${text}"]}\n` }] });
const answer = (text: string) => `- recurring failures\n</think>\n<patch>${JSON.stringify(hook(text))}</patch>`;
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

try {
  const rowsDir = path.join(work, 'rl');
  await exportRlCommand(ctx, { bench: 'dbbench', target: `sim:dbbench?latency_ms=${latency}`, out: rowsDir, batchSize: '3', batches: '2', json: true }, { write: () => true });
  const row = readRows(path.join(rowsDir, 'dbbench', 'rows.jsonl'))[0]!;
  const server = await openRewardServer(ctx, { rows: rowsDir, store: path.join(work, 'store'), port: 0, concurrency: String(concurrency), queueDepth: '100000' });
  const post = async (body: unknown) => {
    const t = performance.now();
    const res = await fetch(`${server.url}/v1/rewards`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = (await res.json()) as { state: string; status?: string };
    return { ms: performance.now() - t, json };
  };
  const rerunSum = async () => Number(/^harness_r1_reward_rerun_seconds_sum (\S+)$/m.exec(await (await fetch(`${server.url}/metrics`)).text())![1]);

  // New jobs one at a time: wall time minus the rerun's own time.
  const overheads: number[] = [];
  for (let i = 0; i < 3; i++) {
    const before = await rerunSum();
    const { ms } = await post({ metadata: row.metadata, response: answer(`Sequential hint ${i}.`), wait_ms: 600_000 });
    overheads.push(ms - (await rerunSum() - before) * 1000);
  }
  const oneRerunMs = (await rerunSum()) * 1000 / 3;

  // Cache hits: sequential latency, then throughput with clients at once.
  const hitBody = { metadata: row.metadata, response: answer('Sequential hint 0.') };
  const floor: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    await (await fetch(`${server.url}/health`)).json();
    floor.push(performance.now() - t);
  }
  const t3 = performance.now();
  for (let i = 0; i < 1000; i++) {
    const r = await server.service.submit(row.metadata, hitBody.response);
    if (r.kind === 'accepted') server.service.result(r.evalKey, r.cached);
  }
  const inProcessUs = ((performance.now() - t3) / 1000) * 1000;
  const hitLatency: number[] = [];
  for (let i = 0; i < 200; i++) hitLatency.push((await post(hitBody)).ms);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: clients }, async () => {
    while (next++ < hits) await post(hitBody);
  }));
  const hitRate = hits / ((performance.now() - t0) / 1000);
  // Batched: 100 items per request.
  const batchBody = { items: Array.from({ length: 100 }, () => hitBody) };
  const t1 = performance.now();
  for (let i = 0; i < 20; i++) await post(batchBody);
  const batchRate = 2000 / ((performance.now() - t1) / 1000);

  // Rerun concurrency: distinct patches at once, peak in flight sampled from /health.
  let peak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const h = (await (await fetch(`${server.url}/health`)).json()) as { running: number };
      peak = Math.max(peak, h.running);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const t2 = performance.now();
  const answers = await Promise.all(Array.from({ length: reruns }, (_, i) => post({ metadata: row.metadata, response: answer(`Parallel hint ${i}.`), wait_ms: 600_000 })));
  const wall = performance.now() - t2;
  sampling = false;
  await sampler;
  await server.close();

  console.log(`serve-reward (dbbench, 3-task batch, SIMULATED target at ${latency} ms per turn)`);
  console.log(`cache hits: ${hitRate.toFixed(0)} rewards/s (${clients} clients, single-item requests); ${batchRate.toFixed(0)} rewards/s in 100-item requests`);
  console.log(`per-request overhead p50: cache hit ${p50(hitLatency).toFixed(2)} ms; new job besides its rerun ${p50(overheads).toFixed(1)} ms (one rerun ${oneRerunMs.toFixed(0)} ms); GET /health ${p50(floor).toFixed(2)} ms (HTTP floor); a hit in process without HTTP ${inProcessUs.toFixed(0)} µs`);
  console.log(`rerun concurrency: peak ${peak} of ${concurrency} in flight for ${reruns} distinct patches; wall ${(wall / 1000).toFixed(2)} s vs ${(reruns * oneRerunMs / 1000).toFixed(2)} s one at a time (${(reruns * oneRerunMs / wall).toFixed(2)}x); statuses ${[...new Set(answers.map((a) => a.json.status))].join(',')}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
