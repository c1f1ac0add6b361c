import Database from 'better-sqlite3';

import type { PyValue, SqlOutcome } from './backend.js';
import type { DbTable } from './dbbench-task.js';
import { loadedTableCatalog, readCatalog, type Catalog } from './mysql-compat/catalog.js';
import { mapSqliteError, MysqlError, mysqlErrors, syntaxError } from './mysql-compat/errors.js';
import { registerGroupConcat } from './mysql-compat/functions.js';
import { LazyMysqlFunctions } from './mysql-compat/lazy-functions.js';
import { answerIntrospection } from './mysql-compat/introspection.js';
import { isBoundedStatement, isWrite } from './mysql-compat/bounded-statement.js';
import { parseMysqlStatement, type ParseResult } from './mysql-compat/parse-statement.js';
import { rewriteStatement, rewriteValueQuery, type RewriteContext } from './mysql-compat/rewrite-sql.js';
import { quoteIdent } from './mysql-compat/sql-quote.js';
import type { SqlType } from './mysql-compat/sql-types.js';
import { storageToPy, toPyValue, type SqliteValue } from './mysql-compat/to-py-value.js';
import { tokenizeMysql, type Token } from './mysql-compat/tokenize.js';
import { transpileTokens } from './mysql-compat/transpile-tokens.js';
import type { SqlValue } from './mysql-compat/udf/sql-value.js';
import { pythonStr } from './python-repr.js';
import { DEFAULT_KNOWN_STATEMENTS, KnownStatements } from './sqlite-known-statements.js';
import { BOUNDED_MAX_CELL_BYTES, BOUNDED_MAX_ROWS, OwnQueries } from './sqlite-own-queries.js';

/** Options for one episode database. */
export interface SqliteEngineOptions {
  /** Name reported by `SELECT DATABASE()` and in error messages (MySQL's `db.table`). Default `dbbench`. */
  databaseName?: string;
  /** A `serialize()` image to start from instead of loading the task table (used after a timeout). */
  image?: Buffer;
  /** A `sessionState()` to start from with `image`, so a rebuilt database keeps the session's variables. */
  state?: SqliteSessionState;
  /**
   * Largest size of the main database and, separately, of the temp database (`max_page_count`); a
   * statement that would grow one past it fails as MySQL's `1114 The table '…' is full`. Default 64 MiB.
   */
  maxDatabaseBytes?: number;
  /** How many agent statements the engine keeps prepared for an exact repeat (see `sqlite-known-statements.ts`); 0 keeps none. Default 32. */
  knownStatements?: number;
}

const DEFAULT_MAX_DATABASE_BYTES = 64 * 1024 * 1024;

/**
 * What a session holds beside its database: user variables and the counters behind ROW_COUNT() and
 * FOUND_ROWS(). With the database image it is everything a later statement can observe.
 */
export interface SqliteSessionState {
  variables: [string, SqlValue][];
  lastChanges: number;
  lastRows: number;
}

/** Thrown by the per-row tick when the statement's deadline has passed. */
class StatementTimeout extends Error {
  constructor() {
    super('statement timed out');
  }
}

/** Thrown before anything runs when `executeBounded` is given a statement that is not bounded. */
class NotBounded extends Error {
  constructor() {
    super('statement not bounded');
  }
}

/** How large the task table may grow through bounded writes before `executeBounded` admits nothing more (the shipped tables: 105 rows, cells of 412 characters at most). */

/**
 * How often the tick reads the clock: every 256 rows normally, every row under `executeBounded`'s short budget
 * (one row of a crafted statement can carry megabytes of string work: every 16 rows let one hold the thread
 * for 77 ms, every row for 6 ms).
 */
const TICK_MASK = 255;
const BOUNDED_TICK_MASK = 0;

/** Why MySQL would refuse to create or fill the task table, or null when it can be loaded. */
export function tableDefinitionError(table: DbTable): MysqlError | null {
  if (table.name === '' || table.name.endsWith(' ')) return new MysqlError(1103, '42000', `Incorrect table name '${table.name}'`);
  if (Array.from(table.name).length > 64) return new MysqlError(1059, '42000', `Identifier name '${table.name}' is too long`);
  const seen = new Set<string>();
  for (const name of table.columns) {
    if (name === '' || name.endsWith(' ')) return new MysqlError(1166, '42000', `Incorrect column name '${name}'`);
    if (Array.from(name).length > 64) return new MysqlError(1059, '42000', `Identifier name '${name}' is too long`);
    if (seen.has(name.toLowerCase())) return new MysqlError(1060, '42S21', `Duplicate column name '${name}'`);
    seen.add(name.toLowerCase());
  }
  // The loader's one multi-row INSERT gives each row as many values as it has cells; MySQL refuses the
  // whole statement at the first row whose count differs from the column list.
  const short = table.rows.findIndex((row) => row.length !== table.columns.length);
  if (short >= 0 && table.columns.length > 0) return mysqlErrors.columnCount(short + 1);
  return null;
}

/**
 * A synchronous MySQL-flavoured SQLite database for one episode: the task table with every column TEXT
 * (cells inserted as the FC loader sends them, Python `str()`), statements rewritten by `mysql-compat/`,
 * results typed as the MySQL connector would type them, and the table hash of benchmarks.md §1.5.
 * Statements run to completion: see `sqlite-backend.ts` for how timeouts are enforced.
 */
export class SqliteEngine {
  readonly database: string;
  /** The MySQL error that made the task table impossible to create (MySQL would fail the same way), else null. */
  readonly setupError: string | null;
  private readonly db: Database.Database;
  private readonly table: DbTable;
  private readonly groupConcats = new Map<string, string>();
  private readonly variables = new Map<string, SqlValue>();
  /** Changes whenever a user variable is set, which invalidates every known statement (the rewrite inlines variables). */
  private variablesVersion = 0;
  private readonly knownStatements: KnownStatements;
  private catalogCache: { version: number; catalog: Catalog } | null = null;
  /** The engine's own queries about its database (schema version, bounds, row counts, the table hash). */
  private readonly own: OwnQueries;
  /** The `mysql_*` functions, defined on this connection as statements first name them. */
  private readonly functions: LazyMysqlFunctions;
  private lastChanges = 0;
  private lastRows = 0;
  private deadline = Number.POSITIVE_INFINITY;
  private ticks = 0;
  private tickMask = TICK_MASK;
  /** Whether the table is larger than bounded statements may read: checked at the first bounded call, then after each bounded write. */
  private outgrown: boolean | undefined;

  constructor(table: DbTable, options: SqliteEngineOptions = {}) {
    this.table = table;
    this.database = options.databaseName ?? 'dbbench';
    this.knownStatements = new KnownStatements(options.knownStatements ?? DEFAULT_KNOWN_STATEMENTS);
    this.db = options.image ? new Database(options.image) : new Database(':memory:');
    this.own = new OwnQueries(this.db);
    this.limitStorage(options.maxDatabaseBytes ?? DEFAULT_MAX_DATABASE_BYTES);
    if (options.state) {
      for (const [name, value] of options.state.variables) this.variables.set(name, value);
      this.lastChanges = options.state.lastChanges;
      this.lastRows = options.state.lastRows;
    }
    this.functions = new LazyMysqlFunctions(this.db, {
      database: this.database,
      connectionId: 8,
      rowCount: () => this.lastChanges,
      foundRows: () => this.lastRows,
      tick: () => {
        this.ticks += 1;
        if ((this.ticks & this.tickMask) === 0 && performance.now() > this.deadline) throw new StatementTimeout();
      },
    });
    // A database rebuilt from an image may hold views, triggers or indices that use functions no statement here names.
    if (options.image) this.functions.defineAll();
    const problem = tableDefinitionError(table);
    this.setupError = problem ? problem.message : null;
    if (!options.image && !problem) {
      try {
        this.loadTable();
      } catch (error) {
        this.db.close();
        throw error;
      }
    }
  }

  /**
   * Caps the database size so a statement that would grow it without end (`CREATE TABLE … AS` an endless
   * recursive CTE) fails inside SQLite instead of eating the host's memory. Temporary tables, indices and
   * sorts stay in memory (never on disk), where the database process's memory ceiling covers them.
   */
  private limitStorage(maxBytes: number): void {
    this.db.pragma('temp_store = MEMORY');
    for (const schema of ['main', 'temp']) {
      const pageSize = this.db.pragma(`${schema}.page_size`, { simple: true }) as number;
      this.db.pragma(`${schema}.max_page_count = ${Math.max(1, Math.floor(maxBytes / pageSize))}`);
    }
  }

  private loadTable(): void {
    const { name, columns, rows } = this.table;
    this.db.exec(`CREATE TABLE ${quoteIdent(name)} (${columns.map((c) => `${quoteIdent(c)} TEXT COLLATE NOCASE`).join(', ')})`);
    if (columns.length === 0) return;
    const insert = this.db.prepare(`INSERT INTO ${quoteIdent(name)} VALUES (${columns.map(() => '?').join(', ')})`);
    let widest = 0;
    this.db.transaction(() => {
      for (const row of rows) {
        const cells = row.map((cell) => pythonStr(cell));
        for (const cell of cells) widest = Math.max(widest, Buffer.byteLength(cell, 'utf8'));
        insert.run(cells);
      }
    })();
    // What the first statement would otherwise ask SQLite for: the bounds (a scan of the table) and the
    // catalog (two prepared reads). Both follow from what was just inserted; a test holds them equal to the reads.
    this.outgrown = !(rows.length <= BOUNDED_MAX_ROWS && widest <= BOUNDED_MAX_CELL_BYTES);
    this.catalogCache = { version: this.schemaVersion(), catalog: loadedTableCatalog(this.database, name, columns) };
  }

  private schemaVersion(): number {
    return this.own.schemaVersion();
  }

  private catalog(): Catalog {
    const version = this.schemaVersion();
    if (!this.catalogCache || this.catalogCache.version !== version) {
      this.catalogCache = { version, catalog: readCatalog(this.db, this.database) };
    }
    return this.catalogCache.catalog;
  }

  private rewriteContext(catalog: Catalog): RewriteContext {
    return {
      catalog,
      groupConcat: (separator) => registerGroupConcat(this.db, this.groupConcats, separator),
      variables: this.variables,
    };
  }

  /**
   * Runs one agent statement with MySQL semantics. Never throws for SQL problems: they come back as errors.
   * With `timeoutMs`, a statement still running after that long is cancelled (its changes are undone) and
   * reported as a timeout; the check happens once per candidate row, so it covers scans, joins and
   * recursive CTEs but not a single long call into a function.
   */
  execute(sql: string, timeoutMs?: number): SqlOutcome {
    return this.attempt(sql, timeoutMs, undefined);
  }

  /**
   * Runs a statement only if it is bounded (`mysql-compat/bounded-statement.ts`) and finishes within
   * `budgetMs`; otherwise returns `'not-bounded'` having changed nothing (a statement stopped at the budget
   * is undone by SQLite, and a bounded statement sets no variable). Whatever it returns otherwise is what
   * `execute` would have returned for the statement. While the task table (as loaded, or once a write has
   * left it so) has more than
   * {@link BOUNDED_MAX_ROWS} rows or a cell of more than {@link BOUNDED_MAX_CELL_BYTES} bytes, every
   * statement is `'not-bounded'`: the values a bounded statement computes grow with the cells it reads.
   */
  executeBounded(sql: string, budgetMs: number): SqlOutcome | 'not-bounded' {
    this.outgrown ??= !this.own.tableWithinBounds(this.table);
    if (this.outgrown) return 'not-bounded';
    this.tickMask = BOUNDED_TICK_MASK;
    let wrote = false;
    const admit = (parsed: ParseResult): boolean => {
      wrote = isWrite(parsed);
      return isBoundedStatement(parsed);
    };
    try {
      const outcome = this.attempt(sql, budgetMs, admit);
      if (outcome.kind === 'timeout') return 'not-bounded';
      // A write may have grown the table past what bounded statements may read here: later ones go elsewhere.
      if (wrote && !this.own.tableWithinBounds(this.table)) this.outgrown = true;
      return outcome;
    } catch (error) {
      if (error instanceof NotBounded) return 'not-bounded';
      throw error;
    } finally {
      this.tickMask = TICK_MASK;
    }
  }

  private attempt(sql: string, timeoutMs: number | undefined, admit: ((parsed: ParseResult) => boolean) | undefined): SqlOutcome {
    this.deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : performance.now() + timeoutMs;
    try {
      return { kind: 'rows', rows: this.run(sql, admit) };
    } catch (error) {
      if (error instanceof NotBounded) throw error;
      // A stack this thread cannot give (deep nesting) may be there in a database process: let it try.
      if (admit && error instanceof RangeError) throw new NotBounded();
      if (error instanceof StatementTimeout) return { kind: 'timeout' };
      if (error instanceof MysqlError) return { kind: 'error', message: error.message };
      if (error instanceof Error) return { kind: 'error', message: mapSqliteError(error.message, sql, this.database).message };
      throw error;
    } finally {
      this.deadline = Number.POSITIVE_INFINITY;
    }
  }

  private run(sql: string, admit?: (parsed: ParseResult) => boolean): PyValue[][] {
    const known = this.knownStatements.find(sql, this.schemaVersion(), this.variablesVersion);
    if (known) {
      if (admit && !admit(known.parsed)) throw new NotBounded();
      try {
        return this.runPrepared(known.stmt, sql, known.columnTypes);
      } catch (error) {
        // Only statements that ran through are kept: the next repeat takes the whole way again.
        this.knownStatements.delete(sql);
        throw error;
      }
    }
    const lexed = tokenizeMysql(sql);
    if (!Array.isArray(lexed)) throw syntaxError(sql, lexed.at);
    const tokens = lexed;
    if (tokens.every((t) => t.kind === 'eof' || (t.kind === 'op' && t.value === ';'))) throw new MysqlError(1065, '42000', 'Query was empty');
    const parsed = parseMysqlStatement(tokens, sql);
    if (admit && !admit(parsed)) throw new NotBounded();
    switch (parsed.kind) {
      case 'syntax-error':
        throw syntaxError(sql, parsed.at);
      case 'ddl':
        return this.runRaw(this.singleStatement(tokens, sql), sql, null);
      case 'unsupported':
        try {
          return this.runRaw(this.singleStatement(tokens, sql), sql, null);
        } catch (error) {
          if (error instanceof Error && /syntax error|incomplete input/.test(error.message)) throw syntaxError(sql, parsed.at);
          throw error;
        }
      case 'statement':
        break;
    }
    const statement = parsed.statement;
    const catalog = this.catalog();
    const introspected = answerIntrospection(statement, catalog, (name) => this.own.rowCount(name));
    if (introspected) return introspected;
    if (statement.kind === 'set-variables') {
      for (const a of statement.assignments) {
        if (a.system) continue;
        const stmt = this.prepareStatement(rewriteValueQuery(a.value, this.rewriteContext(catalog))).raw(true).safeIntegers(true);
        const row = stmt.get() as SqliteValue[] | undefined;
        this.variables.set(a.name.toLowerCase(), (row?.[0] ?? null) as SqlValue);
        this.variablesVersion += 1;
      }
      return [];
    }
    const rewritten = rewriteStatement(statement, this.rewriteContext(catalog));
    if (rewritten.kind === 'explain') {
      return rewritten.tables.map((name, i) => [
        { type: 'int', value: String(i + 1) },
        'SIMPLE',
        name,
        null,
        'ALL',
        null,
        null,
        null,
        null,
        { type: 'int', value: String(catalog.tables.has(name) ? this.own.rowCount(name) : 1) },
        { type: 'float', value: 100 },
        null,
      ]);
    }
    const schemaVersion = this.catalogCache!.version;
    const stmt = this.prepareOrMap(rewritten.sql, sql);
    const rows = this.runPrepared(stmt, sql, rewritten.columnTypes);
    this.knownStatements.keep(sql, { parsed, schemaVersion, variablesVersion: this.variablesVersion, stmt, columnTypes: rewritten.columnTypes });
    return rows;
  }

  /** Rejects a second statement in token-level passthrough (DDL), as MySQL without multi-statements does. */
  private singleStatement(tokens: readonly Token[], sql: string): string {
    const semicolon = tokens.findIndex((t) => t.kind === 'op' && t.value === ';');
    if (semicolon >= 0) {
      const rest = tokens.slice(semicolon + 1).filter((t) => !(t.kind === 'op' && t.value === ';'));
      if (rest.length > 1) throw syntaxError(sql, rest[0]!.start);
      return transpileTokens(tokens.slice(0, semicolon));
    }
    return transpileTokens(tokens);
  }

  /**
   * Prepares SQL that the rewriter or the agent wrote, after defining the functions it names. A function it
   * reaches without naming it shows as "no such function" here, before anything ran: then every function is
   * defined and the statement prepared once more, so the outcome is the one with all functions defined.
   */
  private prepareStatement(sql: string): Database.Statement {
    this.functions.defineNamedIn(sql);
    try {
      return this.db.prepare(sql);
    } catch (error) {
      if (error instanceof Error && /no such function/i.test(error.message) && this.functions.defineAll()) return this.db.prepare(sql);
      throw error;
    }
  }

  private runRaw(sqliteSql: string, original: string, columnTypes: SqlType[] | null): PyValue[][] {
    return this.runPrepared(this.prepareOrMap(sqliteSql, original), original, columnTypes);
  }

  /** Prepares SQL for an agent statement; a failure is the MySQL error the agent sees. */
  private prepareOrMap(sqliteSql: string, original: string): Database.Statement {
    try {
      return this.prepareStatement(sqliteSql);
    } catch (error) {
      throw error instanceof Error ? mapSqliteError(error.message, original, this.database) : error;
    }
  }

  private runPrepared(stmt: Database.Statement, original: string, columnTypes: SqlType[] | null): PyValue[][] {
    try {
      if (!stmt.reader) {
        const info = stmt.run();
        this.lastChanges = info.changes;
        return [];
      }
      stmt.raw(true);
      stmt.safeIntegers(true);
      const rows = stmt.all() as SqliteValue[][];
      this.lastRows = rows.length;
      this.lastChanges = -1;
      const types = columnTypes && rows[0] && rows[0].length === columnTypes.length ? columnTypes : null;
      return rows.map((row) => row.map((value, i) => (types ? toPyValue(value, types[i]!) : storageToPy(value))));
    } catch (error) {
      if (error instanceof StatementTimeout || !(error instanceof Error)) throw error;
      throw mapSqliteError(error.message, original, this.database);
    }
  }

  /**
   * The FC table hash of the task table over its original columns, or null when it is empty (the error
   * text when the table or one of those columns no longer exists; see {@link OwnQueries.tableHash}).
   */
  tableHash(): string | null {
    return this.own.tableHash(this.table, this.database);
  }

  /** The whole database as bytes, to rebuild it elsewhere (`options.image`). */
  serialize(): Buffer {
    return this.db.serialize();
  }

  /** The session's state beside the database (see {@link SqliteSessionState}). */
  sessionState(): SqliteSessionState {
    return { variables: [...this.variables], lastChanges: this.lastChanges, lastRows: this.lastRows };
  }

  /** A token that changes whenever rows or the schema change; lets a caller notice that a statement modified the database. */
  changeMark(): string {
    return this.own.changeMark();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
