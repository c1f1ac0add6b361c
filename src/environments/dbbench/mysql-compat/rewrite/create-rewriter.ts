import { mysqlErrors } from '../errors.js';
import { rewriteExpression } from './rewrite-expression.js';
import { rewriteOrderList, rewriteQuery, rewriteWindowSpec } from './rewrite-query.js';
import type { RewriteContext, Rewriter } from './rewriter.js';

/** A {@link Rewriter} for one statement: clause 'field list', alias counter at zero. */
export function createRewriter(ctx: RewriteContext): Rewriter {
  let clause = 'field list';
  let counter = 0;
  const rw: Rewriter = {
    ctx,
    get database() {
      return ctx.catalog.database;
    },
    get clause() {
      return clause;
    },
    withClause(next, fn) {
      const saved = clause;
      clause = next;
      try {
        return fn();
      } finally {
        clause = saved;
      }
    },
    fresh(prefix) {
      counter += 1;
      return `${prefix}${counter}`;
    },
    table(name) {
      const t = ctx.catalog.tables.get(name);
      if (!t) throw mysqlErrors.noSuchTable(rw.database, name);
      return t;
    },
    expr: (e, scope) => rewriteExpression(rw, e, scope),
    exprs: (list, scope) => list.map((e) => rewriteExpression(rw, e, scope)),
    query: (q, parent, ctes, opts) => rewriteQuery(rw, q, parent, ctes, opts),
    orderList: (items, scope, allowPositions) => rewriteOrderList(rw, items, scope, allowPositions),
    windowSpec: (spec, scope) => rewriteWindowSpec(rw, spec, scope),
  };
  return rw;
}
