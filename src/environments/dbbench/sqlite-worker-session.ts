import { InternalError } from '../../episode/index.js';
import type { SqlOutcome } from './backend.js';
import type { DbTable } from './dbbench-task.js';
import type { SqliteSession } from './sqlite-session.js';
import type { SqliteWorkerPool } from './sqlite-worker-pool.js';
import type { SqliteWorkerResponse } from './sqlite-worker.js';
import type { SqliteSessionState } from './sqlite-engine.js';
import { lostConnectionError, outOfMemoryError } from './sqlite-limits.js';
import { SqliteProcessGone, type SqliteWorkerProcess } from './sqlite-worker-process.js';
import { sqliteTableKey } from './sqlite-table-key.js';

/** How long past the timeout a process may take to cancel a statement itself before it is killed. */
export const KILL_GRACE_MS = 2_000;
/** How often a call is moved to another process after its process died under it before the call gives up. */
const MAX_MOVES = 3;

let nextSession = 1;

export interface SqliteWorkerSessionOptions {
  pool: SqliteWorkerPool;
  table: DbTable;
  databaseName: string;
  timeoutMs: number;
  onDispose: () => void;
  /** A database built elsewhere to start from instead of the task table (see `sqlite-bounded-session.ts`). */
  start?: { image: Uint8Array; state: SqliteSessionState };
}

/**
 * An episode database hosted by a pooled database process (`isolation: 'process'`), which may host other
 * episodes' databases too. The session borrows the process from `open()` to `dispose()`. When a statement
 * does not stop itself, or drives the process past its memory ceiling (its watchdog kills it), or the
 * process dies while running it, the database is reopened in another process from the snapshot taken
 * after the last change, so the statement has no effect, and the agent gets a timeout or a MySQL-style
 * error.
 *
 * The neighbours of such a statement lose their process too, through no fault of theirs. Each rebuilds
 * its database elsewhere from its own last snapshot and session state (user variables, ROW_COUNT(),
 * FOUND_ROWS()), which the process sends back after every statement, so what its next statement sees is
 * exactly what it would have seen; a call that was queued behind the killed statement was never run and
 * is sent again. Only the statement running in the process when it ended is ever charged for the kill.
 * If the rebuild fails, the call fails with an internal error (an infrastructure failure of the episode,
 * never a changed result).
 */
export class SqliteWorkerSession implements SqliteSession {
  setupError: string | null = null;
  readonly #options: SqliteWorkerSessionOptions;
  #proc: SqliteWorkerProcess | null = null;
  readonly #session = nextSession++;
  #image: Uint8Array | undefined;
  #state: SqliteSessionState | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #disposed = false;
  /** Whether a process was asked for yet: see {@link openRefused}. */
  #opened = false;

  constructor(options: SqliteWorkerSessionOptions) {
    this.#options = options;
    this.#image = options.start?.image;
    this.#state = options.start?.state;
  }

  /**
   * For a task table MySQL refuses to create (`setupError`, known from the table alone): the session
   * starts without a process, since its database would only be empty. The episode usually ends right
   * away; should a statement still come, the empty database is opened then, exactly as `open` would have.
   */
  openRefused(setupError: string): void {
    this.setupError = setupError;
  }

  /** Borrows a process and opens the episode database in it: the task table, or the last snapshot after a kill. */
  async open(moves = 0): Promise<void> {
    this.#opened = true;
    const { pool, table, databaseName } = this.#options;
    const tableKey = sqliteTableKey(table);
    const proc = await pool.acquire(tableKey);
    const image = { ...(this.#image ? { image: this.#image } : {}), ...(this.#state ? { state: this.#state } : {}) };
    const session = this.#session;
    let response;
    try {
      response = await proc.requestWithTable({ op: 'open', session, tableKey, databaseName, ...image }, table);
    } catch (error) {
      if (error instanceof SqliteProcessGone && !error.sent && moves < MAX_MOVES) {
        // A neighbour's statement ended the process before this open reached it: open elsewhere.
        await pool.release(proc);
        return this.open(moves + 1);
      }
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
        response = await proc.request({ op: 'execute', session: this.#session, sql, timeoutMs }, timeoutMs + KILL_GRACE_MS);
      } catch (error) {
        if (error instanceof SqliteProcessGone && !error.sent) return 'moved' as const;
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
      this.#state = response.state;
      return response.outcome;
    });
  }

  tableHash(): Promise<string | null> {
    return this.serial(async (proc) => {
      let response;
      try {
        response = await proc.request({ op: 'hash', session: this.#session });
      } catch (error) {
        if (error instanceof SqliteProcessGone && !error.sent) return 'moved' as const;
        throw error;
      }
      if (response === 'timeout' || response.op !== 'hash') throw new InternalError({ message: 'Unexpected SQLite process reply to tableHash.' });
      return response.hash;
    });
  }

  dispose(): Promise<void> {
    const run = this.#queue.then(() => this.close());
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /**
   * The episode need not wait for its database process's close reply: the session stays among the
   * backend's open sessions until the reply came, and the backend's `close()` disposes those, which
   * queues behind this one and so waits for it.
   */
  disposeInBackground(): void {
    this.dispose().catch(() => undefined);
  }

  /**
   * Runs calls one at a time: a timeout replaces the process, which must not happen under another call.
   * A process that a neighbour's statement ended (found dead, or a call answered `'moved'`: never sent)
   * is left for one rebuilt from this session's own snapshot, and the call runs there.
   */
  private serial<T>(task: (proc: SqliteWorkerProcess) => Promise<T | 'moved'>): Promise<T> {
    const run = this.#queue.then(async () => {
      for (let moves = 0; ; moves++) {
        if (this.#disposed) throw new InternalError({ message: 'DbSession used after dispose().' });
        if (!this.#opened) await this.open();
        if (!this.#proc) throw new InternalError({ message: 'The SQLite process hosting this episode database was lost.' });
        if (this.#proc.alive) {
          const result = await task(this.#proc);
          if (result !== 'moved') return result;
        }
        if (moves >= MAX_MOVES) throw new InternalError({ message: 'The SQLite processes hosting this episode database kept ending under it.' });
        await this.move();
      }
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Rebuilds the database in another process after a neighbour's statement ended this one's. */
  private async move(): Promise<void> {
    const gone = this.#proc!;
    this.#proc = null;
    await this.#options.pool.release(gone);
    await this.open();
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
      const response = proc.alive ? await proc.request({ op: 'close', session: this.#session }, KILL_GRACE_MS).catch(() => 'failed' as const) : 'failed';
      if (!proc.alive && response === 'failed') {
        // Ended by a neighbour's statement: nothing to close.
        await this.#options.pool.release(proc);
        this.#options.onDispose();
        return;
      }
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
