/**
 * What an idle gap costs the work after it. An episode's step runs after a model turn (200 ms in the
 * concurrency bench), when this thread has been idle; the same code then runs slower than back to back,
 * because the caches and the core have gone cold. This bench runs the same warm code with gaps of 0 to
 * 200 ms before each call and prints the p50 per call and its ratio to the back-to-back figure:
 * - a DBBench statement in this thread: `executeBounded` plus the result text, on every dev task (its own
 *   database; `SELECT * … LIMIT 5`, `COUNT(*)`, a `WHERE` on the first column's first value, and a mutation
 *   task's gold statement);
 * - a reference of plain JavaScript (parsing a 10 KB JSON text ten times), to tell the machine's share from
 *   the code's.
 * The code is warmed first (ten rounds back to back), so no gap pays for compiling.
 *
 *   npx tsx bench/idle-gap-bench.ts [--gaps 0,1,5,20,200] [--rounds 1] [--json]
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { resolveDataDir } from '../src/config/data-dir.js';
import { loadDbBenchSplit } from '../src/environments/dbbench/load-tasks.js';
import type { DbBenchTask } from '../src/environments/dbbench/dbbench-task.js';
import { formatSqlOutcome } from '../src/environments/dbbench/format-result.js';
import { SqliteEngine } from '../src/environments/dbbench/sqlite-engine.js';
import { pythonStr } from '../src/environments/dbbench/python-repr.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] ?? 0;
}

/** A MySQL identifier in backticks. */
function tick(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

function statementsOf(task: DbBenchTask): string[] {
  const { name, columns, rows } = task.table;
  const out = [`SELECT * FROM ${tick(name)} LIMIT 5`, `SELECT COUNT(*) FROM ${tick(name)}`];
  const first = columns[0];
  if (first !== undefined && rows[0] !== undefined) {
    out.push(`SELECT ${tick(first)} FROM ${tick(name)} WHERE ${tick(first)} = '${pythonStr(rows[0][0]).replace(/'/g, "''")}'`);
  }
  if (task.kind === 'mutation' && task.label[0]) out.push(task.label[0]);
  return out;
}

/** Runs every task's statements on a fresh database of its own; `gapMs` of idle before each statement. */
async function statementRound(tasks: DbBenchTask[], gapMs: number, times: number[] | null): Promise<void> {
  for (const task of tasks) {
    const engine = new SqliteEngine(task.table, {});
    if (engine.setupError !== null) {
      engine.close();
      continue;
    }
    for (const sql of statementsOf(task)) {
      if (gapMs > 0) await sleep(gapMs);
      const started = performance.now();
      const outcome = engine.executeBounded(sql, 50);
      if (outcome !== 'not-bounded') formatSqlOutcome(outcome);
      times?.push(performance.now() - started);
    }
    engine.close();
  }
}

const REFERENCE_TEXT = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ a: i, b: `x${i}`, c: [i, i * 2] })));

function referenceWork(): number {
  let n = 0;
  for (let k = 0; k < 10; k++) n += (JSON.parse(REFERENCE_TEXT) as unknown[]).length;
  return n;
}

async function referenceRound(calls: number, gapMs: number, times: number[] | null): Promise<void> {
  for (let k = 0; k < calls; k++) {
    if (gapMs > 0) await sleep(gapMs);
    const started = performance.now();
    referenceWork();
    times?.push(performance.now() - started);
  }
}

const gaps = arg('--gaps', '0,1,5,20,200').split(',').map(Number);
const rounds = Number(arg('--rounds', '1'));
if (!gaps.every((g) => Number.isFinite(g) && g >= 0) || !(Number.isInteger(rounds) && rounds >= 1)) {
  console.error('usage: --gaps takes milliseconds >= 0 separated by commas (e.g. 0,5,200); --rounds a whole number >= 1.');
  process.exit(2);
}
const tasks = loadDbBenchSplit(resolveDataDir(), 'dev');
for (let k = 0; k < 10; k++) {
  await statementRound(tasks, 0, null);
  await referenceRound(50, 0, null);
}
const rows: { gapMs: number; statementP50Ms: number; statements: number; referenceP50Ms: number }[] = [];
for (const gapMs of gaps) {
  const statements: number[] = [];
  const reference: number[] = [];
  for (let r = 0; r < rounds; r++) {
    await statementRound(tasks, gapMs, statements);
    await referenceRound(60, gapMs, reference);
  }
  rows.push({ gapMs, statementP50Ms: median(statements), statements: statements.length, referenceP50Ms: median(reference) });
}
if (process.argv.includes('--json')) {
  console.log(JSON.stringify(rows));
} else {
  const base = rows.find((r) => r.gapMs === 0) ?? rows[0]!;
  for (const r of rows) {
    console.log(
      `gap ${String(r.gapMs).padStart(3)} ms: dbbench statement p50 ${r.statementP50Ms.toFixed(3)} ms (×${(r.statementP50Ms / base.statementP50Ms).toFixed(1)}, ${r.statements} statements); ` +
        `plain-JS reference p50 ${r.referenceP50Ms.toFixed(3)} ms (×${(r.referenceP50Ms / base.referenceP50Ms).toFixed(1)})`,
    );
  }
}
