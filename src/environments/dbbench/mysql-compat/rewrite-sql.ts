import type { Expr, Query, Statement } from './ast.js';
import { MysqlError } from './errors.js';
import { createRewriter } from './rewrite/create-rewriter.js';
import { collectTables } from './rewrite/inspect-ast.js';
import { rewriteDelete, rewriteInsert, rewriteUpdate } from './rewrite/rewrite-dml.js';
import type { RewriteContext, Rewriter } from './rewrite/rewriter.js';
import type { SqlType } from './sql-types.js';

export type { RewriteContext } from './rewrite/rewriter.js';

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

export type Rewrite =
  | { kind: 'sql'; sql: string; columnTypes: SqlType[] | null; mutates: boolean }
  | { kind: 'explain'; tables: string[] };

/** Rewrites one parsed statement; throws {@link MysqlError} for the errors MySQL would raise. */
export function rewriteStatement(statement: Statement, ctx: RewriteContext): Rewrite {
  return rewriteWith(createRewriter(ctx), statement);
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

function rewriteWith(rw: Rewriter, s: Statement): Rewrite {
  switch (s.kind) {
    case 'query': {
      const out = rw.query(s.query, null, new Map(), { aliasItems: false });
      return { kind: 'sql', sql: out.sql, columnTypes: out.columns.map((c) => c.type), mutates: false };
    }
    case 'insert':
      return { kind: 'sql', sql: rewriteInsert(rw, s), columnTypes: null, mutates: true };
    case 'update':
      return { kind: 'sql', sql: rewriteUpdate(rw, s), columnTypes: null, mutates: true };
    case 'delete':
      return { kind: 'sql', sql: rewriteDelete(rw, s), columnTypes: null, mutates: true };
    case 'explain':
      // Rewriting the inner statement checks its names, as EXPLAIN does; it is not run.
      rewriteWith(rw, s.statement);
      return { kind: 'explain', tables: collectTables(s.statement) };
    default:
      throw new MysqlError(1064, '42000', `cannot rewrite ${s.kind}`);
  }
}
