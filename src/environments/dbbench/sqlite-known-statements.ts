import type Database from 'better-sqlite3';

import type { ParseResult } from './mysql-compat/parse-statement.js';
import type { SqlType } from './mysql-compat/sql-types.js';

/** How many agent statements an engine keeps by default. */
export const DEFAULT_KNOWN_STATEMENTS = 32;

/**
 * An agent statement already tokenized, parsed, rewritten and prepared, kept for an exact repeat of its
 * text (agents repeat statements often: under the simulated target, two of three DBBench dev statements
 * repeat one their episode sent before). The rewrite depends only on the text, the catalog (the schema
 * version) and the user variables it inlines, so a repeat under the same schema version and variables
 * gives the same SQLite statement; it still runs, and what it returns or fails with is the same.
 */
export interface KnownStatement {
  parsed: ParseResult;
  schemaVersion: number;
  variablesVersion: number;
  stmt: Database.Statement;
  columnTypes: SqlType[] | null;
}

/** One engine's known statements by text, least recently used first, at most `limit` of them (0 keeps none). */
export class KnownStatements extends Map<string, KnownStatement> {
  constructor(private readonly limit: number) {
    super();
  }

  /** The statement kept for `sql` if it is still valid under this schema version and these variables; it becomes the most recent. */
  find(sql: string, schemaVersion: number, variablesVersion: number): KnownStatement | undefined {
    const known = this.get(sql);
    if (!known || known.schemaVersion !== schemaVersion || known.variablesVersion !== variablesVersion) return undefined;
    this.keep(sql, known);
    return known;
  }

  /** Keeps `known` for `sql` as the most recent, dropping the least recent past the limit. */
  keep(sql: string, known: KnownStatement): void {
    if (this.limit <= 0) return;
    this.delete(sql);
    this.set(sql, known);
    if (this.size > this.limit) this.delete(this.keys().next().value!);
  }
}
