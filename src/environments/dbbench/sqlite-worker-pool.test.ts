import { describe, expect, it } from 'vitest';

import { SqliteWorkerPool } from './sqlite-worker-pool.js';

describe('SqliteWorkerPool', () => {
  it('hands a released thread to a waiting acquire before a new one has started', async () => {
    const pool = new SqliteWorkerPool({ maxIdle: 2, maxStarting: 1 });
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

  it('starts at most maxStarting threads at once and serves every waiter', async () => {
    const pool = new SqliteWorkerPool({ maxIdle: 0, maxStarting: 1 });
    try {
      const threads = await Promise.all([pool.acquire(), pool.acquire(), pool.acquire()]);
      expect(new Set(threads).size).toBe(3);
      expect(pool.info()).toEqual({ busy: 3, idle: 0, started: 3, killed: 0 });
      await Promise.all(threads.map((t) => pool.release(t)));
      expect(pool.info()).toEqual({ busy: 0, idle: 0, started: 3, killed: 0 });
      expect(threads.every((t) => !t.alive)).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('does not lend a discarded thread again', async () => {
    const pool = new SqliteWorkerPool({ maxIdle: 2 });
    try {
      const thread = await pool.acquire();
      pool.discard(thread);
      expect(thread.alive).toBe(false);
      await pool.release(thread);
      const next = await pool.acquire();
      expect(next).not.toBe(thread);
      expect(pool.info()).toMatchObject({ busy: 1, idle: 0, started: 2, killed: 1 });
    } finally {
      await pool.close();
    }
  });

  it('fails waiting and later acquires after close()', async () => {
    const pool = new SqliteWorkerPool({ maxIdle: 1, maxStarting: 1 });
    const lent = await pool.acquire();
    const waiting = pool.acquire().catch((error: unknown) => error);
    await pool.close();
    expect(await waiting).toEqual(expect.objectContaining({ message: expect.stringMatching(/close/) }));
    await expect(pool.acquire()).rejects.toThrow(/close/);
    await pool.release(lent);
    expect(lent.alive).toBe(false);
  });
});
