import type { Expr, Query, SelectCore, SetBody, Statement, TableRef } from '../ast.js';
import { FUNCTIONS } from '../functions.js';

/** Facts read off the parsed statement without rewriting it: tables read, subquery shapes, aggregates. */

export function isExpr(v: unknown): v is Expr {
  return typeof v === 'object' && v !== null && 'kind' in v && 'span' in v;
}

export function isWhen(v: unknown): v is { when: Expr; then: Expr } {
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
export function subqueryTables(e: Expr): Set<string> {
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

export function collectTables(s: Statement): string[] {
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

export function hasLimit(q: Query): boolean {
  return q.limit !== undefined || (q.body.kind === 'select' && q.body.limit !== undefined);
}

export function containsAggregate(e: Expr): boolean {
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
export function isSingleRow(q: Query): boolean {
  const limit = q.limit ?? (q.body.kind === 'select' ? q.body.limit : undefined);
  if (limit && limit.count.kind === 'literal' && Number(limit.count.value) <= 1) return true;
  if (q.body.kind !== 'select') return false;
  const core = q.body;
  if (core.from.length === 0 && !core.where) return true;
  return core.groupBy.length === 0 && core.items.some((i) => containsAggregate(i.expr)) && !core.having;
}

export function firstCore(body: SetBody): SelectCore {
  if (body.kind === 'compound') return firstCore(body.left);
  if (body.kind === 'paren') return firstCore(body.query.body);
  return body;
}

export function firstCoreNames(body: SetBody): string[] {
  return firstCore(body).items.map((i) => i.alias ?? (i.expr.kind === 'column' ? i.expr.name : i.text));
}
