import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { describe, expect, it } from 'vitest';

import { childPids, commandLine, isRunning, processTreeRss, sampleProcessTreeRss } from '../../../test/fixtures/process-tree-rss.js';
import type { DbTable } from './dbbench-task.js';
import { formatSqlOutcome } from './format-result.js';
import { createSqliteBackend } from './sqlite-backend.js';

/**
 * Hostile statements against the SQLite backend's default (process) isolation, under a memory check: the
 * resident memory of this process plus its children is sampled while the statement runs and for a while
 * after it answered, since a statement that is reported as stopped but keeps running would keep growing.
 */

const MiB = 1024 * 1024;
const MEDALS: DbTable = { name: 'Medals', columns: ['Nation', 'Gold'], rows: [['Norway', 3], ['Sweden', '1']] };
const PAD = 'x'.repeat(100);
/** Grows the new table by ~110 bytes per row, forever: only a cap on the database stops it. */
const ENDLESS_CTAS = `CREATE TABLE big AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x, '${PAD}' FROM c`;
/** Sorts an endless row source before inserting anything: the sorter's memory grows, the database does not. */
const ENDLESS_SORT_CTAS = `CREATE TABLE sorted AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x, '${PAD}' AS pad FROM c ORDER BY pad DESC, x`;
/** Twenty million result rows: the JavaScript side of the database process runs out of memory. */
const HUGE_RESULT = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 20000000) SELECT x, REPEAT('y', 50) FROM c";
/** Counts an endless CTE inside DDL: constant memory, no per-row tick, never ends by itself. */
const ENDLESS_COUNT_DDL = 'CREATE TABLE n AS SELECT (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c) AS n';
/** How long to keep sampling after a statement answered. */
const AFTERMATH_MS = 1_500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SQLite backend resource ceilings (process isolation)', () => {
  it('stops CREATE TABLE … AS an endless recursive CTE at the database cap; memory stays bounded and the episode goes on', async () => {
    // The timeout is far away: the database cap, not the clock, must end the statement.
    const backend = createSqliteBackend({ inlineBudgetMs: 0, sqlTimeoutMs: 30_000, databaseLimitMb: 32 });
    try {
      const session = await backend.openEpisode(MEDALS);
      await session.execute("INSERT INTO Medals VALUES ('Chile', '0')");
      const before = processTreeRss();
      const sampler = sampleProcessTreeRss();
      const outcome = await session.execute(ENDLESS_CTAS);
      await sleep(AFTERMATH_MS);
      const peak = sampler.stop();
      console.log(`endless CTAS: ${formatSqlOutcome(outcome)}; peak growth of this process and its children ${Math.round((peak - before) / MiB)} MiB`);
      expect(outcome).toEqual({ kind: 'error', message: "1114 (HY000): The table 'big' is full" });
      expect(formatSqlOutcome(await session.execute('SELECT COUNT(*) FROM Medals'))).toBe('[(3,)]');
      expect(formatSqlOutcome(await session.execute('SELECT COUNT(*) FROM big'))).toBe("1146 (42S02): Table 'dbbench.big' doesn't exist");
      expect(backend.workers()).toMatchObject({ killed: 0 });
      // 32 MiB of pages plus SQLite's caches; the old path grew by ~170 MB/s without end.
      expect((peak - before) / MiB).toBeLessThan(256);
    } finally {
      await backend.close();
    }
  });

  it('kills a database process that passes its memory ceiling, replaces it, and keeps the data', async () => {
    const memoryLimitMb = 256;
    const backend = createSqliteBackend({ inlineBudgetMs: 0, sqlTimeoutMs: 30_000, memoryLimitMb, databaseLimitMb: 32 });
    try {
      const others = new Set(childPids());
      const session = await backend.openEpisode(MEDALS);
      await session.execute("INSERT INTO Medals VALUES ('Chile', '0')");
      const [first, ...more] = childPids().filter((pid) => !others.has(pid));
      expect(commandLine(first ?? 0)).toContain('sqlite-worker');
      expect(more).toEqual([]);
      const outOfMemory = expect.stringMatching(/^1041 \(HY000\): Out of memory/);

      const before = processTreeRss();
      const sampler = sampleProcessTreeRss(10);
      const sorted = await session.execute(ENDLESS_SORT_CTAS);
      await sleep(AFTERMATH_MS);
      const peak = sampler.stop();
      console.log(`endless sort: ${formatSqlOutcome(sorted).slice(0, 40)}…; peak growth ${Math.round((peak - before) / MiB)} MiB (ceiling ${memoryLimitMb} MiB)`);
      expect(sorted).toEqual({ kind: 'error', message: outOfMemory });
      expect(isRunning(first!)).toBe(false);
      expect(backend.workers()).toMatchObject({ killed: 1 });
      // One database process at its ceiling, plus the overshoot of one sampling interval.
      expect((peak - before) / MiB).toBeLessThan(memoryLimitMb + 128);

      // The JavaScript heap of the process is capped too.
      expect(await session.execute(HUGE_RESULT)).toEqual({ kind: 'error', message: outOfMemory });
      expect(backend.workers()).toMatchObject({ killed: 2 });

      expect(formatSqlOutcome(await session.execute("SELECT Nation FROM Medals WHERE Gold = '0'"))).toBe("[('Chile',)]");
      expect(formatSqlOutcome(await session.execute('SELECT COUNT(*) FROM sorted'))).toBe("1146 (42S02): Table 'dbbench.sorted' doesn't exist");
    } finally {
      await backend.close();
    }
  });

  it('really stops DDL that runs past the timeout: the process is killed and the episode goes on', async () => {
    const backend = createSqliteBackend({ inlineBudgetMs: 0, sqlTimeoutMs: 1_000 });
    try {
      const others = new Set(childPids());
      const session = await backend.openEpisode(MEDALS);
      await session.execute("UPDATE Medals SET Gold = '7' WHERE Nation = 'Norway'");
      const [stuck, ...more] = childPids().filter((pid) => !others.has(pid));
      expect(commandLine(stuck ?? 0)).toContain('sqlite-worker');
      expect(more).toEqual([]);
      expect(await session.execute(ENDLESS_COUNT_DDL)).toEqual({ kind: 'timeout' });
      expect(isRunning(stuck!)).toBe(false);
      expect(backend.workers()).toMatchObject({ killed: 1 });
      expect(formatSqlOutcome(await session.execute("SELECT Gold FROM Medals WHERE Nation = 'Norway'"))).toBe("[('7',)]");
      expect(formatSqlOutcome(await session.execute('SELECT COUNT(*) FROM n'))).toBe("1146 (42S02): Table 'dbbench.n' doesn't exist");
    } finally {
      await backend.close();
    }
  });

  it('ends a database process whose parent was killed in the middle of a statement', async () => {
    const helper = fileURLToPath(new URL('../../../test/fixtures/sqlite-runaway-helper.ts', import.meta.url));
    const tsxRoot = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
    const loader = pathToFileURL(path.join(tsxRoot, 'dist', 'loader.mjs')).href;
    const child = spawn(process.execPath, ['--import', loader, helper], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
    const database = await new Promise<number>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const pids = /database-process ([\d ]*)\n/.exec(out);
        if (pids && out.includes('statement-running')) {
          const list = pids[1]!.split(' ').filter(Boolean).map(Number);
          if (list.length === 1) resolve(list[0]!);
          else reject(new Error(`expected one database process, got '${pids[1]}'`));
        }
      });
      child.on('close', (code) => reject(new Error(`the helper ended early (${code}): ${out}`)));
    });
    expect(isRunning(database)).toBe(true);
    expect(commandLine(database)).toContain('sqlite-worker');
    child.kill('SIGKILL');
    await closed;
    // The watchdog checks for its parent twice a second; allow a loaded machine plenty of time.
    for (let i = 0; i < 200 && isRunning(database); i++) await sleep(50);
    expect(isRunning(database)).toBe(false);
  });
});
