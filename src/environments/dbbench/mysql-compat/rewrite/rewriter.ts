import type { Expr, OrderItem, Query, WindowSpec } from '../ast.js';
import type { Catalog, CatalogTable } from '../catalog.js';
import type { SqlType } from '../sql-types.js';
import type { SqlValue } from '../udf/sql-value.js';
import type { CteInfo, OutColumn, Scope } from './scope.js';

export interface RewriteContext {
  catalog: Catalog;
  /** The UDF implementing GROUP_CONCAT with this separator (registered on demand). */
  groupConcat: (separator: string) => string;
  /** User variables set with `SET @x = …` (lower-case names). */
  variables: Map<string, SqlValue>;
}

/** A rewritten expression: its SQLite SQL, the MySQL type of its value, and whether it compares as binary. */
export interface Emitted {
  sql: string;
  type: SqlType;
  binary?: boolean;
}

export interface QueryOptions {
  /** Name unaliased expression columns after their source text, as MySQL does (derived tables, CTEs, subqueries). */
  aliasItems: boolean;
  /** Alias the leftmost select's items `_c1`, `_c2`, … (INSERT … SELECT). */
  positionalAliases?: boolean;
}

/** A rewritten query and its result columns. */
export interface RewrittenQuery {
  sql: string;
  columns: OutColumn[];
}

/**
 * One statement's rewrite in progress: its state (the current clause, the alias counter) and the entry
 * points the parts of the rewriter use to recurse into each other. The parts are free functions in this
 * folder that call each other only through this object, which `create-rewriter.ts` wires up.
 */
export interface Rewriter {
  readonly ctx: RewriteContext;
  readonly database: string;
  /** The clause being rewritten, as MySQL names it in errors ('field list', 'where clause', …). */
  readonly clause: string;
  withClause<T>(clause: string, fn: () => T): T;
  /** A new alias with this prefix (`_s1`, `_u2`, …), unique within the statement. */
  fresh(prefix: string): string;
  /** A table of the episode database, or MySQL's error 1146. */
  table(name: string): CatalogTable;
  expr(e: Expr, scope: Scope): Emitted;
  exprs(list: Expr[], scope: Scope): Emitted[];
  query(q: Query, parent: Scope | null, ctes: Map<string, CteInfo>, opts: QueryOptions): RewrittenQuery;
  orderList(items: OrderItem[], scope: Scope, allowPositions: boolean): string;
  windowSpec(spec: WindowSpec, scope: Scope): string;
}
