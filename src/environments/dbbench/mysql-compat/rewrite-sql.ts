import type { Assignment, CastTarget, Expr, OrderItem, Query, SelectCore, SetBody, Statement, TableRef, WindowSpec } from './ast.js';
import type { Catalog, CatalogColumn } from './catalog.js';
import { MysqlError, mysqlErrors } from './errors.js';
import { FUNCTIONS, WINDOW_AGGREGATES } from './functions.js';
import { decimalText, literalScale, mysqlDoubleText } from './mysql-values.js';
import { aggregateTypes, arithmeticType, DATE, DATETIME, decimal, DOUBLE, INT, isExact, NULL_TYPE, scaleOf, STRING, TIME, UNKNOWN, type SqlType } from './sql-types.js';
import type { SqlValue } from './udf-impl.js';

/**
 * Turns a parsed MySQL statement into SQLite SQL with MySQL semantics: comparisons, LIKE and IN go through
 * the collation-aware `mysql_*` functions, text is compared with numbers numerically, functions are mapped
 * to MySQL implementations, names are resolved with MySQL's error messages, and every result column gets
 * the MySQL type the connector would report.
 *
 * Known gaps (the statement still runs, or fails with a MySQL-shaped error):
 * - sql_mode is effectively `''`: no ONLY_FULL_GROUP_BY (1055/1140) and no strict-mode errors (1292/1366),
 *   so `SELECT name, MAX(x) FROM t` runs and takes the bare column from an arbitrary row;
 * - the collation is an approximation of utf8mb4_0900_ai_ci (see `mysql-values.ts`); GROUP BY, DISTINCT and
 *   UNION de-duplication use SQLite's NOCASE on the task table (ASCII case only), binary on agent tables;
 * - multi-table UPDATE/DELETE, WITH ROLLUP, LATERAL, MATCH … AGAINST, SOUNDS LIKE, JSON functions,
 *   `SELECT … INTO`, placeholders and `VALUES`/`TABLE` statements are not modelled;
 * - DDL is passed through token by token (MODIFY/CHANGE COLUMN are not supported by SQLite);
 * - integer overflow gives a double instead of error 1690, DECIMAL arithmetic runs in doubles and is only
 *   rounded to its scale for display, NOW()/CURDATE() are UTC;
 * - information_schema has TABLES, COLUMNS and SCHEMATA for the episode database only.
 */

export interface RewriteContext {
  catalog: Catalog;
  /** The UDF implementing GROUP_CONCAT with this separator (registered on demand). */
  groupConcat: (separator: string) => string;
  /** User variables set with `SET @x = …` (lower-case names). */
  variables: Map<string, SqlValue>;
}

export type Rewrite =
  | { kind: 'sql'; sql: string; columnTypes: SqlType[] | null; mutates: boolean }
  | { kind: 'explain'; tables: string[] };

interface Emitted {
  sql: string;
  type: SqlType;
  binary?: boolean;
}

interface OutColumn {
  name: string;
  type: SqlType;
}

interface Source {
  qualifier: string;
  columns: OutColumn[];
  coalesced: Set<string>;
}

interface CteInfo {
  columns: OutColumn[];
}

class Scope {
  readonly sources: Source[] = [];
  readonly aliases = new Map<string, { name: string; sql: string; type: SqlType }>();
  itemCount = 0;
  constructor(
    readonly parent: Scope | null,
    readonly ctes: Map<string, CteInfo>,
  ) {}
}

interface QueryOptions {
  /** Name unaliased expression columns after their source text, as MySQL does (derived tables, CTEs, subqueries). */
  aliasItems: boolean;
  /** Alias the leftmost select's items `_c1`, `_c2`, … (INSERT … SELECT). */
  positionalAliases?: boolean;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function quoteString(value: string): string {
  const body = `'${value.replace(/'/g, "''")}'`;
  return value.includes('\u0000') ? `(${value.split('\u0000').map((p) => `'${p.replace(/'/g, "''")}'`).join(' || char(0) || ')})` : body;
}

const TIME_SPECIFIERS = /%[HhIiklrSsTfp]/;
const DAY_UNITS = new Set(['DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR', 'YEAR_MONTH']);
const SQLITE_ONLY_FUNCTIONS = new Set([
  'JULIANDAY', 'STRFTIME', 'PRINTF', 'TOTAL', 'TYPEOF', 'UNICODE', 'ZEROBLOB', 'RANDOMBLOB', 'LIKELIHOOD', 'LIKELY',
  'UNLIKELY', 'IIF', 'GLOB', 'SQLITE_VERSION', 'CHANGES', 'TOTAL_CHANGES', 'LAST_INSERT_ROWID', 'UNIXEPOCH',
]);

class Rewriter {
  private clause = 'field list';
  private counter = 0;

  constructor(private readonly ctx: RewriteContext) {}

  private get database(): string {
    return this.ctx.catalog.database;
  }

  private fresh(prefix: string): string {
    this.counter += 1;
    return `${prefix}${this.counter}`;
  }

  private withClause<T>(clause: string, fn: () => T): T {
    const saved = this.clause;
    this.clause = clause;
    try {
      return fn();
    } finally {
      this.clause = saved;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Statements

  statement(s: Statement): Rewrite {
    switch (s.kind) {
      case 'query': {
        const out = this.query(s.query, null, new Map(), { aliasItems: false });
        return { kind: 'sql', sql: out.sql, columnTypes: out.columns.map((c) => c.type), mutates: false };
      }
      case 'insert':
        return { kind: 'sql', sql: this.insert(s), columnTypes: null, mutates: true };
      case 'update':
        return { kind: 'sql', sql: this.update(s), columnTypes: null, mutates: true };
      case 'delete':
        return { kind: 'sql', sql: this.delete(s), columnTypes: null, mutates: true };
      case 'explain':
        // Rewriting the inner statement checks its names, as EXPLAIN does; it is not run.
        this.statement(s.statement);
        return { kind: 'explain', tables: collectTables(s.statement) };
      default:
        throw new MysqlError(1064, '42000', `cannot rewrite ${s.kind}`);
    }
  }

  private table(name: string): { name: string; columns: CatalogColumn[] } {
    const t = this.ctx.catalog.tables.get(name);
    if (!t) throw mysqlErrors.noSuchTable(this.database, name);
    return t;
  }

  private storeValue(e: Emitted, column: CatalogColumn | undefined, source: Expr): string {
    if (!column || !column.textual) return e.sql;
    const literal = numericLiteralText(source);
    if (literal !== null) return quoteString(literal);
    switch (e.type.t) {
      case 'string':
      case 'null':
      case 'int':
      case 'date':
      case 'datetime':
      case 'time':
        return e.sql;
      case 'decimal':
        return `mysql_text_dec(${e.sql}, ${e.type.scale})`;
      default:
        return `mysql_text(${e.sql})`;
    }
  }

  private targetColumns(tableName: string, requested: { name: string }[] | undefined): CatalogColumn[] {
    const table = this.table(tableName);
    if (!requested) return table.columns;
    const seen = new Set<string>();
    return requested.map((r) => {
      const col = table.columns.find((c) => c.name.toLowerCase() === r.name.toLowerCase());
      if (!col) throw mysqlErrors.unknownColumn(r.name, 'field list');
      if (seen.has(col.name.toLowerCase())) throw mysqlErrors.columnTwice(col.name);
      seen.add(col.name.toLowerCase());
      return col;
    });
  }

  private insert(s: Extract<Statement, { kind: 'insert' }>): string {
    const verb = s.replace ? 'REPLACE INTO' : s.ignore ? 'INSERT OR IGNORE INTO' : 'INSERT INTO';
    const head = `${verb} ${quoteIdent(s.table.name)}`;
    const scope = new Scope(null, new Map());
    if (s.source.kind === 'query') {
      const columns = this.targetColumns(s.table.name, s.columns);
      // Name the SELECT's columns _c1, _c2, … so each can be converted to the text MySQL would store.
      const positional = !firstCore(s.source.query.body).items.some((i) => i.expr.kind === 'star');
      const inner = this.query(s.source.query, null, new Map(), { aliasItems: true, positionalAliases: positional });
      if (inner.columns.length !== columns.length) throw mysqlErrors.columnCount(1);
      const values = inner.columns.map((c, i) => {
        const ref: Emitted = { sql: `"_i".${quoteIdent(`_c${i + 1}`)}`, type: c.type };
        return this.storeValue(ref, columns[i], { kind: 'default', span: { start: 0, end: 0 } });
      });
      const select = positional ? `SELECT ${values.join(', ')} FROM (${inner.sql}) AS "_i"` : inner.sql;
      return `${head} (${columns.map((c) => quoteIdent(c.name)).join(', ')}) ${select}`;
    }
    let columns: CatalogColumn[];
    let rows: Expr[][];
    if (s.source.kind === 'set') {
      columns = this.targetColumns(
        s.table.name,
        s.source.assignments.map((a) => a.column),
      );
      rows = [s.source.assignments.map((a) => a.value)];
    } else {
      columns = this.targetColumns(s.table.name, s.columns);
      rows = s.source.rows;
    }
    const emittedRows = rows.map((row, i) => {
      if (row.length !== columns.length) throw mysqlErrors.columnCount(i + 1);
      return `(${row
        .map((value, j) => {
          if (value.kind === 'default') return this.defaultValue(columns[j]!);
          const e = this.withClause('field list', () => this.expr(value, scope));
          return this.storeValue(e, columns[j], value);
        })
        .join(', ')})`;
    });
    if (columns.length === 0) return `${head} DEFAULT VALUES`;
    return `${head} (${columns.map((c) => quoteIdent(c.name)).join(', ')}) VALUES ${emittedRows.join(', ')}`;
  }

  private defaultValue(column: CatalogColumn): string {
    return column.defaultValue === null ? 'NULL' : quoteString(column.defaultValue);
  }

  private rejectSelfReference(target: string, exprs: (Expr | undefined)[]): void {
    for (const e of exprs) {
      if (e && subqueryTables(e).has(target)) {
        throw new MysqlError(1093, 'HY000', `You can't specify target table '${target}' for update in FROM clause`);
      }
    }
  }

  private update(s: Extract<Statement, { kind: 'update' }>): string {
    const ref = s.table;
    if (ref.kind !== 'table') throw mysqlErrors.unsupported('multi-table UPDATE');
    const table = this.table(ref.name);
    const scope = new Scope(null, new Map());
    const qualifier = ref.alias ?? ref.name;
    scope.sources.push({ qualifier, columns: table.columns.map((c) => ({ name: c.name, type: c.type })), coalesced: new Set() });
    this.rejectSelfReference(ref.name, [...s.assignments.map((a) => a.value), s.where]);
    const assigned = new Map<string, Expr>();
    const sets = s.assignments.map((a: Assignment) => {
      const col = table.columns.find((c) => c.name.toLowerCase() === a.column.name.toLowerCase());
      if (!col || (a.column.table !== undefined && a.column.table !== qualifier)) {
        throw mysqlErrors.unknownColumn(a.column.table ? `${a.column.table}.${a.column.name}` : a.column.name, 'field list');
      }
      // MySQL evaluates single-table SET items left to right, so later items see earlier new values.
      const value = substituteColumns(a.value, assigned, qualifier);
      const sql =
        value.kind === 'default' ? this.defaultValue(col) : this.storeValue(this.withClause('field list', () => this.expr(value, scope)), col, value);
      assigned.set(col.name.toLowerCase(), value);
      return `${quoteIdent(col.name)} = ${sql}`;
    });
    let sql = `UPDATE ${quoteIdent(ref.name)}${ref.alias ? ` AS ${quoteIdent(ref.alias)}` : ''} SET ${sets.join(', ')}`;
    const tick = tickCall(scope.sources);
    sql += s.where ? ` WHERE ${tick} AND (${this.withClause('where clause', () => this.expr(s.where!, scope).sql)})` : ` WHERE ${tick}`;
    sql += this.dmlOrderLimit(s.orderBy, s.limit, scope);
    return sql;
  }

  private delete(s: Extract<Statement, { kind: 'delete' }>): string {
    const table = this.table(s.table.name);
    const scope = new Scope(null, new Map());
    scope.sources.push({ qualifier: s.table.alias ?? s.table.name, columns: table.columns.map((c) => ({ name: c.name, type: c.type })), coalesced: new Set() });
    this.rejectSelfReference(s.table.name, [s.where]);
    let sql = `DELETE FROM ${quoteIdent(s.table.name)}${s.table.alias ? ` AS ${quoteIdent(s.table.alias)}` : ''}`;
    const tick = tickCall(scope.sources);
    sql += s.where ? ` WHERE ${tick} AND (${this.withClause('where clause', () => this.expr(s.where!, scope).sql)})` : ` WHERE ${tick}`;
    sql += this.dmlOrderLimit(s.orderBy, s.limit, scope);
    return sql;
  }

  private dmlOrderLimit(orderBy: OrderItem[], limit: Expr | undefined, scope: Scope): string {
    let sql = '';
    if (orderBy.length > 0) sql += ` ORDER BY ${this.orderList(orderBy, scope, false)}`;
    if (limit) sql += ` LIMIT ${this.expr(limit, scope).sql}`;
    return sql;
  }

  // -------------------------------------------------------------------------------------------
  // Queries

  private query(q: Query, parent: Scope | null, ctes: Map<string, CteInfo>, opts: QueryOptions): { sql: string; columns: OutColumn[] } {
    let visible = ctes;
    let prefix = '';
    if (q.with) {
      visible = new Map(ctes);
      const parts: string[] = [];
      for (const cte of q.with.ctes) {
        if (q.with.recursive) {
          const names = cte.columns ?? firstCoreNames(cte.query.body);
          visible.set(cte.name, { columns: names.map((name) => ({ name, type: UNKNOWN })) });
        }
        const inner = this.query(cte.query, parent, visible, { aliasItems: true });
        if (cte.columns && cte.columns.length !== inner.columns.length) {
          throw new MysqlError(1353, 'HY000', `In definition of view, derived table or common table expression, SELECT list and column names list have different column counts`);
        }
        const columns = cte.columns ? cte.columns.map((name, i) => ({ name, type: inner.columns[i]?.type ?? UNKNOWN })) : inner.columns;
        visible.set(cte.name, { columns });
        parts.push(`${quoteIdent(cte.name)}${cte.columns ? `(${cte.columns.map(quoteIdent).join(', ')})` : ''} AS (${inner.sql})`);
      }
      prefix = `WITH ${q.with.recursive ? 'RECURSIVE ' : ''}${parts.join(', ')} `;
    }
    const body = this.setBody(q.body, parent, visible, opts, true);
    let sql = prefix + body.sql;
    if (q.orderBy.length > 0) {
      sql += ` ORDER BY ${q.orderBy.map((o) => `${this.compoundOrderTerm(o.expr, body.columns)}${o.desc ? ' DESC' : ''}`).join(', ')}`;
    }
    if (q.limit) sql += this.limit(q.limit);
    return { sql, columns: body.columns };
  }

  private limit(limit: { count: Expr; offset?: Expr }): string {
    const count = limit.count.kind === 'literal' ? limit.count.value : '0';
    const offset = limit.offset?.kind === 'literal' ? ` OFFSET ${limit.offset.value}` : '';
    return ` LIMIT ${count}${offset}`;
  }

  private compoundOrderTerm(e: Expr, columns: OutColumn[]): string {
    if (e.kind === 'literal' && e.type === 'int') {
      const n = Number(e.value);
      if (n < 1 || n > columns.length) throw mysqlErrors.unknownColumn(e.value, 'order clause');
      return e.value;
    }
    if (e.kind === 'column' && e.table === undefined) {
      const col = columns.find((c) => c.name.toLowerCase() === e.name.toLowerCase());
      if (!col) throw mysqlErrors.unknownColumn(e.name, 'order clause');
      return quoteIdent(col.name);
    }
    throw new MysqlError(1221, 'HY000', 'Incorrect usage of UNION and ORDER BY');
  }

  private setBody(body: SetBody, parent: Scope | null, ctes: Map<string, CteInfo>, opts: QueryOptions, leftmost: boolean): { sql: string; columns: OutColumn[] } {
    if (body.kind === 'select') return this.selectCore(body, parent, ctes, { ...opts, positionalAliases: opts.positionalAliases === true && leftmost });
    if (body.kind === 'paren') {
      const inner = body.query;
      if (!inner.with && inner.orderBy.length === 0 && !inner.limit && (inner.body.kind !== 'select' || (inner.body.orderBy.length === 0 && !inner.body.limit))) {
        return this.setBody(inner.body, parent, ctes, opts, leftmost);
      }
      const out = this.query(inner, parent, ctes, { aliasItems: true });
      return { sql: `SELECT * FROM (${out.sql}) AS ${quoteIdent(this.fresh('_u'))}`, columns: out.columns };
    }
    const left = this.setBody(body.left, parent, ctes, opts, leftmost);
    const right = this.setBody(body.right, parent, ctes, { ...opts, positionalAliases: false }, false);
    if (left.columns.length !== right.columns.length) {
      throw new MysqlError(1222, '21000', 'The used SELECT statements have a different number of columns');
    }
    const columns = left.columns.map((c, i) => ({ name: c.name, type: aggregateTypes([c.type, right.columns[i]!.type]) }));
    return { sql: `${left.sql} ${body.op} ${right.sql}`, columns };
  }

  private selectCore(core: SelectCore, parent: Scope | null, ctes: Map<string, CteInfo>, opts: QueryOptions): { sql: string; columns: OutColumn[] } {
    const scope = new Scope(parent, ctes);
    const from = this.withClause('on clause', () => core.from.map((ref) => this.tableRef(ref, scope)));
    if (core.rollup) throw mysqlErrors.unsupported('WITH ROLLUP in this emulation');
    const columns: OutColumn[] = [];
    const items = this.withClause('field list', () =>
      core.items.map((item, index) => {
        if (item.expr.kind === 'star') {
          const star = item.expr;
          const sources = star.table === undefined ? scope.sources : scope.sources.filter((s) => s.qualifier === star.table);
          if (star.table !== undefined && sources.length === 0) throw mysqlErrors.unknownTable(star.table, 'field list');
          if (star.table === undefined && sources.length === 0) throw new MysqlError(1096, 'HY000', 'No tables used');
          for (const s of sources) columns.push(...s.columns);
          return star.table === undefined ? '*' : `${quoteIdent(star.table)}.*`;
        }
        const e = this.expr(item.expr, scope);
        const natural = item.expr.kind === 'column' ? item.expr.name : item.text;
        const name = opts.positionalAliases ? `_c${index + 1}` : (item.alias ?? natural);
        columns.push({ name: item.alias ?? natural, type: e.type });
        if (item.alias !== undefined) scope.aliases.set(item.alias.toLowerCase(), { name: item.alias, sql: e.sql, type: e.type });
        const needsAlias = opts.positionalAliases || item.alias !== undefined || (opts.aliasItems && item.expr.kind !== 'column');
        return needsAlias ? `${e.sql} AS ${quoteIdent(name)}` : e.sql;
      }),
    );
    scope.itemCount = columns.length;
    let sql = `SELECT ${core.distinct ? 'DISTINCT ' : ''}${items.join(', ')}`;
    if (from.length > 0) sql += ` FROM ${from.join(', ')}`;
    const tick = tickCall(scope.sources);
    if (core.where) sql += ` WHERE ${tick} AND (${this.withClause('where clause', () => this.expr(core.where!, scope).sql)})`;
    else if (from.length > 0) sql += ` WHERE ${tick}`;
    if (core.groupBy.length > 0) {
      sql += ` GROUP BY ${this.withClause('group statement', () => core.groupBy.map((g) => this.groupTerm(g, scope)).join(', '))}`;
    }
    if (core.having) sql += ` HAVING ${this.withClause('having clause', () => this.expr(core.having!, scope).sql)}`;
    if (core.windows.length > 0) {
      sql += ` WINDOW ${core.windows.map((w) => `${quoteIdent(w.name)} AS ${this.windowSpec(w.spec, scope)}`).join(', ')}`;
    }
    if (core.orderBy.length > 0) sql += ` ORDER BY ${this.orderList(core.orderBy, scope, true)}`;
    if (core.limit) sql += this.limit(core.limit);
    return { sql, columns };
  }

  private groupTerm(e: Expr, scope: Scope): string {
    if (e.kind === 'literal' && e.type === 'int') {
      const n = Number(e.value);
      if (n < 1 || n > scope.itemCount) throw mysqlErrors.unknownColumn(e.value, 'group statement');
      return e.value;
    }
    return this.expr(e, scope).sql;
  }

  private orderList(items: OrderItem[], scope: Scope, allowPositions: boolean): string {
    return this.withClause('order clause', () =>
      items
        .map((o) => {
          let term: string;
          if (allowPositions && o.expr.kind === 'literal' && o.expr.type === 'int') {
            const n = Number(o.expr.value);
            if (n < 1 || n > scope.itemCount) throw mysqlErrors.unknownColumn(o.expr.value, 'order clause');
            term = o.expr.value;
          } else {
            const e = this.expr(o.expr, scope);
            term = e.type.t === 'string' || e.type.t === 'unknown' ? (e.binary ? e.sql : `mysql_sortkey(${e.sql})`) : e.sql;
          }
          return o.desc ? `${term} DESC` : term;
        })
        .join(', '),
    );
  }

  private tableRef(ref: TableRef, scope: Scope): string {
    const addSource = (source: Source): void => {
      if (scope.sources.some((s) => s.qualifier === source.qualifier)) throw mysqlErrors.notUniqueAlias(source.qualifier);
      scope.sources.push(source);
    };
    switch (ref.kind) {
      case 'table': {
        if (ref.schema !== undefined && ref.schema.toLowerCase() === 'information_schema') {
          const view = informationSchema(ref.name, this.ctx.catalog);
          if (!view) throw mysqlErrors.noSuchTable('information_schema', ref.name);
          const qualifier = ref.alias ?? ref.name;
          addSource({ qualifier, columns: view.columns, coalesced: new Set() });
          return `(${view.sql}) AS ${quoteIdent(qualifier)}`;
        }
        if (ref.schema !== undefined && ref.schema !== this.database) throw mysqlErrors.noSuchTable(ref.schema, ref.name);
        const qualifier = ref.alias ?? ref.name;
        const cte = ref.schema === undefined ? scope.ctes.get(ref.name) : undefined;
        if (cte) {
          addSource({ qualifier, columns: cte.columns, coalesced: new Set() });
        } else {
          const table = this.table(ref.name);
          addSource({ qualifier, columns: table.columns.map((c) => ({ name: c.name, type: c.type })), coalesced: new Set() });
        }
        return `${quoteIdent(ref.name)}${ref.alias !== undefined ? ` AS ${quoteIdent(ref.alias)}` : ''}`;
      }
      case 'derived': {
        if (ref.alias === undefined) throw mysqlErrors.derivedAlias();
        const inner = this.withClause('field list', () => this.query(ref.query, scope.parent, scope.ctes, { aliasItems: true }));
        const names = new Set<string>();
        for (const c of inner.columns) {
          if (names.has(c.name.toLowerCase())) throw mysqlErrors.duplicateColumn(c.name);
          names.add(c.name.toLowerCase());
        }
        addSource({ qualifier: ref.alias, columns: inner.columns, coalesced: new Set() });
        return `(${inner.sql}) AS ${quoteIdent(ref.alias)}`;
      }
      case 'join': {
        const left = this.tableRef(ref.left, scope);
        const before = scope.sources.length;
        const right = this.tableRef(ref.right, scope);
        const keyword = `${ref.natural ? 'NATURAL ' : ''}${ref.joinType === 'LEFT' ? 'LEFT JOIN' : ref.joinType === 'RIGHT' ? 'RIGHT JOIN' : ref.joinType === 'CROSS' ? 'CROSS JOIN' : 'JOIN'}`;
        let sql = `${left} ${keyword} ${right}`;
        const shared = (names: string[]): void => {
          for (const s of scope.sources) for (const n of names) s.coalesced.add(n.toLowerCase());
        };
        if (ref.on) sql += ` ON ${this.expr(ref.on, scope).sql}`;
        else if (ref.using) {
          for (const name of ref.using) {
            const inLeft = scope.sources.slice(0, before).some((s) => s.columns.some((c) => c.name.toLowerCase() === name.toLowerCase()));
            const inRight = scope.sources.slice(before).some((s) => s.columns.some((c) => c.name.toLowerCase() === name.toLowerCase()));
            if (!inLeft || !inRight) throw mysqlErrors.unknownColumn(name, 'from clause');
          }
          shared(ref.using);
          sql += ` USING (${ref.using.map(quoteIdent).join(', ')})`;
        } else if (ref.natural) {
          const leftNames = new Set(scope.sources.slice(0, before).flatMap((s) => s.columns.map((c) => c.name.toLowerCase())));
          shared(scope.sources.slice(before).flatMap((s) => s.columns.map((c) => c.name)).filter((n) => leftNames.has(n.toLowerCase())));
        }
        return sql;
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // Names

  private resolveColumn(e: Extract<Expr, { kind: 'column' }>, scope: Scope): Emitted {
    const lname = e.name.toLowerCase();
    const display = e.table !== undefined ? `${e.table}.${e.name}` : e.name;
    if (e.table === undefined && this.clause === 'order clause') {
      const alias = scope.aliases.get(lname);
      if (alias) return { sql: quoteIdent(alias.name), type: alias.type };
    }
    for (let s: Scope | null = scope; s; s = s.parent) {
      if (e.table !== undefined) {
        const source = s.sources.find((x) => x.qualifier === e.table);
        if (source) {
          const col = source.columns.find((c) => c.name.toLowerCase() === lname);
          if (!col) throw mysqlErrors.unknownColumn(display, this.clause);
          return { sql: `${quoteIdent(e.table)}.${quoteIdent(col.name)}`, type: col.type };
        }
        continue;
      }
      const hits = s.sources.filter((src) => src.columns.some((c) => c.name.toLowerCase() === lname));
      if (hits.length > 1 && !hits.every((h) => h.coalesced.has(lname))) throw mysqlErrors.ambiguousColumn(e.name, this.clause);
      if (hits.length >= 1) {
        // Always qualified: rewrites wrap operands in subqueries whose own columns could capture a bare name.
        const col = hits[0]!.columns.find((c) => c.name.toLowerCase() === lname)!;
        return { sql: `${quoteIdent(hits[0]!.qualifier)}.${quoteIdent(col.name)}`, type: col.type };
      }
      if (s === scope && (this.clause === 'group statement' || this.clause === 'having clause')) {
        const alias = scope.aliases.get(lname);
        if (alias) return { sql: this.clause === 'having clause' ? quoteIdent(alias.name) : alias.sql, type: alias.type };
      }
    }
    throw mysqlErrors.unknownColumn(display, this.clause);
  }

  // -------------------------------------------------------------------------------------------
  // Expressions

  private exprs(list: Expr[], scope: Scope): Emitted[] {
    return list.map((e) => this.expr(e, scope));
  }

  expr(e: Expr, scope: Scope): Emitted {
    switch (e.kind) {
      case 'literal':
        return literal(e);
      case 'column':
        return this.resolveColumn(e, scope);
      case 'star':
        throw new MysqlError(1064, '42000', 'unexpected *');
      case 'default':
        return { sql: 'NULL', type: NULL_TYPE };
      case 'variable':
        return this.variable(e.name, e.system);
      case 'unary':
        return this.unary(e, scope);
      case 'binary':
        return this.binary(e, scope);
      case 'is': {
        const x = this.expr(e.expr, scope);
        const what = e.what === 'UNKNOWN' ? 'NULL' : e.what;
        return { sql: `(${x.sql} IS ${e.not ? 'NOT ' : ''}${what})`, type: INT };
      }
      case 'between': {
        const [x, lo, hi] = this.exprs([e.expr, e.low, e.high], scope) as [Emitted, Emitted, Emitted];
        const temporal = [x, lo, hi].some((v) => isTemporal(v.type));
        const sql = `${temporal ? 'mysql_between_date' : 'mysql_between'}(${x.sql}, ${lo.sql}, ${hi.sql})`;
        return { sql: e.not ? `(NOT ${sql})` : sql, type: INT };
      }
      case 'in-list': {
        const x = this.expr(e.expr, scope);
        const list = this.exprs(e.list, scope);
        let sql: string;
        if (e.expr.kind === 'row') sql = `(${x.sql} IN (${list.map((l) => l.sql).join(', ')}))`;
        else sql = `${x.binary || list.some((l) => l.binary) ? 'mysql_in_bin' : 'mysql_in'}(${[x, ...list].map((l) => l.sql).join(', ')})`;
        return { sql: e.not ? `(NOT ${sql})` : sql, type: INT };
      }
      case 'in-query':
        return this.inQuery(e, scope);
      case 'like': {
        const x = this.expr(e.expr, scope);
        const p = this.expr(e.pattern, scope);
        const args = [x.sql, p.sql];
        if (e.escape) args.push(this.expr(e.escape, scope).sql);
        const sql = `${x.binary || p.binary ? 'mysql_like_bin' : 'mysql_like'}(${args.join(', ')})`;
        return { sql: e.not ? `(NOT ${sql})` : sql, type: INT };
      }
      case 'regexp': {
        const x = this.expr(e.expr, scope);
        const p = this.expr(e.pattern, scope);
        const sql = `${x.binary || p.binary ? 'mysql_regexp_bin' : 'mysql_regexp'}(${x.sql}, ${p.sql})`;
        return { sql: e.not ? `(NOT ${sql})` : sql, type: INT };
      }
      case 'exists': {
        const inner = this.query(e.query, scope, scope.ctes, { aliasItems: true });
        return { sql: `EXISTS (${inner.sql})`, type: INT };
      }
      case 'subquery':
        return this.scalarSubquery(e.query, scope);
      case 'quantified':
        return this.quantified(e, scope);
      case 'call':
        return this.call(e, scope);
      case 'cast':
        return this.cast(this.expr(e.expr, scope), e.target);
      case 'case':
        return this.caseExpr(e, scope);
      case 'interval':
        throw new MysqlError(1064, '42000', 'INTERVAL outside date arithmetic');
      case 'collate': {
        const x = this.expr(e.expr, scope);
        const binary = /_bin$|^binary$|_cs$/.test(e.collation);
        return { ...x, binary };
      }
      case 'row': {
        const items = this.exprs(e.items, scope);
        return { sql: `(${items.map((i) => i.sql).join(', ')})`, type: UNKNOWN };
      }
    }
  }

  private variable(name: string, system: boolean): Emitted {
    if (system) {
      const n = name.toLowerCase().replace(/^(session|global|local)\./, '');
      const known: Record<string, string> = { version: '8.0.36', version_comment: 'MySQL Community Server - GPL', sql_mode: '', autocommit: '1', character_set_client: 'utf8mb4', collation_connection: 'utf8mb4_0900_ai_ci', group_concat_max_len: '1024', max_allowed_packet: '67108864' };
      const value = known[n];
      if (value === undefined) throw new MysqlError(1193, 'HY000', `Unknown system variable '${n}'`);
      return /^\d+$/.test(value) ? { sql: value, type: INT } : { sql: quoteString(value), type: STRING };
    }
    const value = this.ctx.variables.get(name.toLowerCase()) ?? null;
    if (value === null) return { sql: 'NULL', type: NULL_TYPE };
    if (typeof value === 'bigint') return { sql: value.toString(), type: INT };
    if (typeof value === 'number') return { sql: Number.isFinite(value) ? String(value) : 'NULL', type: DOUBLE };
    if (typeof value === 'string') return { sql: quoteString(value), type: STRING };
    return { sql: `X'${value.toString('hex')}'`, type: STRING };
  }

  private unary(e: Extract<Expr, { kind: 'unary' }>, scope: Scope): Emitted {
    const x = this.expr(e.expr, scope);
    switch (e.op) {
      case '-': {
        if (e.expr.kind === 'literal' && (e.expr.type === 'int' || e.expr.type === 'decimal' || e.expr.type === 'float')) {
          return { sql: `(-${x.sql})`, type: x.type };
        }
        return { sql: `(- ${x.sql})`, type: isExact(x.type) ? x.type : x.type.t === 'unknown' ? UNKNOWN : DOUBLE };
      }
      case '+':
        return x;
      case '~':
        return { sql: `(~ mysql_cast_signed(${x.sql}))`, type: INT };
      case '!':
      case 'NOT':
        return { sql: `(NOT ${x.sql})`, type: INT };
      case 'BINARY':
        return { ...x, type: STRING, binary: true };
    }
  }

  private binary(e: Extract<Expr, { kind: 'binary' }>, scope: Scope): Emitted {
    const op = e.op;
    if ((op === '+' || op === '-') && (e.right.kind === 'interval' || (op === '+' && e.left.kind === 'interval'))) {
      const interval = (e.right.kind === 'interval' ? e.right : e.left) as Extract<Expr, { kind: 'interval' }>;
      const base = e.right.kind === 'interval' ? e.left : e.right;
      return this.dateAdd(this.expr(base, scope), this.expr(interval.expr, scope), interval.unit, op === '-' ? -1 : 1);
    }
    const left = this.expr(e.left, scope);
    const right = this.expr(e.right, scope);
    const binaryFlag = left.binary || right.binary ? ', 1' : '';
    switch (op) {
      case 'AND':
      case 'OR':
        return { sql: `(${left.sql} ${op} ${right.sql})`, type: INT };
      case 'XOR':
        return { sql: `mysql_xor(${left.sql}, ${right.sql})`, type: INT };
      case '=':
      case '<>':
      case '<':
      case '>':
      case '<=':
      case '>=':
        if (e.left.kind === 'row' || e.right.kind === 'row') return { sql: `(${left.sql} ${op} ${right.sql})`, type: INT };
        // A DATE/DATETIME operand makes MySQL compare both sides as temporal values.
        if (isTemporal(left.type) || isTemporal(right.type)) return { sql: `(mysql_cmp_date(${left.sql}, ${right.sql}) ${op} 0)`, type: INT };
        return { sql: `(mysql_cmp(${left.sql}, ${right.sql}${binaryFlag}) ${op} 0)`, type: INT };
      case '<=>':
        return { sql: `mysql_nullsafe_eq(${left.sql}, ${right.sql}${binaryFlag})`, type: INT };
      case '+':
      case '-':
      case '*':
        return { sql: `(${left.sql} ${op} ${right.sql})`, type: arithmeticType(left.type, right.type, op) };
      case '/': {
        if (isExact(left.type) && isExact(right.type)) {
          const scale = Math.min(30, scaleOf(left.type) + 4);
          return { sql: `mysql_div_dec(${left.sql}, ${right.sql}, ${scale})`, type: decimal(scale) };
        }
        const type = left.type.t === 'unknown' || right.type.t === 'unknown' ? UNKNOWN : DOUBLE;
        return { sql: `mysql_div(${left.sql}, ${right.sql})`, type };
      }
      case 'DIV':
        return { sql: `mysql_intdiv(${left.sql}, ${right.sql})`, type: INT };
      case '%':
        return { sql: `mysql_mod(${left.sql}, ${right.sql})`, type: arithmeticType(left.type, right.type, '%') };
      case '^':
        return { sql: `mysql_bitxor(${left.sql}, ${right.sql})`, type: INT };
      case '&':
      case '|':
      case '<<':
      case '>>':
        return { sql: `(mysql_cast_signed(${left.sql}) ${op} mysql_cast_signed(${right.sql}))`, type: INT };
      default:
        throw new MysqlError(1064, '42000', `operator ${op}`);
    }
  }

  private dateAdd(base: Emitted, amount: Emitted, unit: string, sign: number): Emitted {
    const type = DAY_UNITS.has(unit) ? (base.type.t === 'date' ? DATE : base.type.t === 'datetime' ? DATETIME : STRING) : base.type.t === 'date' || base.type.t === 'datetime' ? DATETIME : STRING;
    return { sql: `mysql_date_add(${base.sql}, ${amount.sql}, ${quoteString(unit)}, ${sign})`, type };
  }

  /** A subquery used as an operand: its first column's name and type, with the single-column rule checked. */
  private subqueryOperand(q: Query, scope: Scope): { sql: string; column: OutColumn } {
    const inner = this.query(q, scope, scope.ctes, { aliasItems: true });
    if (inner.columns.length !== 1) throw mysqlErrors.operandColumns(1);
    return { sql: inner.sql, column: inner.columns[0]! };
  }

  private scalarSubquery(q: Query, scope: Scope): Emitted {
    const { sql, column } = this.subqueryOperand(q, scope);
    if (isSingleRow(q)) return { sql: `(${sql})`, type: column.type };
    const alias = this.fresh('_s');
    return { sql: `(SELECT mysql_single(${quoteIdent(alias)}.${quoteIdent(column.name)}) FROM (${sql}) AS ${quoteIdent(alias)})`, type: column.type };
  }

  private inQuery(e: Extract<Expr, { kind: 'in-query' }>, scope: Scope): Emitted {
    if (hasLimit(e.query)) throw mysqlErrors.limitInSubquery();
    const x = this.expr(e.expr, scope);
    if (e.expr.kind === 'row' || containsAggregate(e.expr)) {
      const inner = this.query(e.query, scope, scope.ctes, { aliasItems: true });
      return { sql: `(${x.sql} ${e.not ? 'NOT IN' : 'IN'} (${inner.sql}))`, type: INT };
    }
    const { sql, column } = this.subqueryOperand(e.query, scope);
    const alias = quoteIdent(this.fresh('_s'));
    const col = `${alias}.${quoteIdent(column.name)}`;
    const flag = x.binary ? ', 1' : '';
    const test =
      `(CASE WHEN ${x.sql} IS NULL THEN NULL ` +
      `WHEN EXISTS (SELECT 1 FROM (${sql}) AS ${alias} WHERE mysql_cmp(${x.sql}, ${col}${flag}) = 0) THEN 1 ` +
      `WHEN EXISTS (SELECT 1 FROM (${sql}) AS ${alias} WHERE ${col} IS NULL) THEN NULL ELSE 0 END)`;
    return { sql: e.not ? `(NOT ${test})` : test, type: INT };
  }

  private quantified(e: Extract<Expr, { kind: 'quantified' }>, scope: Scope): Emitted {
    if (hasLimit(e.query)) throw mysqlErrors.limitInSubquery();
    const x = this.expr(e.expr, scope);
    const { sql, column } = this.subqueryOperand(e.query, scope);
    const alias = quoteIdent(this.fresh('_s'));
    const cmp = `(mysql_cmp(${x.sql}, ${alias}.${quoteIdent(column.name)}) ${e.op === '!=' ? '<>' : e.op} 0)`;
    if (e.quantifier === 'ANY') return { sql: `EXISTS (SELECT 1 FROM (${sql}) AS ${alias} WHERE ${cmp})`, type: INT };
    return { sql: `(NOT EXISTS (SELECT 1 FROM (${sql}) AS ${alias} WHERE NOT coalesce(${cmp}, 0)))`, type: INT };
  }

  private caseExpr(e: Extract<Expr, { kind: 'case' }>, scope: Scope): Emitted {
    const operand = e.operand ? this.expr(e.operand, scope) : null;
    const types: SqlType[] = [];
    const parts = e.whens.map((w) => {
      const when = this.expr(w.when, scope);
      const then = this.expr(w.then, scope);
      types.push(then.type);
      const cond = operand ? `mysql_cmp(${operand.sql}, ${when.sql}) = 0` : when.sql;
      return `WHEN ${cond} THEN ${then.sql}`;
    });
    let sql = `(CASE ${parts.join(' ')}`;
    if (e.else) {
      const other = this.expr(e.else, scope);
      types.push(other.type);
      sql += ` ELSE ${other.sql}`;
    } else types.push(NULL_TYPE);
    return { sql: `${sql} END)`, type: aggregateTypes(types) };
  }

  private cast(x: Emitted, target: CastTarget): Emitted {
    switch (target.type) {
      case 'SIGNED':
      case 'YEAR':
        return { sql: `mysql_cast_signed(${x.sql})`, type: INT };
      case 'UNSIGNED':
        return { sql: `mysql_cast_unsigned(${x.sql})`, type: INT };
      case 'DECIMAL': {
        const precision = target.precision ?? 10;
        const scale = target.scale ?? 0;
        if (scale > precision) throw new MysqlError(1427, '42000', `For float(M,D), double(M,D) or decimal(M,D), M must be >= D (column '').`);
        return { sql: `mysql_cast_decimal(${x.sql}, ${precision}, ${scale})`, type: decimal(scale) };
      }
      case 'CHAR': {
        const arg = this.asText(x);
        return { sql: target.precision !== undefined ? `mysql_cast_char(${arg}, ${target.precision})` : `mysql_cast_char(${arg})`, type: STRING };
      }
      case 'DOUBLE':
      case 'FLOAT':
        return { sql: `mysql_cast_double(${x.sql})`, type: DOUBLE };
      case 'DATE':
        return { sql: `mysql_cast_date(${x.sql})`, type: DATE };
      case 'DATETIME':
        return { sql: `mysql_cast_datetime(${x.sql})`, type: DATETIME };
      case 'TIME':
        return { sql: `mysql_cast_time(${x.sql})`, type: TIME };
      case 'BINARY':
        return { sql: this.asText(x), type: STRING, binary: true };
      default:
        return { sql: this.asText(x), type: STRING };
    }
  }

  /** A decimal-typed value as MySQL would print it (keeps trailing zeros of the scale). */
  private asText(x: Emitted): string {
    return x.type.t === 'decimal' ? `mysql_text_dec(${x.sql}, ${x.type.scale})` : x.sql;
  }

  private windowSpec(spec: WindowSpec, scope: Scope): string {
    const parts: string[] = [];
    if (spec.name) parts.push(quoteIdent(spec.name));
    if (spec.partitionBy.length > 0) parts.push(`PARTITION BY ${spec.partitionBy.map((p) => this.expr(p, scope).sql).join(', ')}`);
    if (spec.orderBy.length > 0) parts.push(`ORDER BY ${this.orderList(spec.orderBy, scope, false)}`);
    if (spec.frame) parts.push(spec.frame);
    return `(${parts.join(' ')})`;
  }

  private call(e: Extract<Expr, { kind: 'call' }>, scope: Scope): Emitted {
    const name = e.name;
    const written = e.written ?? e.name;
    const spec = FUNCTIONS[name];
    if (e.storedFunction) {
      throw new MysqlError(
        1630,
        '42000',
        `FUNCTION ${this.database}.${written} does not exist. Check the 'Function Name Parsing and Resolution' section in the Reference Manual`,
      );
    }
    if (e.over !== undefined) return this.windowCall(e, scope);
    if (name === 'IF') {
      if (e.args.length !== 3) throw mysqlErrors.paramCount(written);
      const [c, a, b] = this.exprs(e.args, scope) as [Emitted, Emitted, Emitted];
      return { sql: `(CASE WHEN ${c.sql} THEN ${a.sql} ELSE ${b.sql} END)`, type: aggregateTypes([a.type, b.type]) };
    }
    if (name === 'COUNT') {
      if (e.star) return { sql: 'count(*)', type: INT };
      if (e.args.length === 0) throw new MysqlError(1064, '42000', 'COUNT()');
      const args = this.exprs(e.args, scope);
      if (args.length === 1) return { sql: `count(${e.distinct ? 'DISTINCT ' : ''}${args[0]!.sql})`, type: INT };
      if (!e.distinct) throw mysqlErrors.paramCount(written);
      const nullCheck = args.map((a) => `${a.sql} IS NULL`).join(' OR ');
      return { sql: `count(DISTINCT CASE WHEN ${nullCheck} THEN NULL ELSE mysql_concat_ws(char(31), ${args.map((a) => a.sql).join(', ')}) END)`, type: INT };
    }
    if (name === 'GROUP_CONCAT') {
      const args = this.exprs(e.args, scope).map((a) => this.asText(a));
      const value = args.length === 1 ? args[0]! : `mysql_concat(${args.join(', ')})`;
      const fn = this.ctx.groupConcat(e.separator ?? ',');
      const order = e.orderBy && e.orderBy.length > 0 ? ` ORDER BY ${this.orderList(e.orderBy, scope, false)}` : '';
      return { sql: `${fn}(${e.distinct ? 'DISTINCT ' : ''}${value}${order})`, type: STRING };
    }
    if (['DATE_ADD', 'DATE_SUB', 'ADDDATE', 'SUBDATE'].includes(name)) {
      if (e.args.length !== 2) throw mysqlErrors.paramCount(written);
      const sign = name === 'DATE_SUB' || name === 'SUBDATE' ? -1 : 1;
      const base = this.expr(e.args[0]!, scope);
      const second = e.args[1]!;
      if (second.kind === 'interval') return this.dateAdd(base, this.expr(second.expr, scope), second.unit, sign);
      return this.dateAdd(base, this.expr(second, scope), 'DAY', sign);
    }
    if (name === 'TIMESTAMPADD') {
      const [unit, amount, base] = e.args as [Expr, Expr, Expr];
      return this.dateAdd(this.expr(base, scope), this.expr(amount, scope), unit.kind === 'literal' ? unit.value : 'DAY', 1);
    }
    if (!spec) {
      if (SQLITE_ONLY_FUNCTIONS.has(name) || /^MYSQL_/.test(name)) throw mysqlErrors.functionMissing(this.database, written);
      const args = this.exprs(e.args, scope);
      return { sql: `${name.toLowerCase()}(${e.distinct ? 'DISTINCT ' : ''}${e.star ? '*' : args.map((a) => a.sql).join(', ')})`, type: UNKNOWN };
    }
    const count = e.star ? 1 : e.args.length;
    if (count < spec.min || count > spec.max) throw mysqlErrors.paramCount(written);
    if (e.star) throw new MysqlError(1064, '42000', `${written}(*)`);
    const args = this.exprs(e.args, scope);
    const types = args.map((a) => a.type);
    let argSql = args.map((a) => (spec.stringArgs ? this.asText(a) : a.sql));
    let type = spec.type(types);
    if (name === 'ROUND' || name === 'TRUNCATE') {
      const digits = e.args[1];
      const d = digits ? constantInt(digits) : 0;
      if (name === 'ROUND') argSql = [argSql[0]!, argSql[1] ?? '0', isExact(types[0]!) ? '1' : '0'];
      if (types[0]!.t === 'decimal') type = decimal(d === null ? scaleOf(types[0]!) : Math.max(0, d));
    }
    if (name === 'STR_TO_DATE') {
      const fmt = e.args[1];
      if (fmt && fmt.kind === 'literal' && fmt.type === 'string' && TIME_SPECIFIERS.test(fmt.value)) type = DATETIME;
    }
    if (spec.aggregate) {
      const distinct = e.distinct ? 'DISTINCT ' : '';
      return { sql: `${spec.sqlite}(${distinct}${argSql.join(', ')})`, type };
    }
    return { sql: `${spec.sqlite}(${argSql.join(', ')})`, type };
  }

  private windowCall(e: Extract<Expr, { kind: 'call' }>, scope: Scope): Emitted {
    const spec = FUNCTIONS[e.name];
    const args = this.exprs(e.args, scope);
    const fn = WINDOW_AGGREGATES[e.name] ?? (spec?.window ? spec.sqlite : null);
    if (!fn) throw mysqlErrors.functionMissing(this.database, e.name);
    const over = typeof e.over === 'string' ? quoteIdent(e.over) : this.windowSpec(e.over!, scope);
    const argText = e.star ? '*' : `${e.distinct ? 'DISTINCT ' : ''}${args.map((a) => a.sql).join(', ')}`;
    const type = spec ? spec.type(args.map((a) => a.type)) : UNKNOWN;
    return { sql: `${fn}(${argText}) OVER ${over}`, type };
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

function literal(e: Extract<Expr, { kind: 'literal' }>): Emitted {
  switch (e.type) {
    case 'int':
      return { sql: e.value, type: INT };
    case 'decimal':
      return { sql: e.value, type: decimal(literalScale(e.value)) };
    case 'float':
      return { sql: e.value, type: DOUBLE };
    case 'string':
      return { sql: quoteString(e.value), type: STRING };
    case 'null':
      return { sql: 'NULL', type: NULL_TYPE };
    case 'bool':
      return { sql: e.value, type: INT };
    case 'hex':
      return { sql: `X'${e.value.length % 2 === 1 ? `0${e.value}` : e.value}'`, type: STRING };
  }
}

function isTemporal(type: SqlType): boolean {
  return type.t === 'date' || type.t === 'datetime';
}

/**
 * `mysql_tick(…)` over one column of every source: it runs once per candidate row (SQLite cannot evaluate
 * it before all sources are bound), so a runaway statement keeps re-entering JS and can be cancelled.
 */
function tickCall(sources: readonly Source[]): string {
  const refs = sources.filter((s) => s.columns.length > 0).map((s) => `${quoteIdent(s.qualifier)}.${quoteIdent(s.columns[0]!.name)}`);
  return `mysql_tick(${refs.join(', ')})`;
}

/** The value of an integer literal, optionally signed, or null for anything else. */
function constantInt(e: Expr): number | null {
  if (e.kind === 'literal' && e.type === 'int') return Number(e.value);
  if (e.kind === 'unary' && (e.op === '-' || e.op === '+')) {
    const inner = constantInt(e.expr);
    return inner === null ? null : e.op === '-' ? -inner : inner;
  }
  return null;
}

/** For a numeric literal (optionally signed) written into a TEXT column: the text MySQL stores. */
function numericLiteralText(e: Expr): string | null {
  let sign = '';
  let x = e;
  while (x.kind === 'unary' && (x.op === '-' || x.op === '+')) {
    if (x.op === '-') sign = sign === '-' ? '' : '-';
    x = x.expr;
  }
  if (x.kind !== 'literal') return null;
  let text: string;
  if (x.type === 'int') text = BigInt(x.value).toString();
  else if (x.type === 'decimal') text = decimalText(x.value, literalScale(x.value));
  else if (x.type === 'float') text = mysqlDoubleText(Number(x.value));
  else return null;
  if (sign === '-' && text !== '0' && !/^0(\.0+)?$/.test(text)) return text.startsWith('-') ? text.slice(1) : `-${text}`;
  return text;
}

/** Replaces references to already-assigned columns with their new value (MySQL's left-to-right SET). */
function substituteColumns(e: Expr, assigned: Map<string, Expr>, qualifier: string): Expr {
  if (assigned.size === 0) return e;
  const visit = (x: Expr): Expr => {
    if (x.kind === 'column' && (x.table === undefined || x.table === qualifier)) {
      const replacement = assigned.get(x.name.toLowerCase());
      if (replacement) return replacement;
    }
    if (x.kind === 'subquery' || x.kind === 'exists' || x.kind === 'in-query' || x.kind === 'quantified') return x;
    const out: Record<string, unknown> = { ...x };
    for (const [key, value] of Object.entries(x)) {
      if (key === 'span') continue;
      if (Array.isArray(value)) out[key] = value.map((v: unknown) => (isExpr(v) ? visit(v) : isWhen(v) ? { when: visit(v.when), then: visit(v.then) } : v));
      else if (isExpr(value)) out[key] = visit(value);
    }
    return out as unknown as Expr;
  };
  return visit(e);
}

function isExpr(v: unknown): v is Expr {
  return typeof v === 'object' && v !== null && 'kind' in v && 'span' in v;
}

function isWhen(v: unknown): v is { when: Expr; then: Expr } {
  return typeof v === 'object' && v !== null && 'when' in v && 'then' in v;
}

function walkExpr(e: Expr, onQuery: (q: Query) => void): void {
  if (e.kind === 'subquery' || e.kind === 'exists' || e.kind === 'in-query' || e.kind === 'quantified') onQuery(e.query);
  for (const [key, value] of Object.entries(e)) {
    if (key === 'span' || key === 'query') continue;
    if (Array.isArray(value)) {
      for (const v of value as unknown[]) {
        if (isExpr(v)) walkExpr(v, onQuery);
        else if (isWhen(v)) {
          walkExpr(v.when, onQuery);
          walkExpr(v.then, onQuery);
        }
      }
    } else if (isExpr(value)) walkExpr(value, onQuery);
  }
}

/** Base tables read directly (not through a derived table) by subqueries inside an expression. */
function subqueryTables(e: Expr): Set<string> {
  const names = new Set<string>();
  const visitQuery = (q: Query): void => {
    const visitBody = (b: SetBody): void => {
      if (b.kind === 'compound') {
        visitBody(b.left);
        visitBody(b.right);
      } else if (b.kind === 'paren') visitQuery(b.query);
      else {
        const visitRef = (r: TableRef): void => {
          if (r.kind === 'table') names.add(r.name);
          else if (r.kind === 'join') {
            visitRef(r.left);
            visitRef(r.right);
          }
        };
        b.from.forEach(visitRef);
        for (const x of [b.where, b.having, ...b.items.map((i) => i.expr)]) if (x) walkExpr(x, visitQuery);
      }
    };
    visitBody(q.body);
  };
  walkExpr(e, visitQuery);
  return names;
}

function collectTables(s: Statement): string[] {
  const names: string[] = [];
  const visitRef = (r: TableRef): void => {
    if (r.kind === 'table') names.push(r.alias ?? r.name);
    else if (r.kind === 'derived') names.push(r.alias ?? '<derived>');
    else {
      visitRef(r.left);
      visitRef(r.right);
    }
  };
  const visitBody = (b: SetBody): void => {
    if (b.kind === 'select') b.from.forEach(visitRef);
    else if (b.kind === 'paren') visitBody(b.query.body);
    else {
      visitBody(b.left);
      visitBody(b.right);
    }
  };
  if (s.kind === 'query') visitBody(s.query.body);
  else if (s.kind === 'update') visitRef(s.table);
  else if (s.kind === 'delete' || s.kind === 'insert') names.push(s.table.name);
  return names;
}

function hasLimit(q: Query): boolean {
  return q.limit !== undefined || (q.body.kind === 'select' && q.body.limit !== undefined);
}

function containsAggregate(e: Expr): boolean {
  if (e.kind === 'call' && e.over === undefined && (FUNCTIONS[e.name]?.aggregate ?? false)) return true;
  let found = false;
  for (const [key, value] of Object.entries(e)) {
    if (found || key === 'span' || key === 'query') continue;
    if (Array.isArray(value)) {
      for (const v of value as unknown[]) if (isExpr(v) && containsAggregate(v)) found = true;
    } else if (isExpr(value) && containsAggregate(value)) found = true;
  }
  return found;
}

/** Whether a query can return at most one row without running it (so no 1242 guard is needed). */
function isSingleRow(q: Query): boolean {
  const limit = q.limit ?? (q.body.kind === 'select' ? q.body.limit : undefined);
  if (limit && limit.count.kind === 'literal' && Number(limit.count.value) <= 1) return true;
  if (q.body.kind !== 'select') return false;
  const core = q.body;
  if (core.from.length === 0 && !core.where) return true;
  return core.groupBy.length === 0 && core.items.some((i) => containsAggregate(i.expr)) && !core.having;
}

function firstCore(body: SetBody): SelectCore {
  if (body.kind === 'compound') return firstCore(body.left);
  if (body.kind === 'paren') return firstCore(body.query.body);
  return body;
}

function firstCoreNames(body: SetBody): string[] {
  return firstCore(body).items.map((i) => i.alias ?? (i.expr.kind === 'column' ? i.expr.name : i.text));
}

/** information_schema.TABLES / COLUMNS / SCHEMATA for the episode database, as inline SELECTs. */
function informationSchema(name: string, catalog: Catalog): { sql: string; columns: OutColumn[] } | null {
  const rowsToSql = (columns: OutColumn[], rows: (string | number | null)[][]): string => {
    const value = (v: string | number | null): string => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : quoteString(v));
    if (rows.length === 0) return `SELECT ${columns.map((c) => `NULL AS ${quoteIdent(c.name)}`).join(', ')} WHERE 0`;
    return rows.map((r) => `SELECT ${r.map((v, i) => `${value(v)} AS ${quoteIdent(columns[i]!.name)}`).join(', ')}`).join(' UNION ALL ');
  };
  const s = (n: string): OutColumn => ({ name: n, type: STRING });
  const i = (n: string): OutColumn => ({ name: n, type: INT });
  const tables = [...catalog.tables.values()];
  switch (name.toUpperCase()) {
    case 'TABLES': {
      const columns = [s('TABLE_CATALOG'), s('TABLE_SCHEMA'), s('TABLE_NAME'), s('TABLE_TYPE'), s('ENGINE'), i('VERSION'), s('ROW_FORMAT'), i('TABLE_ROWS'), s('TABLE_COLLATION'), s('TABLE_COMMENT')];
      const rows = tables.map((t) => ['def', catalog.database, t.name, t.kind === 'view' ? 'VIEW' : 'BASE TABLE', t.kind === 'view' ? null : 'InnoDB', 10, 'Dynamic', null, 'utf8mb4_0900_ai_ci', '']);
      return { sql: rowsToSql(columns, rows), columns };
    }
    case 'COLUMNS': {
      const columns = [
        s('TABLE_CATALOG'), s('TABLE_SCHEMA'), s('TABLE_NAME'), s('COLUMN_NAME'), i('ORDINAL_POSITION'), s('COLUMN_DEFAULT'), s('IS_NULLABLE'),
        s('DATA_TYPE'), i('CHARACTER_MAXIMUM_LENGTH'), i('NUMERIC_PRECISION'), i('NUMERIC_SCALE'), s('CHARACTER_SET_NAME'), s('COLLATION_NAME'),
        s('COLUMN_TYPE'), s('COLUMN_KEY'), s('EXTRA'), s('COLUMN_COMMENT'),
      ];
      const rows = tables.flatMap((t) =>
        t.columns.map((c, k) => {
          const columnType = (c.declared || 'text').toLowerCase();
          const dataType = columnType.replace(/\(.*$/, '').trim();
          const textual = /char|text/.test(dataType);
          return [
            'def', catalog.database, t.name, c.name, k + 1, c.defaultValue, c.notNull ? 'NO' : 'YES', dataType,
            textual ? (dataType === 'text' ? 65535 : Number(/\((\d+)\)/.exec(columnType)?.[1] ?? 255)) : null, null, null,
            textual ? 'utf8mb4' : null, textual ? 'utf8mb4_0900_ai_ci' : null, columnType, c.primaryKey ? 'PRI' : '', '', '',
          ];
        }),
      );
      return { sql: rowsToSql(columns, rows), columns };
    }
    case 'SCHEMATA': {
      const columns = [s('CATALOG_NAME'), s('SCHEMA_NAME'), s('DEFAULT_CHARACTER_SET_NAME'), s('DEFAULT_COLLATION_NAME'), s('SQL_PATH')];
      const names = ['information_schema', catalog.database, 'mysql', 'performance_schema', 'sys'].sort();
      return { sql: rowsToSql(columns, names.map((n) => ['def', n, 'utf8mb4', 'utf8mb4_0900_ai_ci', null])), columns };
    }
    default:
      return null;
  }
}

/** Rewrites one parsed statement; throws {@link MysqlError} for the errors MySQL would raise. */
export function rewriteStatement(statement: Statement, ctx: RewriteContext): Rewrite {
  return new Rewriter(ctx).statement(statement);
}

/** `SELECT <expr>` in SQLite form (used to evaluate `SET @var = expr`). */
export function rewriteValueQuery(expr: Expr, ctx: RewriteContext): string {
  const query: Query = {
    body: { kind: 'select', distinct: false, items: [{ expr, text: '' }], from: [], groupBy: [], rollup: false, windows: [], orderBy: [], span: expr.span },
    orderBy: [],
    span: expr.span,
  };
  const rewritten = rewriteStatement({ kind: 'query', query }, ctx);
  if (rewritten.kind !== 'sql') throw new MysqlError(1064, '42000', 'not a value');
  return rewritten.sql;
}
