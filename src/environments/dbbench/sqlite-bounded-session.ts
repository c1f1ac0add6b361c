import { InternalError } from '../../episode/index.js';
import type { SqlOutcome } from './backend.js';
import type { DbTable } from './dbbench-task.js';
import { SqliteEngine, type SqliteSessionState } from './sqlite-engine.js';
import type { SqliteSession } from './sqlite-session.js';
import type { SqliteWorkerSession } from './sqlite-worker-session.js';

export interface BoundedFirstSessionOptions {
  table: DbTable;
  databaseName: string;
  maxDatabaseBytes: number;
  /** How long a bounded statement may run in this thread before it is stopped and sent to a process. */
  budgetMs: number;
  /** A database-process session that starts from the given database and session state. */
  toProcess: (start: { image: Uint8Array; state: SqliteSessionState }) => Promise<SqliteWorkerSession>;
  onDispose: () => void;
}

/**
 * An episode database of the default isolation that starts in the calling thread and moves to a database
 * process at the first statement that is not bounded (`mysql-compat/bounded-statement.ts`) or that does
 * not finish within `budgetMs` here; it stays there for the rest of the episode. A bounded statement's
 * work grows only with the rows it visits, and the per-row tick stops it at the budget (SQLite undoes it),
 * so at most `budgetMs` of this thread goes to any one statement, and a stopped statement runs again, from
 * the same database and session state, where nothing bounds it but the statement timeout. DDL, statements
 * passed through unparsed, SET, transactions, REGEXP, windows and the functions that can grow a value
 * without end never run here. Both places run the same engine on the same data, so every answer is the one
 * the process would have given: only the cost differs (no exchange with another process, about 1 ms a
 * statement after a model turn's idle gap on two cores; `bench/process-round-trip-bench.ts`).
 */
export class BoundedFirstSession implements SqliteSession {
  readonly setupError: string | null;
  readonly #options: BoundedFirstSessionOptions;
  #engine: SqliteEngine | null;
  #process: SqliteWorkerSession | null = null;
  #disposing: Promise<void> | null = null;

  constructor(options: BoundedFirstSessionOptions) {
    this.#options = options;
    this.#engine = new SqliteEngine(options.table, { databaseName: options.databaseName, maxDatabaseBytes: options.maxDatabaseBytes });
    this.setupError = this.#engine.setupError;
  }

  /** Where the database is: this thread, or a database process (after the first statement that was not bounded). */
  get where(): 'here' | 'process' {
    return this.#process ? 'process' : 'here';
  }

  async execute(sql: string): Promise<SqlOutcome> {
    if (this.#disposing) throw new InternalError({ message: 'DbSession used after dispose().' });
    if (this.#engine) {
      const outcome = this.#engine.executeBounded(sql, this.#options.budgetMs);
      if (outcome !== 'not-bounded') return outcome;
      await this.moveToProcess();
    }
    return this.#process!.execute(sql);
  }

  async tableHash(): Promise<string | null> {
    if (this.#disposing) throw new InternalError({ message: 'DbSession used after dispose().' });
    return this.#engine ? this.#engine.tableHash() : this.#process!.tableHash();
  }

  dispose(): Promise<void> {
    this.#disposing ??= this.close();
    return this.#disposing;
  }

  /**
   * Like `dispose`, but the database here is closed once the event loop is free (closing one costs a few
   * tenths of a millisecond that the ending episode need not wait for). The session refuses calls at once;
   * the backend's `close()` waits for the closing, as it does for a database process's reply.
   */
  disposeInBackground(): void {
    this.#disposing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.close());
    this.#disposing.catch(() => undefined);
  }

  private async moveToProcess(): Promise<void> {
    const engine = this.#engine!;
    const start = { image: new Uint8Array(engine.serialize()), state: engine.sessionState() };
    this.#process = await this.#options.toProcess(start);
    this.#engine = null;
    engine.close();
  }

  private async close(): Promise<void> {
    try {
      this.#engine?.close();
      this.#engine = null;
      await this.#process?.dispose();
    } finally {
      this.#options.onDispose();
    }
  }
}
