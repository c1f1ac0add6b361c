import { availableParallelism } from 'node:os';

import { ConfigError, InternalError } from '../../episode/index.js';
import type { DbBackend, FreshStatementResult, SqlOutcome } from './backend.js';
import type { DbTable } from './dbbench-task.js';
import { SqliteEngine, tableDefinitionError } from './sqlite-engine.js';
import { runOnFreshTable } from './sqlite-fresh-statement.js';
import { SqliteWorkerPool, type SqliteWorkerPoolInfo } from './sqlite-worker-pool.js';
import { BoundedFirstSession } from './sqlite-bounded-session.js';
import { SqliteWorkerSession } from './sqlite-worker-session.js';
import { warmUpSqliteEngine } from './sqlite-warm-up.js';
import { resolveSqliteLimits, type SqliteLimits } from './sqlite-limits.js';
import type { SqliteSession } from './sqlite-session.js';

/** The FC harness gives each statement 60 s (`asyncio.wait_for(…, 60)`). */
export const DEFAULT_SQL_TIMEOUT_MS = 60_000;

/** How long a bounded statement may hold the calling thread by default before it goes to a process. */
export const DEFAULT_INLINE_BUDGET_MS = 5;

/** Warm database processes kept per backend by default: enough for the usual batch concurrency of 8. */
export const DEFAULT_WORKER_POOL_SIZE = 8;

/**
 * Options for {@link createSqliteBackend}.
 *
 * Timeouts: better-sqlite3 runs a statement synchronously, and this build has neither a progress handler
 * nor `sqlite3_interrupt`. The rewriter therefore puts a `mysql_tick()` call in every SELECT/UPDATE/DELETE
 * WHERE clause; it runs once per candidate row and throws once the statement's deadline has passed, which
 * aborts the statement (SQLite undoes its changes) and yields `{ kind: 'timeout' }`. That covers scans,
 * cross joins and runaway recursive CTEs. DDL and statements passed through without rewriting carry no
 * tick; they are covered by the process isolation below.
 * - `isolation: 'process'` (default): an episode's database starts in the calling thread, where only
 *   bounded statements run (`mysql-compat/bounded-statement.ts`: work that grows with the rows visited, so
 *   the tick stops it within `inlineBudgetMs`), and moves to a child process at its first statement that
 *   is not bounded or outruns that budget (`sqlite-bounded-session.ts`); the answers are the same either
 *   way. From then on it lives in that child process for the episode's lifetime (one of at most `maxWorkers`, shared with other episodes' databases past that), under the ceilings of `sqlite-limits.ts` (database size, resident memory, V8 heap).
 *   Processes are pooled: once an episode is disposed, its process closes the database and waits, warm,
 *   for the next episode (which gets a new database, so nothing carries over). If a statement does not
 *   stop itself within 2 s after the deadline (e.g. DDL, or one huge regular expression), the process is
 *   killed, the agent gets a timeout, and the database is rebuilt in another process from the snapshot
 *   taken after the last statement that changed it, so the killed statement has no effect; the other
 *   episodes of that process rebuild theirs exactly the same way (`sqlite-worker-session.ts`). A process that
 *   passes its memory ceiling is killed by its own watchdog and replaced the same way; the agent gets
 *   MySQL's `1041 Out of memory`.
 * - `isolation: 'inline'`: the database lives in the calling thread (fast; tests and trusted gold SQL).
 *   Only the database-size cap applies. A statement the tick cannot stop runs to completion; if it took
 *   longer than the timeout it is reported as a timeout and its changes are kept, which is what MySQL
 *   does when the client stops waiting. Never use it for agent SQL.
 */
export interface SqliteBackendOptions extends Partial<SqliteLimits> {
  isolation?: 'process' | 'inline';
  /** Name reported by `SELECT DATABASE()` and in error messages; a function receives the task table. Default `dbbench`. */
  databaseName?: string | ((table: DbTable) => string);
  /** Per-statement timeout when `openEpisode` does not give one. Default 60 s. */
  sqlTimeoutMs?: number;
  /**
   * `isolation: 'process'` only: how many idle database processes are kept warm for the next episodes.
   * The pool still grows past this while more episodes are open at once; those extra processes end when
   * demand drops. Default {@link DEFAULT_WORKER_POOL_SIZE}.
   */
  workerPoolSize?: number;
  /**
   * `isolation: 'process'` only: processes started at once, before the first episode, and kept warm
   * (the batch's concurrency, so no episode waits for a process to load). Default 0: started on demand.
   */
  warmWorkers?: number;
  /**
   * `isolation: 'process'` only: how long (ms) a bounded statement (`mysql-compat/bounded-statement.ts`)
   * may run in the calling thread before the episode database moves to a database process for good (see
   * `sqlite-bounded-session.ts`). Default {@link DEFAULT_INLINE_BUDGET_MS}; 0 sends every statement to a
   * process from the start.
   */
  inlineBudgetMs?: number;
  /**
   * `isolation: 'process'` only: database processes alive at most. Past it, episodes share processes,
   * each holding many episode databases (starting a process costs far more CPU than the statements of a
   * typical episode). Default {@link defaultMaxWorkers}: the CPU count, at least 2.
   */
  maxWorkers?: number;
}

/** Whether this thread has run the engine's warm-up (once for all backends). */
let warmedHere = false;

/** Database processes per backend by default: one per CPU, at least 2 (see `maxWorkers`). */
export function defaultMaxWorkers(): number {
  return Math.max(2, availableParallelism());
}

/** The SQLite backend, plus the counters of its process pool (all zero with `isolation: 'inline'`). */
export interface SqliteBackend extends DbBackend {
  workers(): SqliteWorkerPoolInfo;
}


export type { SqliteSession };

class InlineSession implements SqliteSession {
  readonly setupError: string | null;
  #engine: SqliteEngine | null;

  constructor(
    table: DbTable,
    databaseName: string,
    private readonly timeoutMs: number,
    maxDatabaseBytes: number,
    private readonly onDispose: () => void,
  ) {
    this.#engine = new SqliteEngine(table, { databaseName, maxDatabaseBytes });
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
 * disposes the open sessions and terminates the database processes.
 */
export function createSqliteBackend(options: SqliteBackendOptions = {}): SqliteBackend {
  const isolation = options.isolation ?? 'process';
  const limits = resolveSqliteLimits(options);
  const poolSize = options.workerPoolSize ?? DEFAULT_WORKER_POOL_SIZE;
  if (!Number.isInteger(poolSize) || poolSize < 0) {
    throw new ConfigError({ message: `workerPoolSize must be a non-negative integer, got ${poolSize}.`, field: 'workerPoolSize' });
  }
  const maxWorkers = options.maxWorkers ?? defaultMaxWorkers();
  if (!Number.isInteger(maxWorkers) || maxWorkers < 1) {
    throw new ConfigError({ message: `maxWorkers must be a positive integer, got ${maxWorkers}.`, field: 'maxWorkers' });
  }
  const inlineBudgetMs = options.inlineBudgetMs ?? DEFAULT_INLINE_BUDGET_MS;
  if (!Number.isFinite(inlineBudgetMs) || inlineBudgetMs < 0) {
    throw new ConfigError({ message: `inlineBudgetMs must be a non-negative number, got ${inlineBudgetMs}.`, field: 'inlineBudgetMs' });
  }
  const pool = new SqliteWorkerPool({ maxIdle: poolSize, limits, maxProcesses: maxWorkers });
  // Bounded statements run in this thread: compile the engine's code here once, before the first episode.
  if (isolation === 'process' && inlineBudgetMs > 0 && !warmedHere) {
    warmedHere = true;
    warmUpSqliteEngine(limits.databaseLimitMb * 1024 * 1024, true);
  }
  const warm = options.warmWorkers ?? 0;
  if (!Number.isInteger(warm) || warm < 0) throw new ConfigError({ message: `warmWorkers must be a non-negative integer, got ${warm}.`, field: 'warmWorkers' });
  if (isolation === 'process' && warm > 0) pool.warm(warm);
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
      const databaseName = nameFor(table);
      const refused = isolation === 'process' ? tableDefinitionError(table) : null;
      if (isolation === 'inline') {
        session = new InlineSession(table, databaseName, timeoutMs, limits.databaseLimitMb * 1024 * 1024, forget);
      } else if (inlineBudgetMs > 0 && !refused) {
        session = new BoundedFirstSession({
          table,
          databaseName,
          maxDatabaseBytes: limits.databaseLimitMb * 1024 * 1024,
          budgetMs: inlineBudgetMs,
          onDispose: forget,
          toProcess: async (start) => {
            const worker = new SqliteWorkerSession({ pool, table, databaseName, timeoutMs, onDispose: () => undefined, start });
            await worker.open();
            return worker;
          },
        });
      } else {
        const worker = new SqliteWorkerSession({ pool, table, databaseName, timeoutMs, onDispose: forget });
        session = worker;
        if (refused) worker.openRefused(refused.message);
        else await worker.open();
        if (closed) {
          // close() ran while the database was being built.
          await worker.dispose();
          throw new InternalError({ message: 'SQLite backend used after close().' });
        }
      }
      sessions.add(session);
      return session;
    },
    ...(isolation === 'process'
      ? {
          async runOnFreshTable(table: DbTable, sql: string, episodeOptions?: { sqlTimeoutMs?: number }): Promise<FreshStatementResult | undefined> {
            if (closed) throw new InternalError({ message: 'SQLite backend used after close().' });
            // A table MySQL refuses is known from the table alone, as in openEpisode.
            const refused = tableDefinitionError(table);
            if (refused) return { setupError: refused.message, outcome: null, hash: null };
            const timeoutMs = episodeOptions?.sqlTimeoutMs ?? options.sqlTimeoutMs ?? DEFAULT_SQL_TIMEOUT_MS;
            return runOnFreshTable(pool, table, nameFor(table), sql, timeoutMs);
          },
        }
      : {}),
    workers: () => pool.info(),
    async close() {
      closed = true;
      await Promise.all([...sessions].map((s) => s.dispose()));
      await pool.close();
    },
  };
}
