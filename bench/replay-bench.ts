/**
 * Model calls that exact replay saves: `improve` on each benchmark with its simulated target and the
 * symbolic engineer (`--replay exact`), then the share of rerun model turns answered from the baseline's
 * recorded turns. Figures from simulated targets describe the simulation.
 *
 *   npx tsx bench/replay-bench.ts [--tasks 0:20] [--batch-size 10] [--bench dbbench,alfworld,webshop]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tasks = arg('--tasks', '0:20');
const batchSize = arg('--batch-size', '10');
const benches = arg('--bench', 'dbbench,alfworld,webshop').split(',');
const dir = mkdtempSync(path.join(os.tmpdir(), 'replay-bench-'));
try {
  for (const bench of benches) {
    const runDir = path.join(dir, bench);
    const args = ['improve', '--bench', bench, '--tasks', tasks, '--batch-size', batchSize, '--target', `sim:${bench}`, '--engineer', 'symbolic', '--replay', 'exact', '--run-dir', runDir, '--json'];
    const done = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'harness-r1.js'), ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (done.status !== 0) {
      process.stdout.write(`replay ${bench}: improve failed (exit ${done.status}): ${done.stderr.split('\n').slice(-3).join(' ')}\n`);
      process.exitCode = 1;
      continue;
    }
    const { turns, replayed } = (JSON.parse(done.stdout) as { summary: { totals: { rerunTurns: { turns: number; replayed: number } } } }).summary.totals.rerunTurns;
    const share = turns === 0 ? 0 : (100 * replayed) / turns;
    process.stdout.write(`replay ${bench}: ${replayed} of ${turns} rerun model calls saved (${share.toFixed(1)} %) on tasks ${tasks} (simulated target, symbolic engineer)\n`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
