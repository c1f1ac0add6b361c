/**
 * A simulated target's OpenAI-compatible server in a process of its own, for the concurrency bench's
 * `--sim-process` figure: there the simulation's work on one episode's request runs beside the runtime,
 * as a real model server's would, instead of on the runtime's event loop where it counts as the other
 * episodes' overhead. Prints one JSON line `{"url": …}` when it listens and stops when stdin closes.
 *
 *   npx tsx bench/sim-target-server.ts --bench dbbench [--seed 1] [--latency-ms 200]
 */
import { startSimulatedServer } from '../src/app/resolve-target.js';
import { BenchmarkRegistry } from '../src/benchmarks/registry.js';
import { resolveDataDir } from '../src/config/data-dir.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const server = await startSimulatedServer({
  registry: new BenchmarkRegistry(),
  bench: arg('--bench', 'dbbench'),
  dataDir: resolveDataDir(),
  simParams: { seed: arg('--seed', '1') },
  latencyMs: Number(arg('--latency-ms', '0')),
});
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
const stop = (): void => void server.close().then(() => process.exit(0));
process.stdin.on('end', stop).on('close', stop).resume();
process.on('SIGTERM', stop);
