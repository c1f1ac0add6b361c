import { ConfigError, InternalError } from '../../episode/index.js';
import type { DbBackend, DbSession, SqlOutcome } from './backend.js';
import type { DbTable } from './dbbench-task.js';
import { SqliteEngine } from './sqlite-engine.js';
import { SqliteWorkerPool, type SqliteWorkerPoolInfo } from './sqlite-worker-pool.js';
import { SqliteWorkerSession } from './sqlite-worker-session.js';

/** The FC harness gives each statement 60 s (`asyncio.wait_for(…, 60)`). */
export const DEFAULT_SQL_TIMEOUT_MS = 60_000;

/** Warm worker threads kept per backend by default: enough for the usual batch concurrency of 8. */
export const DEFAULT_WORKER_POOL_SIZE = 8;

/**
 * Options for {@link createSqliteBackend}.
 *
 * Timeouts: better-sqlite3 runs a statement synchronously, and this build has neither a progress handler
 * nor `sqlite3_interrupt`. The rewriter therefore puts a `mysql_tick()` call in every SELECT/UPDATE/DELETE
 * WHERE clause; it runs once per candidate row and throws once the statement's deadline has passed, which
 * aborts the statement (SQLite undoes its changes) and yields `{ kind: 'timeout' }`. That covers scans,
 * cross joins and runaway recursive CTEs, in both modes:
 * - `isolation: 'worker'` (default): each episode's database lives in a worker thread of its own for the
 *   episode's lifetime. Threads are pooled: once an episode is disposed, its thread closes the database
 *   and waits, warm, for the next episode (which gets a new database, so nothing carries over). If a
 *   statement does not stop itself within 2 s after the deadline (e.g. one huge regular expression), the
 *   thread is terminated, the agent gets a timeout, and the database is rebuilt in another thread from
 *   the snapshot taken after the last statement that changed it, so the killed statement has no effect.
 * - `isolation: 'inline'`: the database lives in the calling thread (fast; tests and gold replays). A
 *   statement the tick cannot stop runs to completion; if it took longer than the timeout it is reported
 *   as a timeout and its changes are kept, which is what MySQL does when the client stops waiting.
 *
 * DDL and statements passed through without rewriting carry no tick.
 */
export interface SqliteBackendOptions {
  isolation?: 'worker' | 'inline';
  /** Name reported by `SELECT DATABASE()` and in error messages; a function receives the task table. Default `dbbench`. */
  databaseName?: string | ((table: DbTable) => string);
  /** Per-statement timeout when `openEpisode` does not give one. Default 60 s. */
  sqlTimeoutMs?: number;
  /**
   * `isolation: 'worker'` only: how many idle worker threads are kept warm for the next episodes. The
   * pool still grows past this while more episodes are open at once; those extra threads end when
   * demand drops. Default {@link DEFAULT_WORKER_POOL_SIZE}.
   */
  workerPoolSize?: number;
}

/** The SQLite backend, plus the counters of its worker-thread pool (all zero with `isolation: 'inline'`). */
export interface SqliteBackend extends DbBackend {
  workers(): SqliteWorkerPoolInfo;
}

/** A session of this backend; `setupError` is set when MySQL would have refused to create the task table. */
export interface SqliteSession extends DbSession {
  readonly setupError: string | null;
}

class InlineSession implements SqliteSession {
  readonly setupError: string | null;
  #engine: SqliteEngine | null;

  constructor(
    table: DbTable,
    databaseName: string,
    private readonly timeoutMs: number,
    private readonly onDispose: () => void,
  ) {
    this.#engine = new SqliteEngine(table, { databaseName });
    this.setupError = this.#engine.setupError;
  }

  private engine(): SqliteEngine {
    if (!this.#engine) throw new InternalError({ message: 'DbSession used after dispose().' });
    return this.#engine;
  }

  async execute(sql: string): Promise<SqlOutcome> {
    const started = performance.now();
    const outcome = this.engine().execute(sql, this.timeoutMs);
    return performance.now() - started > this.timeoutMs ? { kind: 'timeout' } : outcome;
  }

  async tableHash(): Promise<string | null> {
    return this.engine().tableHash();
  }

  async dispose(): Promise<void> {
    this.#engine?.close();
    this.#engine = null;
    this.onDispose();
  }
}

/**
 * The default DBBench backend: embedded SQLite (better-sqlite3) with the MySQL compatibility layer of
 * `mysql-compat/`. Every episode gets a fresh in-memory database holding the task table, all columns
 * TEXT, cells inserted as Python `str()` of the JSON values (the FC loader's `str(col)`). `close()`
 * disposes the open sessions and terminates the worker threads.
 */
export function createSqliteBackend(options: SqliteBackendOptions = {}): SqliteBackend {
  const isolation = options.isolation ?? 'worker';
  const poolSize = options.workerPoolSize ?? DEFAULT_WORKER_POOL_SIZE;
  if (!Number.isInteger(poolSize) || poolSize < 0) {
    throw new ConfigError({ message: `workerPoolSize must be a non-negative integer, got ${poolSize}.`, field: 'workerPoolSize' });
  }
  const pool = new SqliteWorkerPool({ maxIdle: poolSize });
  const nameFor = (table: DbTable): string =>
    typeof options.databaseName === 'function' ? options.databaseName(table) : (options.databaseName ?? 'dbbench');
  const sessions = new Set<SqliteSession>();
  let closed = false;
  return {
    name: 'sqlite',
    async openEpisode(table, episodeOptions) {
      if (closed) throw new InternalError({ message: 'SQLite backend used after close().' });
      const timeoutMs = episodeOptions?.sqlTimeoutMs ?? options.sqlTimeoutMs ?? DEFAULT_SQL_TIMEOUT_MS;
      let session: SqliteSession;
      const forget = (): void => {
        sessions.delete(session);
      };
      if (isolation === 'inline') {
        session = new InlineSession(table, nameFor(table), timeoutMs, forget);
      } else {
        const worker = new SqliteWorkerSession({ pool, table, databaseName: nameFor(table), timeoutMs, onDispose: forget });
        session = worker;
        await worker.open();
        if (closed) {
          // close() ran while the database was being built.
          await worker.dispose();
          throw new InternalError({ message: 'SQLite backend used after close().' });
        }
      }
      sessions.add(session);
      return session;
    },
    workers: () => pool.info(),
    async close() {
      closed = true;
      await Promise.all([...sessions].map((s) => s.dispose()));
      await pool.close();
    },
  };
}
