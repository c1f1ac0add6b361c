import { describe, expect, it } from 'vitest';

import type { DbTable } from './dbbench-task.js';
import { formatSqlOutcome } from './format-result.js';
import { createSqliteBackend, type SqliteSession } from './sqlite-backend.js';
import { mysqlTableHash } from './table-hash.js';

const MEDALS: DbTable = { name: 'Medals', columns: ['Nation', 'Gold'], rows: [['Norway', 3], ['Sweden', '1']] };
const CITIES: DbTable = { name: 'Cities', columns: ['City'], rows: [['Oslo']] };

describe('createSqliteBackend process pool', () => {
  it('hosts sequential episodes in one warm process and carries nothing over', async () => {
    const backend = createSqliteBackend({ inlineBudgetMs: 0, databaseName: (t) => t.name.toLowerCase() });
    try {
      const first = await backend.openEpisode(MEDALS);
      for (const sql of [
        'SET @seen = 42',
        'CREATE TABLE Extra (x INT)',
        'INSERT INTO Extra VALUES (1)',
        "UPDATE Medals SET Gold = '9'",
        'CREATE VIEW Rich AS SELECT Nation FROM Medals',
      ]) {
        expect(formatSqlOutcome(await first.execute(sql)), sql).toBe('[]');
      }
      expect(formatSqlOutcome(await first.execute("SELECT GROUP_CONCAT(Nation SEPARATOR '|') FROM Medals"))).toBe("[('Norway|Sweden',)]");
      await first.dispose();
      expect(backend.workers()).toEqual({ busy: 0, idle: 1, started: 1, killed: 0 });

      const second = await backend.openEpisode(MEDALS);
      expect(backend.workers()).toMatchObject({ busy: 1, idle: 0, started: 1 });
      expect(formatSqlOutcome(await second.execute('SELECT @seen'))).toBe('[(None,)]');
      expect(formatSqlOutcome(await second.execute('SHOW TABLES'))).toBe("[('Medals',)]");
      expect(formatSqlOutcome(await second.execute('SELECT * FROM Extra'))).toBe("1146 (42S02): Table 'medals.Extra' doesn't exist");
      expect(formatSqlOutcome(await second.execute('SELECT * FROM Medals'))).toBe("[('Norway', '3'), ('Sweden', '1')]");
      expect(formatSqlOutcome(await second.execute("SELECT GROUP_CONCAT(Nation SEPARATOR '|') FROM Medals"))).toBe("[('Norway|Sweden',)]");
      expect(await second.tableHash()).toBe(mysqlTableHash([['Norway', '3'], ['Sweden', '1']]));
      await second.dispose();

      // Another task's table and database name in the same process.
      const third = await backend.openEpisode(CITIES);
      expect(formatSqlOutcome(await third.execute('SELECT DATABASE(), COUNT(*) FROM Cities'))).toBe("[('cities', 1)]");
      expect(formatSqlOutcome(await third.execute('SELECT * FROM Medals'))).toBe("1146 (42S02): Table 'cities.Medals' doesn't exist");
      await third.dispose();
      expect(backend.workers()).toEqual({ busy: 0, idle: 1, started: 1, killed: 0 });
    } finally {
      await backend.close();
    }
  });

  it('gives episodes open at the same time a process each below maxWorkers, and keeps at most workerPoolSize idle', async () => {
    const backend = createSqliteBackend({ inlineBudgetMs: 0, workerPoolSize: 1, maxWorkers: 3 });
    try {
      const sessions = await Promise.all([backend.openEpisode(MEDALS), backend.openEpisode(MEDALS), backend.openEpisode(MEDALS)]);
      expect(backend.workers()).toMatchObject({ busy: 3, started: 3 });
      await sessions[0]!.execute('DELETE FROM Medals');
      await sessions[1]!.execute("INSERT INTO Medals VALUES ('Chile', '0')");
      expect(formatSqlOutcome(await sessions[0]!.execute('SELECT COUNT(*) FROM Medals'))).toBe('[(0,)]');
      expect(formatSqlOutcome(await sessions[1]!.execute('SELECT COUNT(*) FROM Medals'))).toBe('[(3,)]');
      expect(formatSqlOutcome(await sessions[2]!.execute('SELECT COUNT(*) FROM Medals'))).toBe('[(2,)]');
      await Promise.all(sessions.map((s) => s.dispose()));
      expect(backend.workers()).toEqual({ busy: 0, idle: 1, started: 3, killed: 0 });
    } finally {
      await backend.close();
    }
  });

  it('replaces a killed process and keeps serving episodes', async () => {
    const backend = createSqliteBackend({ inlineBudgetMs: 0, workerPoolSize: 2 });
    try {
      const session = await backend.openEpisode(MEDALS, { sqlTimeoutMs: 200 });
      await session.execute("INSERT INTO Medals VALUES ('Chile', '0')");
      const outcome = await session.execute("SELECT 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' REGEXP '^(a+)+$'");
      expect(outcome).toEqual({ kind: 'timeout' });
      expect(backend.workers()).toMatchObject({ busy: 1, started: 2, killed: 1 });
      expect(formatSqlOutcome(await session.execute('SELECT COUNT(*) FROM Medals'))).toBe('[(3,)]');
      await session.dispose();

      const next = await backend.openEpisode(MEDALS);
      expect(formatSqlOutcome(await next.execute('SELECT COUNT(*) FROM Medals'))).toBe('[(2,)]');
      await next.dispose();
      expect(backend.workers()).toEqual({ busy: 0, idle: 1, started: 2, killed: 1 });
    } finally {
      await backend.close();
    }
  });

  it('reports setupError from a pooled process, which then serves the next episode', async () => {
    const backend = createSqliteBackend({ inlineBudgetMs: 0 });
    try {
      const broken = (await backend.openEpisode({ name: 't', columns: ['Score', 'Score'], rows: [['1', '2']] })) as SqliteSession;
      expect(broken.setupError).toBe("1060 (42S21): Duplicate column name 'Score'");
      // The refusal is known from the table alone: no process is started until a statement comes.
      expect(backend.workers()).toEqual({ busy: 0, idle: 0, started: 0, killed: 0 });
      expect(formatSqlOutcome(await broken.execute('SELECT * FROM t'))).toBe("1146 (42S02): Table 'dbbench.t' doesn't exist");
      await broken.dispose();
      const next = (await backend.openEpisode(MEDALS)) as SqliteSession;
      expect(next.setupError).toBeNull();
      expect(formatSqlOutcome(await next.execute('SELECT COUNT(*) FROM Medals'))).toBe('[(2,)]');
      await next.dispose();
      expect(backend.workers()).toMatchObject({ started: 1 });
    } finally {
      await backend.close();
    }
  });

  it('fails openEpisode with the engine error for a table that cannot be loaded, and keeps the process', async () => {
    // A NUL inside the table name breaks SQLite's own CREATE TABLE.
    const unloadable: DbTable = { name: 't\u0000x', columns: ['a'], rows: [['1']] };
    const inline = createSqliteBackend({ isolation: 'inline' });
    const inlineError = await inline.openEpisode(unloadable).then(
      () => null,
      (error: unknown) => error,
    );
    await inline.close();
    expect(inlineError).toBeInstanceOf(Error);

    const backend = createSqliteBackend({ inlineBudgetMs: 0 });
    try {
      await expect(backend.openEpisode(unloadable)).rejects.toThrow((inlineError as Error).message);
      const next = await backend.openEpisode(MEDALS);
      expect(formatSqlOutcome(await next.execute('SELECT COUNT(*) FROM Medals'))).toBe('[(2,)]');
      await next.dispose();
      expect(backend.workers()).toEqual({ busy: 0, idle: 1, started: 1, killed: 0 });
    } finally {
      await backend.close();
    }
  });

  it('disposes a refused table\'s session without ever starting a process', async () => {
    const backend = createSqliteBackend({ inlineBudgetMs: 0 });
    try {
      const refused = (await backend.openEpisode({ name: 't', columns: ['a', 'b'], rows: [['1']] })) as SqliteSession;
      expect(refused.setupError).toBe("1136 (21S01): Column count doesn't match value count at row 1");
      await refused.dispose();
      expect(backend.workers()).toEqual({ busy: 0, idle: 0, started: 0, killed: 0 });
      await expect(refused.execute('SELECT 1')).rejects.toThrow(/dispose/);
    } finally {
      await backend.close();
    }
  });

  it('returns the process once however often dispose() is called', async () => {
    const backend = createSqliteBackend({ inlineBudgetMs: 0 });
    try {
      const session = await backend.openEpisode(MEDALS);
      await Promise.all([session.dispose(), session.dispose()]);
      await session.dispose();
      expect(backend.workers()).toEqual({ busy: 0, idle: 1, started: 1, killed: 0 });
      await expect(session.tableHash()).rejects.toThrow(/dispose/);
      const [a, b] = await Promise.all([backend.openEpisode(MEDALS), backend.openEpisode(MEDALS)]);
      expect(backend.workers()).toMatchObject({ busy: 2, started: 2 });
      await a.execute('DELETE FROM Medals');
      expect(formatSqlOutcome(await b.execute('SELECT COUNT(*) FROM Medals'))).toBe('[(2,)]');
    } finally {
      await backend.close();
    }
  });

  it('close() disposes open sessions and terminates every process', async () => {
    const backend = createSqliteBackend({ inlineBudgetMs: 0 });
    const open = await backend.openEpisode(MEDALS);
    const other = await backend.openEpisode(MEDALS);
    await other.dispose();
    await backend.close();
    expect(backend.workers()).toMatchObject({ busy: 0, idle: 0 });
    await expect(open.execute('SELECT 1')).rejects.toThrow(/dispose/);
    await expect(backend.openEpisode(MEDALS)).rejects.toThrow(/close/);
    await backend.close();
  });

  it('disposeInBackground() returns before the process replied; the process comes back later and close() waits for it', async () => {
    const backend = createSqliteBackend({ inlineBudgetMs: 0 });
    try {
      const session = await backend.openEpisode(MEDALS);
      session.disposeInBackground!();
      // The close request is on its way: the process is still lent.
      expect(backend.workers()).toMatchObject({ busy: 1, idle: 0 });
      await expect(session.execute('SELECT 1')).rejects.toThrow(/dispose/);
      await expect.poll(() => backend.workers(), { timeout: 30_000 }).toEqual({ busy: 0, idle: 1, started: 1, killed: 0 });
      const next = await backend.openEpisode(MEDALS);
      next.disposeInBackground!();
      await backend.close();
      // close() waited for the episode still closing: its process came back (and was then terminated).
      expect(backend.workers()).toEqual({ busy: 0, idle: 0, started: 1, killed: 0 });
    } finally {
      await backend.close();
    }
  });

  it('rejects a bad workerPoolSize as a configuration error', () => {
    expect(() => createSqliteBackend({ workerPoolSize: -1 })).toThrow(/workerPoolSize must be a non-negative integer/);
  });
});
