import type { Assignment, Expr, OrderItem, Statement } from '../ast.js';
import type { CatalogColumn } from '../catalog.js';
import { MysqlError, mysqlErrors } from '../errors.js';
import { decimalText, literalScale, mysqlDoubleText } from '../mysql-values.js';
import { quoteIdent, quoteString } from '../sql-quote.js';
import { firstCore, isExpr, isWhen, subqueryTables } from './inspect-ast.js';
import { tickCall } from './rewrite-query.js';
import type { Emitted, Rewriter } from './rewriter.js';
import { Scope } from './scope.js';

/**
 * INSERT/REPLACE, UPDATE and DELETE: target columns checked as MySQL does, values converted to the text
 * MySQL would store in TEXT columns, single-table SET evaluated left to right, and the per-row tick.
 */

export function rewriteInsert(rw: Rewriter, s: Extract<Statement, { kind: 'insert' }>): string {
  const verb = s.replace ? 'REPLACE INTO' : s.ignore ? 'INSERT OR IGNORE INTO' : 'INSERT INTO';
  const head = `${verb} ${quoteIdent(s.table.name)}`;
  const scope = new Scope(null, new Map());
  if (s.source.kind === 'query') {
    const columns = targetColumns(rw, s.table.name, s.columns);
    // Name the SELECT's columns _c1, _c2, … so each can be converted to the text MySQL would store.
    const positional = !firstCore(s.source.query.body).items.some((i) => i.expr.kind === 'star');
    const inner = rw.query(s.source.query, null, new Map(), { aliasItems: true, positionalAliases: positional });
    if (inner.columns.length !== columns.length) throw mysqlErrors.columnCount(1);
    const values = inner.columns.map((c, i) => {
      const ref: Emitted = { sql: `"_i".${quoteIdent(`_c${i + 1}`)}`, type: c.type };
      return storeValue(ref, columns[i], { kind: 'default', span: { start: 0, end: 0 } });
    });
    const select = positional ? `SELECT ${values.join(', ')} FROM (${inner.sql}) AS "_i"` : inner.sql;
    return `${head} (${columns.map((c) => quoteIdent(c.name)).join(', ')}) ${select}`;
  }
  let columns: CatalogColumn[];
  let rows: Expr[][];
  if (s.source.kind === 'set') {
    columns = targetColumns(
      rw,
      s.table.name,
      s.source.assignments.map((a) => a.column),
    );
    rows = [s.source.assignments.map((a) => a.value)];
  } else {
    columns = targetColumns(rw, s.table.name, s.columns);
    rows = s.source.rows;
  }
  const emittedRows = rows.map((row, i) => {
    if (row.length !== columns.length) throw mysqlErrors.columnCount(i + 1);
    return `(${row
      .map((value, j) => {
        if (value.kind === 'default') return defaultValue(columns[j]!);
        const e = rw.withClause('field list', () => rw.expr(value, scope));
        return storeValue(e, columns[j], value);
      })
      .join(', ')})`;
  });
  if (columns.length === 0) return `${head} DEFAULT VALUES`;
  return `${head} (${columns.map((c) => quoteIdent(c.name)).join(', ')}) VALUES ${emittedRows.join(', ')}`;
}

export function rewriteUpdate(rw: Rewriter, s: Extract<Statement, { kind: 'update' }>): string {
  const ref = s.table;
  if (ref.kind !== 'table') throw mysqlErrors.unsupported('multi-table UPDATE');
  const table = rw.table(ref.name);
  const scope = new Scope(null, new Map());
  const qualifier = ref.alias ?? ref.name;
  scope.sources.push({ qualifier, columns: table.columns.map((c) => ({ name: c.name, type: c.type })), coalesced: new Set() });
  rejectSelfReference(ref.name, [...s.assignments.map((a) => a.value), s.where]);
  const assigned = new Map<string, Expr>();
  const sets = s.assignments.map((a: Assignment) => {
    const col = table.columns.find((c) => c.name.toLowerCase() === a.column.name.toLowerCase());
    if (!col || (a.column.table !== undefined && a.column.table !== qualifier)) {
      throw mysqlErrors.unknownColumn(a.column.table ? `${a.column.table}.${a.column.name}` : a.column.name, 'field list');
    }
    // MySQL evaluates single-table SET items left to right, so later items see earlier new values.
    const value = substituteColumns(a.value, assigned, qualifier);
    const sql =
      value.kind === 'default' ? defaultValue(col) : storeValue(rw.withClause('field list', () => rw.expr(value, scope)), col, value);
    assigned.set(col.name.toLowerCase(), value);
    return `${quoteIdent(col.name)} = ${sql}`;
  });
  let sql = `UPDATE ${quoteIdent(ref.name)}${ref.alias ? ` AS ${quoteIdent(ref.alias)}` : ''} SET ${sets.join(', ')}`;
  const tick = tickCall(scope.sources);
  sql += s.where ? ` WHERE ${tick} AND (${rw.withClause('where clause', () => rw.expr(s.where!, scope).sql)})` : ` WHERE ${tick}`;
  sql += dmlOrderLimit(rw, s.orderBy, s.limit, scope);
  return sql;
}

export function rewriteDelete(rw: Rewriter, s: Extract<Statement, { kind: 'delete' }>): string {
  const table = rw.table(s.table.name);
  const scope = new Scope(null, new Map());
  scope.sources.push({ qualifier: s.table.alias ?? s.table.name, columns: table.columns.map((c) => ({ name: c.name, type: c.type })), coalesced: new Set() });
  rejectSelfReference(s.table.name, [s.where]);
  let sql = `DELETE FROM ${quoteIdent(s.table.name)}${s.table.alias ? ` AS ${quoteIdent(s.table.alias)}` : ''}`;
  const tick = tickCall(scope.sources);
  sql += s.where ? ` WHERE ${tick} AND (${rw.withClause('where clause', () => rw.expr(s.where!, scope).sql)})` : ` WHERE ${tick}`;
  sql += dmlOrderLimit(rw, s.orderBy, s.limit, scope);
  return sql;
}

function storeValue(e: Emitted, column: CatalogColumn | undefined, source: Expr): string {
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

function targetColumns(rw: Rewriter, tableName: string, requested: { name: string }[] | undefined): CatalogColumn[] {
  const table = rw.table(tableName);
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

function defaultValue(column: CatalogColumn): string {
  return column.defaultValue === null ? 'NULL' : quoteString(column.defaultValue);
}

function rejectSelfReference(target: string, exprs: (Expr | undefined)[]): void {
  for (const e of exprs) {
    if (e && subqueryTables(e).has(target)) {
      throw new MysqlError(1093, 'HY000', `You can't specify target table '${target}' for update in FROM clause`);
    }
  }
}

function dmlOrderLimit(rw: Rewriter, orderBy: OrderItem[], limit: Expr | undefined, scope: Scope): string {
  let sql = '';
  if (orderBy.length > 0) sql += ` ORDER BY ${rw.orderList(orderBy, scope, false)}`;
  if (limit) sql += ` LIMIT ${rw.expr(limit, scope).sql}`;
  return sql;
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
