import type { Expr, Query } from '../ast.js';
import { mysqlErrors } from '../errors.js';
import { quoteIdent } from '../sql-quote.js';
import { INT } from '../sql-types.js';
import { containsAggregate, hasLimit, isSingleRow } from './inspect-ast.js';
import type { Emitted, Rewriter } from './rewriter.js';
import type { OutColumn, Scope } from './scope.js';

/** Subqueries as operands: scalar (guarded by `mysql_single` unless one row is certain), IN, ANY and ALL. */

/** A subquery used as an operand: its first column's name and type, with the single-column rule checked. */
function subqueryOperand(rw: Rewriter, q: Query, scope: Scope): { sql: string; column: OutColumn } {
  const inner = rw.query(q, scope, scope.ctes, { aliasItems: true });
  if (inner.columns.length !== 1) throw mysqlErrors.operandColumns(1);
  return { sql: inner.sql, column: inner.columns[0]! };
}

export function rewriteScalarSubquery(rw: Rewriter, q: Query, scope: Scope): Emitted {
  const { sql, column } = subqueryOperand(rw, q, scope);
  if (isSingleRow(q)) return { sql: `(${sql})`, type: column.type };
  const alias = rw.fresh('_s');
  return { sql: `(SELECT mysql_single(${quoteIdent(alias)}.${quoteIdent(column.name)}) FROM (${sql}) AS ${quoteIdent(alias)})`, type: column.type };
}

export function rewriteInQuery(rw: Rewriter, e: Extract<Expr, { kind: 'in-query' }>, scope: Scope): Emitted {
  if (hasLimit(e.query)) throw mysqlErrors.limitInSubquery();
  const x = rw.expr(e.expr, scope);
  if (e.expr.kind === 'row' || containsAggregate(e.expr)) {
    const inner = rw.query(e.query, scope, scope.ctes, { aliasItems: true });
    return { sql: `(${x.sql} ${e.not ? 'NOT IN' : 'IN'} (${inner.sql}))`, type: INT };
  }
  const { sql, column } = subqueryOperand(rw, e.query, scope);
  const alias = quoteIdent(rw.fresh('_s'));
  const col = `${alias}.${quoteIdent(column.name)}`;
  const flag = x.binary ? ', 1' : '';
  const test =
    `(CASE WHEN ${x.sql} IS NULL THEN NULL ` +
    `WHEN EXISTS (SELECT 1 FROM (${sql}) AS ${alias} WHERE mysql_cmp(${x.sql}, ${col}${flag}) = 0) THEN 1 ` +
    `WHEN EXISTS (SELECT 1 FROM (${sql}) AS ${alias} WHERE ${col} IS NULL) THEN NULL ELSE 0 END)`;
  return { sql: e.not ? `(NOT ${test})` : test, type: INT };
}

export function rewriteQuantified(rw: Rewriter, e: Extract<Expr, { kind: 'quantified' }>, scope: Scope): Emitted {
  if (hasLimit(e.query)) throw mysqlErrors.limitInSubquery();
  const x = rw.expr(e.expr, scope);
  const { sql, column } = subqueryOperand(rw, e.query, scope);
  const alias = quoteIdent(rw.fresh('_s'));
  const cmp = `(mysql_cmp(${x.sql}, ${alias}.${quoteIdent(column.name)}) ${e.op === '!=' ? '<>' : e.op} 0)`;
  if (e.quantifier === 'ANY') return { sql: `EXISTS (SELECT 1 FROM (${sql}) AS ${alias} WHERE ${cmp})`, type: INT };
  return { sql: `(NOT EXISTS (SELECT 1 FROM (${sql}) AS ${alias} WHERE NOT coalesce(${cmp}, 0)))`, type: INT };
}
