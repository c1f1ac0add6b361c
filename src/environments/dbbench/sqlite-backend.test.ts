import { describe, expect, it } from 'vitest';

import type { DbTable } from './dbbench-task.js';
import { formatSqlOutcome } from './format-result.js';
import { createSqliteBackend, type SqliteSession } from './sqlite-backend.js';
import { mysqlTableHash } from './table-hash.js';

const TABLE: DbTable = { name: 'Medals', columns: ['Nation', 'Gold'], rows: [['Norway', 3], ['Sweden', '1']] };

describe('createSqliteBackend', () => {
  it('loads cells as Python str() and answers in MySQL shapes (process isolation)', async () => {
    const backend = createSqliteBackend({ databaseName: (t) => t.name.toLowerCase() });
    try {
      const session = await backend.openEpisode(TABLE);
      expect(formatSqlOutcome(await session.execute('SELECT * FROM Medals'))).toBe("[('Norway', '3'), ('Sweden', '1')]");
      expect(formatSqlOutcome(await session.execute('SELECT SUM(Gold), DATABASE() FROM Medals'))).toBe("[(4.0, 'medals')]");
      expect(formatSqlOutcome(await session.execute("INSERT INTO Medals VALUES ('Chile', 0)"))).toBe('[]');
      expect(await session.tableHash()).toBe(mysqlTableHash([['Norway', '3'], ['Sweden', '1'], ['Chile', '0']]));
      await session.dispose();
      await expect(session.execute('SELECT 1')).rejects.toThrow(/dispose/);
    } finally {
      await backend.close();
    }
  });

  it('gives each episode its own database', async () => {
    const backend = createSqliteBackend({ isolation: 'inline' });
    const a = await backend.openEpisode(TABLE);
    const b = await backend.openEpisode(TABLE);
    await a.execute('DELETE FROM Medals');
    expect(formatSqlOutcome(await b.execute('SELECT COUNT(*) FROM Medals'))).toBe('[(2,)]');
    expect(await a.tableHash()).toBeNull();
    await backend.close();
    await expect(backend.openEpisode(TABLE)).rejects.toThrow(/close/);
  });

  it('reports a timeout and keeps the data when a statement is cancelled (process)', async () => {
    const backend = createSqliteBackend({ sqlTimeoutMs: 300 });
    try {
      const session = await backend.openEpisode(TABLE);
      await session.execute("INSERT INTO Medals VALUES ('Chile', '0')");
      const runaway = 'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT COUNT(*) FROM c';
      expect(await session.execute(runaway)).toEqual({ kind: 'timeout' });
      expect(formatSqlOutcome(await session.execute('SELECT COUNT(*) FROM Medals'))).toBe('[(3,)]');
    } finally {
      await backend.close();
    }
  });

  it('kills a process that cannot cancel itself and restores the last snapshot', async () => {
    const backend = createSqliteBackend();
    try {
      const session = await backend.openEpisode(TABLE, { sqlTimeoutMs: 200 });
      await session.execute("UPDATE Medals SET Gold = '5' WHERE Nation = 'Sweden'");
      // One catastrophic regular expression runs inside a single function call: no per-row tick.
      const outcome = await session.execute("SELECT 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' REGEXP '^(a+)+$'");
      expect(outcome).toEqual({ kind: 'timeout' });
      expect(formatSqlOutcome(await session.execute("SELECT Gold FROM Medals WHERE Nation = 'Sweden'"))).toBe("[('5',)]");
    } finally {
      await backend.close();
    }
  });

  it('keeps going when the task table cannot be created, as MySQL would', async () => {
    const backend = createSqliteBackend({ isolation: 'inline' });
    const session = (await backend.openEpisode({ name: 't', columns: ['Score', 'Score'], rows: [['1', '2']] })) as SqliteSession;
    expect(session.setupError).toBe("1060 (42S21): Duplicate column name 'Score'");
    expect(formatSqlOutcome(await session.execute('SELECT * FROM t'))).toBe("1146 (42S02): Table 'dbbench.t' doesn't exist");
    // The loader's multi-row INSERT fails as a whole at the first row with too few or too many cells.
    const short = (await backend.openEpisode({ name: 't', columns: ['a', 'b'], rows: [['1', '2'], ['3'], ['4', '5', '6']] })) as SqliteSession;
    expect(short.setupError).toBe("1136 (21S01): Column count doesn't match value count at row 2");
    await backend.close();
  });
});
