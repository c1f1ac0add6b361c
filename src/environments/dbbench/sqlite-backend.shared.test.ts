import { describe, expect, it } from 'vitest';

import type { DbTable } from './dbbench-task.js';
import { formatSqlOutcome } from './format-result.js';
import { createSqliteBackend } from './sqlite-backend.js';

/**
 * Episodes sharing database processes (`maxWorkers` below the number of open episodes): a statement that
 * gets its process killed must not change what a neighbour on the same process sees.
 */

const MEDALS: DbTable = { name: 'Medals', columns: ['Nation', 'Gold'], rows: [['Norway', 3], ['Sweden', '1']] };
/** Counts an endless CTE inside DDL: no per-row tick, never ends by itself, so the process is killed. */
const ENDLESS_COUNT_DDL = 'CREATE TABLE n AS SELECT (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c) AS n';

describe('createSqliteBackend with shared database processes', () => {
  it('hosts several episode databases in one process, each its own', async () => {
    const backend = createSqliteBackend({ inlineBudgetMs: 0, maxWorkers: 1 });
    try {
      const [a, b] = await Promise.all([backend.openEpisode(MEDALS), backend.openEpisode(MEDALS)]);
      expect(backend.workers()).toMatchObject({ busy: 1, started: 1 });
      await a!.execute("UPDATE Medals SET Gold = '9' WHERE Nation = 'Norway'");
      expect(formatSqlOutcome(await b!.execute("SELECT Gold FROM Medals WHERE Nation = 'Norway'"))).toBe("[('3',)]");
      expect(formatSqlOutcome(await a!.execute("SELECT Gold FROM Medals WHERE Nation = 'Norway'"))).toBe("[('9',)]");
      await a!.dispose();
      expect(formatSqlOutcome(await b!.execute('SELECT COUNT(*) FROM Medals'))).toBe('[(2,)]');
      await b!.dispose();
      expect(backend.workers()).toEqual({ busy: 0, idle: 1, started: 1, killed: 0 });
    } finally {
      await backend.close();
    }
  });

  it('rebuilds a neighbour exactly after a runaway statement kills the shared process; only the runaway times out', async () => {
    const backend = createSqliteBackend({ inlineBudgetMs: 0, maxWorkers: 1, sqlTimeoutMs: 1_000 });
    try {
      const [runaway, neighbour] = await Promise.all([backend.openEpisode(MEDALS), backend.openEpisode(MEDALS)]);
      expect(backend.workers()).toMatchObject({ busy: 1, started: 1 });
      // The neighbour's database, variables and ROW_COUNT() before the kill.
      await neighbour!.execute("UPDATE Medals SET Gold = '5' WHERE Nation = 'Sweden'");
      await neighbour!.execute('SET @seen = 42');
      await neighbour!.execute("DELETE FROM Medals WHERE Nation = 'Norway'");

      const stuck = runaway!.execute(ENDLESS_COUNT_DDL);
      // Queued behind the runaway statement in the same process: never run there, so sent again elsewhere.
      const queued = neighbour!.execute('SELECT ROW_COUNT(), @seen');
      expect(await stuck).toEqual({ kind: 'timeout' });
      expect(formatSqlOutcome(await queued)).toBe('[(1, 42)]');
      expect(backend.workers()).toMatchObject({ killed: 1 });

      expect(formatSqlOutcome(await neighbour!.execute('SELECT Nation, Gold FROM Medals'))).toBe("[('Sweden', '5')]");
      expect(formatSqlOutcome(await neighbour!.execute('SELECT @seen'))).toBe('[(42,)]');
      expect(formatSqlOutcome(await runaway!.execute('SELECT COUNT(*) FROM n'))).toBe("1146 (42S02): Table 'dbbench.n' doesn't exist");
      expect(formatSqlOutcome(await runaway!.execute('SELECT COUNT(*) FROM Medals'))).toBe('[(2,)]');
      await Promise.all([runaway!.dispose(), neighbour!.dispose()]);
      expect(backend.workers()).toMatchObject({ busy: 0, killed: 1 });
    } finally {
      await backend.close();
    }
  });

  it('rejects a bad maxWorkers as a configuration error', () => {
    expect(() => createSqliteBackend({ maxWorkers: 0 })).toThrow(/maxWorkers must be a positive integer/);
  });
});
