/**
 * Per-statement overhead of the SQLite backend: the wall time of `session.execute` for real DBBench dev
 * tables, with the database in the calling thread (`isolation: 'inline'`, the engine's own cost) and in
 * a database process (the default isolation's home for every statement that is not bounded; here all of
 * them, `inlineBudgetMs: 0`), whose difference is the overhead of crossing into the isolated database. Three
 * kinds of statement: a point SELECT, an aggregate, and an UPDATE (which also sends a snapshot back).
 * Also the cost of opening and disposing an episode on a warm pool, and of starting a database host.
 *
 *   npx tsx bench/sqlite-statement-bench.ts [--statements 300] [--tasks 8] [--baseline DIR]
 *
 * `--baseline DIR` names a checkout of an earlier revision (with node_modules) whose default isolation
 * is measured the same way in this process, and prints the ratios new / baseline.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { resolveDataDir } from '../src/config/data-dir.js';
import type { DbBackend } from '../src/environments/dbbench/backend.js';
import type { DbBenchTask } from '../src/environments/dbbench/dbbench-task.js';
import { loadDbBenchSplit } from '../src/environments/dbbench/load-tasks.js';
import { quoteIdent } from '../src/environments/dbbench/mysql-compat/sql-quote.js';
import { createSqliteBackend } from '../src/environments/dbbench/sqlite-backend.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

type MakeBackend = (options: { isolation?: 'inline'; inlineBudgetMs?: number }) => DbBackend & { workers?: () => unknown };

interface Figures {
  selectUs: number;
  aggregateUs: number;
  updateUs: number;
  openCloseMs: number;
  firstOpenMs: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function statementsFor(task: DbBenchTask): { select: string; aggregate: string; update: string } {
  const table = quoteIdent(task.table.name).replaceAll('"', '`');
  const column = quoteIdent(task.table.columns[0]!).replaceAll('"', '`');
  return {
    select: `SELECT * FROM ${table} LIMIT 1`,
    aggregate: `SELECT COUNT(*), MAX(${column}) FROM ${table}`,
    update: `UPDATE ${table} SET ${column} = ${column} WHERE ${column} IS NOT NULL LIMIT 1`,
  };
}

async function measure(make: MakeBackend, isolation: 'inline' | undefined, tasks: DbBenchTask[], statements: number): Promise<Figures> {
  // Not inline: every statement in a database process (`inlineBudgetMs: 0`; an earlier revision ignores it).
  const backend = make(isolation ? { isolation } : { inlineBudgetMs: 0 });
  try {
    let started = performance.now();
    const first = await backend.openEpisode(tasks[0]!.table);
    const firstOpenMs = performance.now() - started;
    await first.dispose();
    const times = { select: [] as number[], aggregate: [] as number[], update: [] as number[], open: [] as number[] };
    const perTask = Math.max(1, Math.floor(statements / tasks.length));
    for (const task of tasks) {
      started = performance.now();
      const session = await backend.openEpisode(task.table);
      const opened = performance.now() - started;
      const sql = statementsFor(task);
      for (let i = 0; i < perTask; i++) {
        for (const kind of ['select', 'aggregate', 'update'] as const) {
          const t0 = performance.now();
          const outcome = await session.execute(sql[kind]);
          times[kind].push(performance.now() - t0);
          if (outcome.kind !== 'rows') throw new Error(`${sql[kind]}: ${JSON.stringify(outcome)}`);
        }
      }
      started = performance.now();
      await session.dispose();
      times.open.push(opened + performance.now() - started);
    }
    return {
      selectUs: median(times.select) * 1000,
      aggregateUs: median(times.aggregate) * 1000,
      updateUs: median(times.update) * 1000,
      openCloseMs: median(times.open),
      firstOpenMs,
    };
  } finally {
    await backend.close();
  }
}

function row(label: string, f: Figures): string {
  return `${label.padEnd(28)} ${f.selectUs.toFixed(0).padStart(8)} ${f.aggregateUs.toFixed(0).padStart(8)} ${f.updateUs.toFixed(0).padStart(8)} ${f.openCloseMs.toFixed(1).padStart(10)} ${f.firstOpenMs.toFixed(0).padStart(10)}`;
}

const dataDir = resolveDataDir();
const statements = Number(arg('--statements', '300'));
const tasks = loadDbBenchSplit(dataDir, 'dev')
  .filter((t) => t.table.rows.length > 0 && t.table.columns[0] !== '')
  .slice(0, Number(arg('--tasks', '8')));
const baselineDir = arg('--baseline', '');

console.log(`SQLite backend statement overhead: ${tasks.length} dev tables, ~${statements} statements of each kind, medians`);
console.log(`${''.padEnd(28)} ${'select'.padStart(8)} ${'aggreg.'.padStart(8)} ${'update'.padStart(8)} ${'open+close'.padStart(10)} ${'first open'.padStart(10)}`);
console.log(`${''.padEnd(28)} ${'µs'.padStart(8)} ${'µs'.padStart(8)} ${'µs'.padStart(8)} ${'ms'.padStart(10)} ${'ms'.padStart(10)}`);
const inline = await measure(createSqliteBackend, 'inline', tasks, statements);
console.log(row('inline (engine only)', inline));
const isolated = await measure(createSqliteBackend, undefined, tasks, statements);
console.log(row('database process', isolated));
const over = (f: Figures, k: 'selectUs' | 'aggregateUs' | 'updateUs') => f[k] - inline[k];
console.log(`overhead of isolation (µs): select ${over(isolated, 'selectUs').toFixed(0)}, aggregate ${over(isolated, 'aggregateUs').toFixed(0)}, update ${over(isolated, 'updateUs').toFixed(0)}`);

if (baselineDir) {
  const url = pathToFileURL(path.resolve(baselineDir, 'src/environments/dbbench/sqlite-backend.ts')).href;
  const baseline = (await import(url)) as { createSqliteBackend: MakeBackend };
  const before = await measure(baseline.createSqliteBackend, undefined, tasks, statements);
  console.log(row('baseline default isolation', before));
  const ratio = (k: keyof Figures) => (isolated[k] / before[k]).toFixed(2);
  console.log(
    `ratio default / baseline: select ${ratio('selectUs')}, aggregate ${ratio('aggregateUs')}, update ${ratio('updateUs')}, open+close ${ratio('openCloseMs')}, first open ${ratio('firstOpenMs')}`,
  );
  const overRatio = (k: 'selectUs' | 'aggregateUs' | 'updateUs') => (over(isolated, k) / over(before, k)).toFixed(2);
  console.log(`ratio of isolation overhead (default − inline) / (baseline − inline): select ${overRatio('selectUs')}, aggregate ${overRatio('aggregateUs')}, update ${overRatio('updateUs')}`);
}
