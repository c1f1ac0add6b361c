import { afterAll, describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import type { DbBackend } from './backend.js';
import type { DbBenchTask, DbTable } from './dbbench-task.js';
import { replayGold } from './gold-replay.js';
import { loadDbBenchSplit } from './load-tasks.js';
import { createSqliteBackend } from './sqlite-backend.js';
import { SqliteWorkerProcess } from './sqlite-worker-process.js';

/** The same backend without its one-request shortcut: gold replays take the steps one by one. */
function stepwise(backend: DbBackend): DbBackend {
  return { name: backend.name, openEpisode: (table, options) => backend.openEpisode(table, options), close: () => backend.close() };
}

/** Counts the requests sent to database processes while `run` runs. */
async function countingRequests<T>(run: () => Promise<T>): Promise<{ result: T; requests: Record<string, number> }> {
  const requests: Record<string, number> = {};
  const original = SqliteWorkerProcess.prototype.request;
  SqliteWorkerProcess.prototype.request = function (request, timeoutMs) {
    requests[request.op] = (requests[request.op] ?? 0) + 1;
    return original.call(this, request, timeoutMs);
  };
  try {
    return { result: await run(), requests };
  } finally {
    SqliteWorkerProcess.prototype.request = original;
  }
}

const MEDALS: DbTable = { name: 'Medals', columns: ['Nation', 'Gold'], rows: [['Norway', 3], ['Sweden', '1']] };
/** Counts an endless CTE inside DDL: no per-row tick, never ends by itself, so the process must be killed. */
const ENDLESS_COUNT_DDL = 'CREATE TABLE n AS SELECT (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c) AS n';

function mutationTask(table: DbTable, gold: string): DbBenchTask {
  return { index: 0, kind: 'mutation', type: 'UPDATE', description: '', table, label: [gold], answerMd5: "[('x',)]" } as unknown as DbBenchTask;
}

describe('gold replay in one request (process isolation)', () => {
  const backend = createSqliteBackend({ inlineBudgetMs: 0, sqlTimeoutMs: 1_000 });
  afterAll(() => backend.close());

  it('gives what the stepwise replay gives for every dev + standard mutation task, in one request each', async () => {
    const tasks = ['dev', 'standard'].flatMap((split) => loadDbBenchSplit(resolveDataDir(), split)).filter((t) => t.kind === 'mutation');
    expect(tasks).toHaveLength(240);
    const fast = await countingRequests(async () => {
      const out = [];
      for (const task of tasks) out.push(await replayGold(task, backend));
      return out;
    });
    const slow = await countingRequests(async () => {
      const out = [];
      for (const task of tasks) out.push(await replayGold(task, stepwise(backend)));
      return out;
    });
    expect(fast.result).toEqual(slow.result);
    // Every outcome is there: reproduced hashes, the known misses, gold SQL that fails.
    expect(fast.result.filter((r) => r.error === undefined && r.actual === r.expected).length).toBeGreaterThanOrEqual(235);
    expect(fast.result.some((r) => r.error?.startsWith('gold SQL failed:') || r.actual !== r.expected)).toBe(true);
    expect(Object.keys(fast.requests)).toEqual(['fresh-statement']);
    // A process that has not held a table yet answers `unknown-table` once and then gets the rows.
    expect(fast.requests['fresh-statement']).toBeGreaterThanOrEqual(240);
    expect(fast.requests['fresh-statement']).toBeLessThan(2 * 240);
    expect(slow.requests).toMatchObject({ execute: 240, hash: 240, close: 240 });
  });

  it('a table MySQL refuses is answered without a database process, as an episode would be', async () => {
    const fresh = createSqliteBackend({ inlineBudgetMs: 0 });
    try {
      const refused = mutationTask({ name: 'T', columns: ['a', 'A'], rows: [] }, "UPDATE T SET a = '1'");
      const expected = await replayGold(refused, stepwise(fresh));
      expect(await replayGold(refused, fresh)).toEqual(expected);
      expect(expected).toMatchObject({ error: expect.stringMatching(/^the task table cannot be created: .*Duplicate column name 'A'/), infrastructure: true });
      expect(fresh.workers()).toMatchObject({ started: 0 });
    } finally {
      await fresh.close();
    }
  });

  it('a statement that must be killed falls back to the stepwise replay: the same result, each stuck process killed', async () => {
    const before = backend.workers().killed;
    const replay = await replayGold(mutationTask(MEDALS, ENDLESS_COUNT_DDL), backend, 300);
    // Killed once in the one request, once more in the stepwise replay, which reports it.
    expect(backend.workers().killed).toBe(before + 2);
    const untouched = await replayGold(mutationTask(MEDALS, 'SELECT 1'), backend);
    expect(untouched.error).toBeUndefined();
    expect(untouched.actual).toEqual(expect.any(String));
    expect(replay).toEqual({ expected: 'x', actual: untouched.actual, error: 'gold SQL timed out' });
  });

  it('a statement the engine stops itself (a tick past its deadline) is answered in the one request', async () => {
    const slowSelect = "UPDATE Medals SET Gold = '9' WHERE (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000000) SELECT COUNT(*) FROM c) > 0";
    const result = await countingRequests(() => backend.runOnFreshTable!(MEDALS, slowSelect, { sqlTimeoutMs: 200 }));
    expect(result.requests).toEqual({ 'fresh-statement': expect.any(Number) });
    expect(result.result?.setupError).toBeNull();
    expect(result.result?.outcome).toEqual({ kind: 'timeout' });
    expect(result.result?.hash).toEqual(expect.any(String));
  });
});
