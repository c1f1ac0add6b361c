import { InternalError } from '../../episode/index.js';
import type { SqlOutcome } from './backend.js';
import type { DbTable } from './dbbench-task.js';
import type { SqliteSession } from './sqlite-session.js';
import type { SqliteWorkerPool } from './sqlite-worker-pool.js';
import type { SqliteWorkerResponse } from './sqlite-worker.js';
import { lostConnectionError, outOfMemoryError } from './sqlite-limits.js';
import { SqliteProcessGone, type SqliteWorkerProcess } from './sqlite-worker-process.js';
import { sqliteTableKey } from './sqlite-table-key.js';

/** How long past the timeout a process may take to cancel a statement itself before it is killed. */
const KILL_GRACE_MS = 2_000;

export interface SqliteWorkerSessionOptions {
  pool: SqliteWorkerPool;
  table: DbTable;
  databaseName: string;
  timeoutMs: number;
  onDispose: () => void;
}

/**
 * An episode database hosted by a pooled database process (`isolation: 'process'`). The session borrows
 * the process from `open()` to `dispose()`. When a statement does not stop itself, or drives the process
 * past its memory ceiling (its watchdog kills it), or the process dies, the database is reopened in
 * another process from the snapshot taken after the last change, so the statement has no effect, and
 * the agent gets a timeout or a MySQL-style error.
 */
export class SqliteWorkerSession implements SqliteSession {
  setupError: string | null = null;
  readonly #options: SqliteWorkerSessionOptions;
  #proc: SqliteWorkerProcess | null = null;
  #image: Uint8Array | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #disposed = false;

  constructor(options: SqliteWorkerSessionOptions) {
    this.#options = options;
  }

  /** Borrows a process and opens the episode database in it: the task table, or the last snapshot after a kill. */
  async open(): Promise<void> {
    const { pool, table, databaseName } = this.#options;
    const tableKey = sqliteTableKey(table);
    const proc = await pool.acquire(tableKey);
    const image = this.#image ? { image: this.#image } : {};
    let response;
    try {
      // The rows travel only to a process that has not held this table yet (or has dropped it since).
      response = await proc.request({ op: 'open', tableKey, ...(proc.tables.has(tableKey) ? {} : { table }), databaseName, ...image });
      if (response !== 'timeout' && response.op === 'unknown-table') response = await proc.request({ op: 'open', tableKey, table, databaseName, ...image });
      proc.tables.add(tableKey);
    } catch (error) {
      pool.discard(proc);
      throw error;
    }
    if (response !== 'timeout' && response.op === 'open') {
      this.setupError = response.setupError;
      this.#proc = proc;
      return;
    }
    // The database could not be built (e.g. rows that do not fit the columns); the process holds nothing.
    await pool.release(proc);
    if (response !== 'timeout' && response.op === 'failed') throw new Error(response.error.message);
    throw new InternalError({ message: `Unexpected SQLite process reply to open: ${describe(response)}.` });
  }

  execute(sql: string): Promise<SqlOutcome> {
    return this.serial(async (proc) => {
      const { timeoutMs } = this.#options;
      // The engine cancels the statement itself at the deadline; the process is only killed if it does not.
      let response;
      try {
        response = await proc.request({ op: 'execute', sql, timeoutMs }, timeoutMs + KILL_GRACE_MS);
      } catch (error) {
        if (!(error instanceof SqliteProcessGone) || error.reason === 'terminated') throw error;
        // The watchdog killed the process for its memory, or it crashed: the statement is undone.
        await this.restart(proc);
        return { kind: 'error', message: (error.reason === 'memory' ? outOfMemoryError() : lostConnectionError()).message } as const;
      }
      if (response === 'timeout') {
        await this.restart(proc);
        return { kind: 'timeout' } as const;
      }
      if (response.op === 'failed') throw new InternalError({ message: `SQLite process failed: ${describe(response)}` });
      if (response.op !== 'execute') throw new InternalError({ message: `Unexpected SQLite process reply '${response.op}'.` });
      if (response.image) this.#image = response.image;
      return response.outcome;
    });
  }

  tableHash(): Promise<string | null> {
    return this.serial(async (proc) => {
      const response = await proc.request({ op: 'hash' });
      if (response === 'timeout' || response.op !== 'hash') throw new InternalError({ message: 'Unexpected SQLite process reply to tableHash.' });
      return response.hash;
    });
  }

  dispose(): Promise<void> {
    const run = this.#queue.then(() => this.close());
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Runs calls one at a time: a timeout replaces the process, which must not happen under another call. */
  private serial<T>(task: (proc: SqliteWorkerProcess) => Promise<T>): Promise<T> {
    const run = this.#queue.then(() => {
      if (this.#disposed) throw new InternalError({ message: 'DbSession used after dispose().' });
      if (!this.#proc) throw new InternalError({ message: 'The SQLite process hosting this episode database was lost.' });
      return task(this.#proc);
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  private async restart(stuck: SqliteWorkerProcess): Promise<void> {
    this.#proc = null;
    this.#options.pool.discard(stuck);
    await this.open();
  }

  /** Closes the database and gives the process back to the pool (a process that does not answer is killed). */
  private async close(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    const proc = this.#proc;
    this.#proc = null;
    if (proc) {
      const response = await proc.request({ op: 'close' }, KILL_GRACE_MS).catch(() => 'failed' as const);
      if (response !== 'timeout' && response !== 'failed' && response.op === 'close') await this.#options.pool.release(proc);
      else this.#options.pool.discard(proc);
    }
    this.#options.onDispose();
  }
}

function describe(response: SqliteWorkerResponse | 'timeout'): string {
  if (response === 'timeout') return 'no reply';
  if (response.op !== 'failed') return `'${response.op}'`;
  return response.error.message;
}
