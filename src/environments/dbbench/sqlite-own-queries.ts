import type Database from 'better-sqlite3';

import type { DbTable } from './dbbench-task.js';
import { mapSqliteError } from './mysql-compat/errors.js';
import { mysqlNumberText } from './mysql-compat/mysql-values.js';
import { quoteIdent } from './mysql-compat/sql-quote.js';
import type { SqliteValue } from './mysql-compat/to-py-value.js';
import { combineTableHashes, mysqlTableHash, type HashCell } from './table-hash.js';

/** The most rows, and the widest cell in UTF-8 bytes, a table may have for bounded statements to read it. */
export const BOUNDED_MAX_ROWS = 10_000;
export const BOUNDED_MAX_CELL_BYTES = 4_096;

/**
 * The queries an episode database asks about itself, never the agent's: its schema version, whether the
 * task table is within the bounds, row counts, the table hash and the change mark. Each runs through a
 * statement prepared once per connection (a prepare costs more than these reads, and some run after
 * every write). If a cached statement fails (its table was dropped or altered since), it is dropped and
 * the query runs as a fresh prepare, so a failure surfaces exactly as it would without the cache.
 */
export class OwnQueries {
  readonly #db: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();

  constructor(db: Database.Database) {
    this.#db = db;
  }

  /** `PRAGMA schema_version`: every agent statement reads it. */
  schemaVersion(): number {
    return this.#prepared('PRAGMA schema_version', (stmt) => stmt.pluck(), (stmt) => stmt.get() as number);
  }

  /** Whether `table` has at most BOUNDED_MAX_ROWS rows and no cell longer than BOUNDED_MAX_CELL_BYTES (false when it cannot be read). */
  tableWithinBounds(table: DbTable): boolean {
    const { name, columns } = table;
    if (columns.length === 0) return true;
    const lengths = columns.map((c) => `coalesce(length(CAST(${quoteIdent(c)} AS BLOB)), 0)`);
    const widest = lengths.length === 1 ? lengths[0]! : `max(${lengths.join(', ')})`;
    try {
      const [rows, cell] = this.#prepared(
        `SELECT count(*), coalesce(max(${widest}), 0) FROM ${quoteIdent(name)}`,
        (stmt) => stmt.raw(true),
        (stmt) => stmt.get() as [number, number],
      );
      return rows <= BOUNDED_MAX_ROWS && cell <= BOUNDED_MAX_CELL_BYTES;
    } catch {
      return false;
    }
  }

  /** The rows of table `name`, 0 when it cannot be read. */
  rowCount(name: string): number {
    try {
      return Number(this.#prepared(`SELECT count(*) FROM ${quoteIdent(name)}`, (stmt) => stmt.pluck(), (stmt) => stmt.get()));
    } catch {
      return 0;
    }
  }

  /**
   * The FC table hash of `table` over its original columns, or null when it is empty. If the table or one
   * of those columns no longer exists, MySQL's hash query fails; the error text is returned then, which
   * (as in FC) never matches a stored hash.
   */
  tableHash(table: DbTable, database: string): string | null {
    const { name, columns } = table;
    let rows: SqliteValue[][];
    try {
      rows = this.#prepared(
        `SELECT ${columns.map(quoteIdent).join(', ')} FROM ${quoteIdent(name)}`,
        (stmt) => stmt.raw(true).safeIntegers(true),
        (stmt) => stmt.all() as SqliteValue[][],
      );
    } catch (error) {
      return error instanceof Error ? mapSqliteError(error.message, '', database).message : String(error);
    }
    const cells = rows.map((row) =>
      row.map((v): HashCell => {
        if (v === null || typeof v === 'string') return v;
        if (typeof v === 'number' || typeof v === 'bigint') return mysqlNumberText(v);
        return v.toString('latin1');
      }),
    );
    return combineTableHashes([mysqlTableHash(cells)]);
  }

  /** A token that changes whenever rows or the schema change. */
  changeMark(): string {
    return `${String(this.#prepared('SELECT total_changes()', (stmt) => stmt.pluck(), (stmt) => stmt.get()))}/${String(this.schemaVersion())}`;
  }

  #prepared<T>(sql: string, shape: (stmt: Database.Statement) => Database.Statement, run: (stmt: Database.Statement) => T): T {
    const cached = this.#statements.get(sql);
    if (cached) {
      try {
        return run(cached);
      } catch {
        this.#statements.delete(sql);
      }
    }
    const stmt = shape(this.#db.prepare(sql));
    const result = run(stmt);
    this.#statements.set(sql, stmt);
    return result;
  }
}
