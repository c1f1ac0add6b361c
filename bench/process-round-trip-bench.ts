/**
 * The floor under DBBench's per-step overhead for a statement that goes to a database process (every
 * statement that is not bounded, and every one with `inlineBudgetMs: 0`): one request to the process and
 * its reply. This bench times that exchange on this machine, each figure back to back and after an idle
 * gap (default 200 ms, the model turn of `concurrency-bench.ts`, during which both processes sleep):
 * - a bare Node child process that echoes each message (the same IPC channel and serialization as the
 *   database processes, no work): the cost of the exchange itself, which no change to the database side
 *   can remove;
 * - a point SELECT on a real DBBench dev table in a database process (`inlineBudgetMs: 0`), and in the
 *   default isolation, where a bounded statement like it runs in this thread;
 * - the same SELECT with the database in this thread (`isolation: 'inline'`), the engine's own cost.
 * The exchange after an idle gap is what each DBBench step pays in a real batch.
 *
 *   npx tsx bench/process-round-trip-bench.ts [--samples 40] [--gap-ms 200] [--json]
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';

import { resolveDataDir } from '../src/config/data-dir.js';
import { loadDbBenchSplit } from '../src/environments/dbbench/load-tasks.js';
import { quoteIdent } from '../src/environments/dbbench/mysql-compat/sql-quote.js';
import { createSqliteBackend } from '../src/environments/dbbench/sqlite-backend.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Median ms of `exchange`, back to back and after `gapMs` of idleness before each. */
async function timed(samples: number, gapMs: number, exchange: () => Promise<unknown>): Promise<{ hotMs: number; idleMs: number }> {
  for (let i = 0; i < 20; i++) await exchange();
  const hot: number[] = [];
  for (let i = 0; i < samples * 5; i++) {
    const t0 = performance.now();
    await exchange();
    hot.push(performance.now() - t0);
  }
  const idle: number[] = [];
  for (let i = 0; i < samples; i++) {
    await sleep(gapMs);
    const t0 = performance.now();
    await exchange();
    idle.push(performance.now() - t0);
  }
  return { hotMs: median(hot), idleMs: median(idle) };
}

/** A child process that answers every message with a copy of it, over an IPC channel like the database processes'. */
async function echoProcess(samples: number, gapMs: number): Promise<{ hotMs: number; idleMs: number }> {
  const child = spawn(process.execPath, ['-e', "process.on('message', (m) => process.send(m)); process.on('disconnect', () => process.exit(0));"], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
  let waiting: ((value: unknown) => void) | undefined;
  child.on('message', (message) => waiting?.(message));
  const request = { id: 1, op: 'execute', session: 1, sql: 'SELECT * FROM `t` LIMIT 1', timeoutMs: 60_000 };
  try {
    return await timed(samples, gapMs, () => new Promise((resolve) => {
      waiting = resolve;
      child.send(request);
    }));
  } finally {
    child.disconnect();
  }
}

async function selectStatement(where: 'process' | 'default' | 'inline', samples: number, gapMs: number): Promise<{ hotMs: number; idleMs: number }> {
  const task = loadDbBenchSplit(resolveDataDir(), 'dev').find((t) => t.table.rows.length > 0 && t.table.columns[0] !== '')!;
  const backend = createSqliteBackend(where === 'inline' ? { isolation: 'inline' } : where === 'process' ? { inlineBudgetMs: 0 } : {});
  try {
    const session = await backend.openEpisode(task.table);
    const sql = `SELECT * FROM ${quoteIdent(task.table.name).replaceAll('"', '`')} LIMIT 1`;
    const figures = await timed(samples, gapMs, async () => {
      const outcome = await session.execute(sql);
      if (outcome.kind !== 'rows') throw new Error(`${sql}: ${JSON.stringify(outcome)}`);
    });
    await session.dispose();
    return figures;
  } finally {
    await backend.close();
  }
}

const samples = Number(arg('--samples', '40'));
const gapMs = Number(arg('--gap-ms', '200'));
const echo = await echoProcess(samples, gapMs);
const isolated = await selectStatement('process', samples, gapMs);
const bounded = await selectStatement('default', samples, gapMs);
const inline = await selectStatement('inline', samples, gapMs);
const rows = { echo, isolated, bounded, inline, gapMs, samples, load1: loadavg()[0]! };
if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
else {
  console.log(`Process round trip (medians; ${samples} samples after a ${gapMs} ms idle gap, ${samples * 5} back to back; load ${rows.load1.toFixed(1)})`);
  const line = (label: string, f: { hotMs: number; idleMs: number }) => console.log(`${label.padEnd(40)} back to back ${f.hotMs.toFixed(3)} ms   after idle ${f.idleMs.toFixed(3)} ms`);
  line('echo child process (the exchange alone)', echo);
  line('point SELECT, in a database process', isolated);
  line('point SELECT, default (bounded: here)', bounded);
  line('point SELECT, inline (engine only)', inline);
  console.log(`floor of a DBBench step whose statements go to a database process: ${echo.idleMs.toFixed(3)} ms (the exchange after idle) + ${inline.idleMs.toFixed(3)} ms (the engine)`);
}
