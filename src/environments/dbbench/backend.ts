import type { DbTable } from './dbbench-task.js';

/**
 * A value as the Python MySQL connector would hand it to AgentBench, so the result text can be rendered
 * exactly as `str(rows)` renders it: strings, ints, floats, Decimals, dates and NULL.
 */
export type PyValue =
  | null
  | string
  | { type: 'int'; value: string }
  | { type: 'float'; value: number }
  | { type: 'decimal'; value: string }
  | { type: 'date'; value: string }
  | { type: 'datetime'; value: string }
  | { type: 'timedelta'; value: string }
  | { type: 'bytes'; value: string };

/** What running one statement gave. `rows` is empty after DML. */
export type SqlOutcome =
  | { kind: 'rows'; rows: PyValue[][] }
  | { kind: 'error'; message: string }
  | { kind: 'timeout' };

/** One episode's private database, holding the task's table. */
export interface DbSession {
  /** Set when MySQL refuses (or would refuse) to create or fill the task's table, e.g. an empty or duplicate column name or a row with too few cells. */
  readonly setupError?: string | null;
  execute(sql: string): Promise<SqlOutcome>;
  /** The FC table hash over every table (sorted, `_`-joined), or null for an empty database. */
  tableHash(): Promise<string | null>;
  dispose(): Promise<void>;
  /**
   * Starts `dispose()` without the caller waiting for it, for sessions whose backend's `close()` waits
   * for it to finish (so nothing is lost). Absent: the caller awaits `dispose()`.
   */
  disposeInBackground?(): void;
}

/** A database engine that can open a fresh, isolated database per episode. */
/** One statement run on a fresh copy of a task table, and the table hash after it. */
export interface FreshStatementResult {
  /** Why the table could not be set up (then `outcome` and `hash` are null), as {@link DbSession.setupError}. */
  setupError: string | null;
  outcome: SqlOutcome | null;
  hash: string | null;
}

export interface DbBackend {
  readonly name: 'sqlite' | 'mariadb';
  openEpisode(table: DbTable, options?: { sqlTimeoutMs?: number }): Promise<DbSession>;
  /**
   * Optional shortcut for a gold replay: what opening an episode, running `sql`, hashing the table and
   * disposing would give, in one exchange with the database. Undefined when it did not go plainly (the
   * statement had to be stopped, the database ended): the caller then takes those steps one by one.
   */
  runOnFreshTable?(table: DbTable, sql: string, options?: { sqlTimeoutMs?: number }): Promise<FreshStatementResult | undefined>;
  close(): Promise<void>;
}
