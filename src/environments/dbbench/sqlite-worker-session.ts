import { InternalError } from '../../episode/index.js';
import type { SqlOutcome } from './backend.js';
import type { DbTable } from './dbbench-task.js';
import type { SqliteSession } from './sqlite-backend.js';
import type { SqliteWorkerPool } from './sqlite-worker-pool.js';
import type { SqliteWorkerThread } from './sqlite-worker-thread.js';

/** How long past the timeout a worker may take to cancel a statement itself before it is terminated. */
const KILL_GRACE_MS = 2_000;

export interface SqliteWorkerSessionOptions {
  pool: SqliteWorkerPool;
  table: DbTable;
  databaseName: string;
  timeoutMs: number;
  onDispose: () => void;
}

/**
 * An episode database hosted by a pooled worker thread (`isolation: 'worker'`). The session borrows the
 * thread from `open()` to `dispose()`. When a statement does not stop itself, the thread is killed and
 * the database is reopened in another thread from the snapshot taken after the last change.
 */
export class SqliteWorkerSession implements SqliteSession {
  setupError: string | null = null;
  readonly #options: SqliteWorkerSessionOptions;
  #thread: SqliteWorkerThread | null = null;
  #image: Uint8Array | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #disposed = false;

  constructor(options: SqliteWorkerSessionOptions) {
    this.#options = options;
  }

  /** Borrows a thread and opens the episode database in it: the task table, or the last snapshot after a kill. */
  async open(): Promise<void> {
    const { pool, table, databaseName } = this.#options;
    const thread = await pool.acquire();
    let response;
    try {
      response = await thread.request({ op: 'open', table, databaseName, ...(this.#image ? { image: this.#image } : {}) });
    } catch (error) {
      pool.discard(thread);
      throw error;
    }
    if (response !== 'timeout' && response.op === 'open') {
      this.setupError = response.setupError;
      this.#thread = thread;
      return;
    }
    // The database could not be built (e.g. rows that do not fit the columns); the thread holds nothing.
    await pool.release(thread);
    if (response !== 'timeout' && response.op === 'failed' && response.error instanceof Error) throw response.error;
    throw new InternalError({ message: `Unexpected SQLite worker reply to open: ${describe(response)}.` });
  }

  execute(sql: string): Promise<SqlOutcome> {
    return this.serial(async (thread) => {
      const { timeoutMs } = this.#options;
      // The engine cancels the statement itself at the deadline; the thread is only killed if it does not.
      const response = await thread.request({ op: 'execute', sql, timeoutMs }, timeoutMs + KILL_GRACE_MS);
      if (response === 'timeout') {
        await this.restart(thread);
        return { kind: 'timeout' } as const;
      }
      if (response.op === 'failed') throw new InternalError({ message: `SQLite worker failed: ${describe(response)}` });
      if (response.op !== 'execute') throw new InternalError({ message: `Unexpected SQLite worker reply '${response.op}'.` });
      if (response.image) this.#image = response.image;
      return response.outcome;
    });
  }

  tableHash(): Promise<string | null> {
    return this.serial(async (thread) => {
      const response = await thread.request({ op: 'hash' });
      if (response === 'timeout' || response.op !== 'hash') throw new InternalError({ message: 'Unexpected SQLite worker reply to tableHash.' });
      return response.hash;
    });
  }

  dispose(): Promise<void> {
    const run = this.#queue.then(() => this.close());
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Runs calls one at a time: a timeout replaces the thread, which must not happen under another call. */
  private serial<T>(task: (thread: SqliteWorkerThread) => Promise<T>): Promise<T> {
    const run = this.#queue.then(() => {
      if (this.#disposed) throw new InternalError({ message: 'DbSession used after dispose().' });
      if (!this.#thread) throw new InternalError({ message: 'The SQLite worker hosting this episode database was lost.' });
      return task(this.#thread);
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  private async restart(stuck: SqliteWorkerThread): Promise<void> {
    this.#thread = null;
    this.#options.pool.discard(stuck);
    await this.open();
  }

  /** Closes the database and gives the thread back to the pool (a thread that does not answer is killed). */
  private async close(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    const thread = this.#thread;
    this.#thread = null;
    if (thread) {
      const response = await thread.request({ op: 'close' }, KILL_GRACE_MS).catch(() => 'failed' as const);
      if (response !== 'timeout' && response !== 'failed' && response.op === 'close') await this.#options.pool.release(thread);
      else this.#options.pool.discard(thread);
    }
    this.#options.onDispose();
  }
}

function describe(response: { op: string; error?: unknown } | 'timeout'): string {
  if (response === 'timeout') return 'no reply';
  if (response.op !== 'failed') return `'${response.op}'`;
  return response.error instanceof Error ? response.error.message : String(response.error);
}
