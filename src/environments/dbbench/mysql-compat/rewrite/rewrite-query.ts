import type { Expr, OrderItem, Query, SelectCore, SetBody, WindowSpec } from '../ast.js';
import { MysqlError, mysqlErrors } from '../errors.js';
import { quoteIdent } from '../sql-quote.js';
import { aggregateTypes, UNKNOWN } from '../sql-types.js';
import { firstCoreNames } from './inspect-ast.js';
import { rewriteTableRef } from './rewrite-table-ref.js';
import type { QueryOptions, RewrittenQuery, Rewriter } from './rewriter.js';
import { Scope, type CteInfo, type OutColumn, type Source } from './scope.js';

/** Queries: WITH, UNION/EXCEPT/INTERSECT, SELECT cores with their clauses, ORDER BY, LIMIT and windows. */

export function rewriteQuery(rw: Rewriter, q: Query, parent: Scope | null, ctes: Map<string, CteInfo>, opts: QueryOptions): RewrittenQuery {
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
      const inner = rw.query(cte.query, parent, visible, { aliasItems: true });
      if (cte.columns && cte.columns.length !== inner.columns.length) {
        throw new MysqlError(1353, 'HY000', `In definition of view, derived table or common table expression, SELECT list and column names list have different column counts`);
      }
      const columns = cte.columns ? cte.columns.map((name, i) => ({ name, type: inner.columns[i]?.type ?? UNKNOWN })) : inner.columns;
      visible.set(cte.name, { columns });
      parts.push(`${quoteIdent(cte.name)}${cte.columns ? `(${cte.columns.map(quoteIdent).join(', ')})` : ''} AS (${inner.sql})`);
    }
    prefix = `WITH ${q.with.recursive ? 'RECURSIVE ' : ''}${parts.join(', ')} `;
  }
  const body = rewriteSetBody(rw, q.body, parent, visible, opts, true);
  let sql = prefix + body.sql;
  if (q.orderBy.length > 0) {
    sql += ` ORDER BY ${q.orderBy.map((o) => `${compoundOrderTerm(o.expr, body.columns)}${o.desc ? ' DESC' : ''}`).join(', ')}`;
  }
  if (q.limit) sql += limitClause(q.limit);
  return { sql, columns: body.columns };
}

function limitClause(limit: { count: Expr; offset?: Expr }): string {
  const count = limit.count.kind === 'literal' ? limit.count.value : '0';
  const offset = limit.offset?.kind === 'literal' ? ` OFFSET ${limit.offset.value}` : '';
  return ` LIMIT ${count}${offset}`;
}

function compoundOrderTerm(e: Expr, columns: OutColumn[]): string {
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

function rewriteSetBody(rw: Rewriter, body: SetBody, parent: Scope | null, ctes: Map<string, CteInfo>, opts: QueryOptions, leftmost: boolean): RewrittenQuery {
  if (body.kind === 'select') return rewriteSelectCore(rw, body, parent, ctes, { ...opts, positionalAliases: opts.positionalAliases === true && leftmost });
  if (body.kind === 'paren') {
    const inner = body.query;
    if (!inner.with && inner.orderBy.length === 0 && !inner.limit && (inner.body.kind !== 'select' || (inner.body.orderBy.length === 0 && !inner.body.limit))) {
      return rewriteSetBody(rw, inner.body, parent, ctes, opts, leftmost);
    }
    const out = rw.query(inner, parent, ctes, { aliasItems: true });
    return { sql: `SELECT * FROM (${out.sql}) AS ${quoteIdent(rw.fresh('_u'))}`, columns: out.columns };
  }
  const left = rewriteSetBody(rw, body.left, parent, ctes, opts, leftmost);
  const right = rewriteSetBody(rw, body.right, parent, ctes, { ...opts, positionalAliases: false }, false);
  if (left.columns.length !== right.columns.length) {
    throw new MysqlError(1222, '21000', 'The used SELECT statements have a different number of columns');
  }
  const columns = left.columns.map((c, i) => ({ name: c.name, type: aggregateTypes([c.type, right.columns[i]!.type]) }));
  return { sql: `${left.sql} ${body.op} ${right.sql}`, columns };
}

function rewriteSelectCore(rw: Rewriter, core: SelectCore, parent: Scope | null, ctes: Map<string, CteInfo>, opts: QueryOptions): RewrittenQuery {
  const scope = new Scope(parent, ctes);
  const from = rw.withClause('on clause', () => core.from.map((ref) => rewriteTableRef(rw, ref, scope)));
  if (core.rollup) throw mysqlErrors.unsupported('WITH ROLLUP in this emulation');
  const columns: OutColumn[] = [];
  const items = rw.withClause('field list', () =>
    core.items.map((item, index) => {
      if (item.expr.kind === 'star') {
        const star = item.expr;
        const sources = star.table === undefined ? scope.sources : scope.sources.filter((s) => s.qualifier === star.table);
        if (star.table !== undefined && sources.length === 0) throw mysqlErrors.unknownTable(star.table, 'field list');
        if (star.table === undefined && sources.length === 0) throw new MysqlError(1096, 'HY000', 'No tables used');
        for (const s of sources) columns.push(...s.columns);
        return star.table === undefined ? '*' : `${quoteIdent(star.table)}.*`;
      }
      const e = rw.expr(item.expr, scope);
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
  if (core.where) sql += ` WHERE ${tick} AND (${rw.withClause('where clause', () => rw.expr(core.where!, scope).sql)})`;
  else if (from.length > 0) sql += ` WHERE ${tick}`;
  if (core.groupBy.length > 0) {
    sql += ` GROUP BY ${rw.withClause('group statement', () => core.groupBy.map((g) => groupTerm(rw, g, scope)).join(', '))}`;
  }
  if (core.having) sql += ` HAVING ${rw.withClause('having clause', () => rw.expr(core.having!, scope).sql)}`;
  if (core.windows.length > 0) {
    sql += ` WINDOW ${core.windows.map((w) => `${quoteIdent(w.name)} AS ${rw.windowSpec(w.spec, scope)}`).join(', ')}`;
  }
  if (core.orderBy.length > 0) sql += ` ORDER BY ${rw.orderList(core.orderBy, scope, true)}`;
  if (core.limit) sql += limitClause(core.limit);
  return { sql, columns };
}

function groupTerm(rw: Rewriter, e: Expr, scope: Scope): string {
  if (e.kind === 'literal' && e.type === 'int') {
    const n = Number(e.value);
    if (n < 1 || n > scope.itemCount) throw mysqlErrors.unknownColumn(e.value, 'group statement');
    return e.value;
  }
  return rw.expr(e, scope).sql;
}

export function rewriteOrderList(rw: Rewriter, items: OrderItem[], scope: Scope, allowPositions: boolean): string {
  return rw.withClause('order clause', () =>
    items
      .map((o) => {
        let term: string;
        if (allowPositions && o.expr.kind === 'literal' && o.expr.type === 'int') {
          const n = Number(o.expr.value);
          if (n < 1 || n > scope.itemCount) throw mysqlErrors.unknownColumn(o.expr.value, 'order clause');
          term = o.expr.value;
        } else {
          const e = rw.expr(o.expr, scope);
          term = e.type.t === 'string' || e.type.t === 'unknown' ? (e.binary ? e.sql : `mysql_sortkey(${e.sql})`) : e.sql;
        }
        return o.desc ? `${term} DESC` : term;
      })
      .join(', '),
  );
}

export function rewriteWindowSpec(rw: Rewriter, spec: WindowSpec, scope: Scope): string {
  const parts: string[] = [];
  if (spec.name) parts.push(quoteIdent(spec.name));
  if (spec.partitionBy.length > 0) parts.push(`PARTITION BY ${spec.partitionBy.map((p) => rw.expr(p, scope).sql).join(', ')}`);
  if (spec.orderBy.length > 0) parts.push(`ORDER BY ${rw.orderList(spec.orderBy, scope, false)}`);
  if (spec.frame) parts.push(spec.frame);
  return `(${parts.join(' ')})`;
}

/**
 * `mysql_tick(…)` over one column of every source: it runs once per candidate row (SQLite cannot evaluate
 * it before all sources are bound), so a runaway statement keeps re-entering JS and can be cancelled.
 */
export function tickCall(sources: readonly Source[]): string {
  const refs = sources.filter((s) => s.columns.length > 0).map((s) => `${quoteIdent(s.qualifier)}.${quoteIdent(s.columns[0]!.name)}`);
  return `mysql_tick(${refs.join(', ')})`;
}
