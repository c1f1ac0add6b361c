import { describe, expect, it } from 'vitest';

import { DEFAULT_SQLITE_LIMITS as limits } from './sqlite-limits.js';
import { SqliteWorkerPool } from './sqlite-worker-pool.js';
import type { DbTable } from './dbbench-task.js';
import { sqliteTableKey } from './sqlite-table-key.js';

const TABLE: DbTable = { name: 'T', columns: ['a'], rows: [['x'], ['y']] };

describe('SqliteWorkerPool', () => {
  it('hands a released process to a waiting acquire before a new one has started', async () => {
    const pool = new SqliteWorkerPool({ maxIdle: 2, maxStarting: 1, limits });
    try {
      const first = await pool.acquire();
      const waiting = pool.acquire();
      await pool.release(first);
      expect(await waiting).toBe(first);
      expect(pool.info()).toMatchObject({ busy: 1, started: 2 });
    } finally {
      await pool.close();
    }
  });

  it('starts at most maxStarting processes at once and serves every waiter', async () => {
    const pool = new SqliteWorkerPool({ maxIdle: 0, maxStarting: 1, limits });
    try {
      const processes = await Promise.all([pool.acquire(), pool.acquire(), pool.acquire()]);
      expect(new Set(processes).size).toBe(3);
      expect(pool.info()).toEqual({ busy: 3, idle: 0, started: 3, killed: 0 });
      await Promise.all(processes.map((t) => pool.release(t)));
      expect(pool.info()).toEqual({ busy: 0, idle: 0, started: 3, killed: 0 });
      expect(processes.every((t) => !t.alive)).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('does not lend a discarded process again', async () => {
    const pool = new SqliteWorkerPool({ maxIdle: 2, limits });
    try {
      const proc = await pool.acquire();
      pool.discard(proc);
      expect(proc.alive).toBe(false);
      await pool.release(proc);
      const next = await pool.acquire();
      expect(next).not.toBe(proc);
      expect(pool.info()).toMatchObject({ busy: 1, idle: 0, started: 2, killed: 1 });
    } finally {
      await pool.close();
    }
  });

  it('fails waiting and later acquires after close()', async () => {
    const pool = new SqliteWorkerPool({ maxIdle: 1, maxStarting: 1, limits });
    const lent = await pool.acquire();
    const waiting = pool.acquire().catch((error: unknown) => error);
    await pool.close();
    expect(await waiting).toEqual(expect.objectContaining({ message: expect.stringMatching(/close/) }));
    await expect(pool.acquire()).rejects.toThrow(/close/);
    await pool.release(lent);
    expect(lent.alive).toBe(false);
  });

  it('warm(n) starts n processes at once, past maxStarting, before any acquire and keeps them', async () => {
    const pool = new SqliteWorkerPool({ maxIdle: 0, maxStarting: 1, limits });
    try {
      pool.warm(3);
      expect(pool.info().started).toBe(3);
      await expect.poll(() => pool.info().idle, { timeout: 60_000 }).toBe(3);
      expect(pool.info()).toEqual({ busy: 0, idle: 3, started: 3, killed: 0 });
      const lent = await pool.acquire();
      await pool.release(lent);
      expect(pool.info()).toEqual({ busy: 0, idle: 3, started: 3, killed: 0 });
    } finally {
      await pool.close();
    }
  });

  it('warm(n) starts no more than maxProcesses', async () => {
    const pool = new SqliteWorkerPool({ maxIdle: 0, maxStarting: 1, maxProcesses: 2, limits });
    try {
      pool.warm(5);
      expect(pool.info().started).toBe(2);
      await expect.poll(() => pool.info().idle, { timeout: 60_000 }).toBe(2);
      expect(pool.info().started).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('at the process cap, lends a ready process at once while another starts, and spreads waiters over both', async () => {
    const pool = new SqliteWorkerPool({ maxIdle: 2, maxStarting: 1, maxProcesses: 2, limits });
    try {
      const first = await pool.acquire();
      let secondLent = false;
      // The second waiter is promised the process this acquire starts; the third shares the ready one.
      const second = pool.acquire().then((proc) => ((secondLent = true), proc));
      const third = await pool.acquire();
      expect(third).toBe(first);
      expect(secondLent).toBe(false);
      expect(pool.info().started).toBe(2);
      const fourth = pool.acquire();
      const started = await second;
      expect(started).not.toBe(first);
      expect(await fourth).toBe(started);
      expect(pool.info()).toEqual({ busy: 2, idle: 0, started: 2, killed: 0 });
    } finally {
      await pool.close();
    }
  });

  it('fails the episodes promised to a starting process after close()', async () => {
    const pool = new SqliteWorkerPool({ maxIdle: 0, maxProcesses: 1, limits });
    pool.warm(1);
    const promised = Promise.all([pool.acquire(), pool.acquire()]).catch((error: unknown) => error);
    await pool.close();
    expect(await promised).toEqual(expect.objectContaining({ message: expect.stringMatching(/close/) }));
  });

  it('a process keeps a table it was sent: later opens send its key only, and an idle holder is lent first', async () => {
    const pool = new SqliteWorkerPool({ maxIdle: 2, limits });
    try {
      const [holder, other] = await Promise.all([pool.acquire(), pool.acquire()]);
      const tableKey = sqliteTableKey(TABLE);
      expect(await holder!.request({ op: 'open', session: 1, tableKey, databaseName: 'd' })).toMatchObject({ op: 'unknown-table' });
      expect(await holder!.request({ op: 'open', session: 1, tableKey, table: TABLE, databaseName: 'd' })).toMatchObject({ op: 'open', setupError: null });
      expect(await holder!.request({ op: 'execute', session: 1, sql: "UPDATE T SET a = 'z'", timeoutMs: 5_000 })).toMatchObject({ op: 'execute' });
      await holder!.request({ op: 'close', session: 1 });
      holder!.tables.add(tableKey);
      // Key only: the rows come from the process's own copy, as loaded (the UPDATE is gone).
      expect(await holder!.request({ op: 'open', session: 1, tableKey, databaseName: 'd' })).toMatchObject({ op: 'open', setupError: null });
      expect(await holder!.request({ op: 'execute', session: 1, sql: 'SELECT a FROM T', timeoutMs: 5_000 })).toMatchObject({ outcome: { kind: 'rows', rows: [['x'], ['y']] } });
      await holder!.request({ op: 'close', session: 1 });
      await pool.release(holder!);
      await pool.release(other!);
      expect(await pool.acquire(tableKey)).toBe(holder);
    } finally {
      await pool.close();
    }
  });
});
