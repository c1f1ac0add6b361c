import type { Expr, OrderItem, Query, SetBody, Statement, TableRef } from './ast.js';
import type { ParseResult } from './parse-statement.js';

/**
 * Whether a parsed statement's cost is bounded by the rows it visits, so that the per-row tick of the
 * rewritten SQL (see `rewrite-query.ts`) can stop it within a few milliseconds wherever it runs. Such a
 * statement may be tried in the calling thread under a short budget before it goes to a database
 * process (`sqlite-backend.ts`). The rule is a whitelist, decided on the parsed form before anything runs:
 * - statements: queries, INSERT / UPDATE / DELETE, the SHOW forms answered from the catalog, USE, and
 *   statements that do not parse (their error costs nothing). Not DDL, statements passed through
 *   unparsed, SET, transactions, EXPLAIN, SHOW TABLE STATUS, nor anything with a WITH clause. (Repeated
 *   writes could grow a value until one call on it outlasts any budget: the caller checks the table's
 *   size after each write, see `SqliteEngine.executeBounded`.)
 * - functions: those whose work and result grow at most linearly with their arguments (no REPEAT, LPAD,
 *   REPLACE, HEX, …: nested, they grow without bound in one call), nothing windowed (OVER), no REGEXP;
 * - LIKE only on a column or a literal, with a literal pattern of at most 256 characters whose regular
 *   expression matches in linear time: at most one `%`, or two with the second at the end (`%a%`, `a%b%`;
 *   not `%a%b`, which backtracks quadratically). On a computed value of megabytes even a linear match
 *   against a long pattern is one call no tick can stop;
 * - no assignment to a variable inside an expression (`:=`).
 * Every value a bounded statement sees is then a cell of the table (whose size the caller bounds) or one
 * computed from cells by the statement, whose size the statement's length and the rows it visits bound.
 * Anything else is not bounded: it runs in a database process, as every statement did before.
 */
export function isBoundedStatement(parsed: ParseResult): boolean {
  switch (parsed.kind) {
    case 'syntax-error':
      return true;
    case 'ddl':
    case 'unsupported':
      return false;
    case 'statement':
      return boundedStatement(parsed.statement);
  }
}

/**
 * Functions whose cost and result are at most linear in their arguments (aggregates: in the rows). Not the
 * searches for one argument inside another (LOCATE, INSTR, SUBSTRING_INDEX), which can cost the product of
 * their lengths in one call.
 */
export const BOUNDED_FUNCTIONS: ReadonlySet<string> = new Set([
  // aggregates
  'COUNT', 'SUM', 'AVG', 'MIN', 'MAX', 'GROUP_CONCAT', 'ANY_VALUE', 'STD', 'STDDEV', 'STDDEV_POP', 'STDDEV_SAMP', 'VARIANCE', 'VAR_POP', 'VAR_SAMP',
  // strings
  'CONCAT', 'CONCAT_WS', 'LENGTH', 'OCTET_LENGTH', 'CHAR_LENGTH', 'CHARACTER_LENGTH', 'BIT_LENGTH', 'LOWER', 'LCASE', 'UPPER', 'UCASE',
  'SUBSTRING', 'SUBSTR', 'MID', 'LEFT', 'RIGHT', 'TRIM', 'LTRIM', 'RTRIM', 'REVERSE', 'FIELD',
  'FIND_IN_SET', 'STRCMP', 'ASCII', 'ORD', 'MD5', 'SHA1', 'SHA', 'SHA2',
  // numbers
  'ABS', 'SIGN', 'CEIL', 'CEILING', 'FLOOR', 'ROUND', 'TRUNCATE', 'MOD', 'SQRT', 'POW', 'POWER', 'EXP', 'LN', 'LOG', 'LOG2', 'LOG10', 'PI',
  'DEGREES', 'RADIANS', 'SIN', 'COS', 'TAN', 'GREATEST', 'LEAST',
  // control flow
  'IF', 'IFNULL', 'COALESCE', 'NULLIF', 'ISNULL',
  // dates (the clock-reading ones excepted)
  'DATE', 'TIME', 'TIMESTAMP', 'YEAR', 'MONTH', 'DAY', 'DAYOFMONTH', 'HOUR', 'MINUTE', 'SECOND', 'QUARTER', 'WEEK', 'DAYOFWEEK', 'WEEKDAY',
  'DAYOFYEAR', 'DAYNAME', 'MONTHNAME', 'LAST_DAY', 'TO_DAYS', 'DATEDIFF', 'TIMESTAMPDIFF', 'STR_TO_DATE', 'DATE_FORMAT', 'FROM_UNIXTIME', 'EXTRACT',
  // session information
  'DATABASE', 'SCHEMA', 'VERSION', 'USER', 'CURRENT_USER', 'SESSION_USER', 'SYSTEM_USER', 'CONNECTION_ID', 'LAST_INSERT_ID', 'ROW_COUNT', 'FOUND_ROWS',
]);


function boundedStatement(s: Statement): boolean {
  switch (s.kind) {
    case 'query':
      return boundedQuery(s.query);
    case 'insert':
      if (s.source.kind === 'values') return s.source.rows.every((row) => row.every(boundedExpr));
      if (s.source.kind === 'set') return s.source.assignments.every((a) => boundedExpr(a.value));
      return boundedQuery(s.source.query);
    case 'update':
      return boundedTable(s.table) && s.assignments.every((a) => boundedExpr(a.value)) && optional(s.where) && boundedOrder(s.orderBy) && optional(s.limit);
    case 'delete':
      return optional(s.where) && boundedOrder(s.orderBy) && optional(s.limit);
    case 'show-tables':
      return optional(s.where);
    case 'show-columns':
    case 'show-create-table':
    case 'show-databases':
    case 'show-index':
    case 'use':
      return true;
    case 'show-table-status':
    case 'show-other':
    case 'set-variables':
    case 'transaction':
    case 'explain':
      return false;
  }
}

function boundedQuery(q: Query): boolean {
  return q.with === undefined && boundedBody(q.body) && boundedOrder(q.orderBy) && boundedLimit(q.limit);
}

function boundedBody(b: SetBody): boolean {
  switch (b.kind) {
    case 'select':
      return (
        b.windows.length === 0 &&
        b.items.every((item) => boundedExpr(item.expr)) &&
        b.from.every(boundedTable) &&
        optional(b.where) &&
        b.groupBy.every(boundedExpr) &&
        optional(b.having) &&
        boundedOrder(b.orderBy) &&
        boundedLimit(b.limit)
      );
    case 'compound':
      return boundedBody(b.left) && boundedBody(b.right);
    case 'paren':
      return boundedQuery(b.query);
  }
}

function boundedTable(t: TableRef): boolean {
  switch (t.kind) {
    case 'table':
      return true;
    case 'derived':
      return boundedQuery(t.query);
    case 'join':
      return boundedTable(t.left) && boundedTable(t.right) && optional(t.on);
  }
}

function boundedOrder(items: readonly OrderItem[]): boolean {
  return items.every((item) => boundedExpr(item.expr));
}

function boundedLimit(limit: { count: Expr; offset?: Expr } | undefined): boolean {
  return limit === undefined || (boundedExpr(limit.count) && optional(limit.offset));
}

function optional(e: Expr | undefined): boolean {
  return e === undefined || boundedExpr(e);
}

/** The longest LIKE pattern admitted: its match against a cell of at most 4 KiB stays far below the budget. */
export const MAX_LIKE_PATTERN = 256;

function boundedLike(subject: Expr, pattern: Expr, escape: Expr | undefined): boolean {
  if (subject.kind !== 'column' && subject.kind !== 'literal') return false;
  if (pattern.kind !== 'literal' || pattern.type !== 'string' || pattern.value.length > MAX_LIKE_PATTERN) return false;
  if (escape !== undefined && escape.kind !== 'literal') return false;
  const wildcards = pattern.value.split('%').length - 1;
  return wildcards <= 1 || (wildcards === 2 && pattern.value.endsWith('%'));
}

function boundedExpr(e: Expr): boolean {
  switch (e.kind) {
    case 'literal':
    case 'column':
    case 'star':
    case 'variable':
    case 'default':
      return true;
    case 'unary':
    case 'is':
    case 'cast':
    case 'interval':
    case 'collate':
      return boundedExpr(e.expr);
    case 'binary':
      return e.op !== ':=' && boundedExpr(e.left) && boundedExpr(e.right);
    case 'between':
      return boundedExpr(e.expr) && boundedExpr(e.low) && boundedExpr(e.high);
    case 'in-list':
      return boundedExpr(e.expr) && e.list.every(boundedExpr);
    case 'in-query':
    case 'quantified':
      return boundedExpr(e.expr) && boundedQuery(e.query);
    case 'exists':
    case 'subquery':
      return boundedQuery(e.query);
    case 'like':
      return boundedLike(e.expr, e.pattern, e.escape);
    case 'regexp':
      return false;
    case 'call':
      return (
        e.over === undefined &&
        e.storedFunction !== true &&
        BOUNDED_FUNCTIONS.has(e.name.toUpperCase()) &&
        e.args.every(boundedExpr) &&
        boundedOrder(e.orderBy ?? [])
      );
    case 'case':
      return optional(e.operand) && e.whens.every((w) => boundedExpr(w.when) && boundedExpr(w.then)) && optional(e.else);
    case 'row':
      return e.items.every(boundedExpr);
  }
}

/** Whether a bounded statement writes (the caller then checks how large the table has grown). */
export function isWrite(parsed: ParseResult): boolean {
  return parsed.kind === 'statement' && (parsed.statement.kind === 'insert' || parsed.statement.kind === 'update' || parsed.statement.kind === 'delete');
}
