import type { Expr } from '../ast.js';
import { MysqlError, mysqlErrors } from '../errors.js';
import { FUNCTIONS, WINDOW_AGGREGATES } from '../functions.js';
import { quoteIdent, quoteString } from '../sql-quote.js';
import { aggregateTypes, DATE, DATETIME, decimal, INT, isExact, scaleOf, STRING, UNKNOWN } from '../sql-types.js';
import { asText } from './rewrite-cast.js';
import type { Emitted, Rewriter } from './rewriter.js';
import type { Scope } from './scope.js';

const TIME_SPECIFIERS = /%[HhIiklrSsTfp]/;
const DAY_UNITS = new Set(['DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR', 'YEAR_MONTH']);
const SQLITE_ONLY_FUNCTIONS = new Set([
  'JULIANDAY', 'STRFTIME', 'PRINTF', 'TOTAL', 'TYPEOF', 'UNICODE', 'ZEROBLOB', 'RANDOMBLOB', 'LIKELIHOOD', 'LIKELY',
  'UNLIKELY', 'IIF', 'GLOB', 'SQLITE_VERSION', 'CHANGES', 'TOTAL_CHANGES', 'LAST_INSERT_ROWID', 'UNIXEPOCH',
]);

/**
 * Function calls: MySQL's functions mapped to their `mysql_*` implementations (see `../functions.ts`) with
 * MySQL's argument-count errors, the special forms (IF, COUNT, GROUP_CONCAT, date arithmetic), window
 * functions, and error 1305 for functions MySQL does not have.
 */
export function rewriteCall(rw: Rewriter, e: Extract<Expr, { kind: 'call' }>, scope: Scope): Emitted {
  const name = e.name;
  const written = e.written ?? e.name;
  const spec = FUNCTIONS[name];
  if (e.storedFunction) {
    throw new MysqlError(
      1630,
      '42000',
      `FUNCTION ${rw.database}.${written} does not exist. Check the 'Function Name Parsing and Resolution' section in the Reference Manual`,
    );
  }
  if (e.over !== undefined) return rewriteWindowCall(rw, e, scope);
  if (name === 'IF') {
    if (e.args.length !== 3) throw mysqlErrors.paramCount(written);
    const [c, a, b] = rw.exprs(e.args, scope) as [Emitted, Emitted, Emitted];
    return { sql: `(CASE WHEN ${c.sql} THEN ${a.sql} ELSE ${b.sql} END)`, type: aggregateTypes([a.type, b.type]) };
  }
  if (name === 'COUNT') {
    if (e.star) return { sql: 'count(*)', type: INT };
    if (e.args.length === 0) throw new MysqlError(1064, '42000', 'COUNT()');
    const args = rw.exprs(e.args, scope);
    if (args.length === 1) return { sql: `count(${e.distinct ? 'DISTINCT ' : ''}${args[0]!.sql})`, type: INT };
    if (!e.distinct) throw mysqlErrors.paramCount(written);
    const nullCheck = args.map((a) => `${a.sql} IS NULL`).join(' OR ');
    return { sql: `count(DISTINCT CASE WHEN ${nullCheck} THEN NULL ELSE mysql_concat_ws(char(31), ${args.map((a) => a.sql).join(', ')}) END)`, type: INT };
  }
  if (name === 'GROUP_CONCAT') {
    const args = rw.exprs(e.args, scope).map((a) => asText(a));
    const value = args.length === 1 ? args[0]! : `mysql_concat(${args.join(', ')})`;
    const fn = rw.ctx.groupConcat(e.separator ?? ',');
    const order = e.orderBy && e.orderBy.length > 0 ? ` ORDER BY ${rw.orderList(e.orderBy, scope, false)}` : '';
    return { sql: `${fn}(${e.distinct ? 'DISTINCT ' : ''}${value}${order})`, type: STRING };
  }
  if (['DATE_ADD', 'DATE_SUB', 'ADDDATE', 'SUBDATE'].includes(name)) {
    if (e.args.length !== 2) throw mysqlErrors.paramCount(written);
    const sign = name === 'DATE_SUB' || name === 'SUBDATE' ? -1 : 1;
    const base = rw.expr(e.args[0]!, scope);
    const second = e.args[1]!;
    if (second.kind === 'interval') return rewriteDateAdd(base, rw.expr(second.expr, scope), second.unit, sign);
    return rewriteDateAdd(base, rw.expr(second, scope), 'DAY', sign);
  }
  if (name === 'TIMESTAMPADD') {
    const [unit, amount, base] = e.args as [Expr, Expr, Expr];
    return rewriteDateAdd(rw.expr(base, scope), rw.expr(amount, scope), unit.kind === 'literal' ? unit.value : 'DAY', 1);
  }
  if (!spec) {
    if (SQLITE_ONLY_FUNCTIONS.has(name) || /^MYSQL_/.test(name)) throw mysqlErrors.functionMissing(rw.database, written);
    const args = rw.exprs(e.args, scope);
    return { sql: `${name.toLowerCase()}(${e.distinct ? 'DISTINCT ' : ''}${e.star ? '*' : args.map((a) => a.sql).join(', ')})`, type: UNKNOWN };
  }
  const count = e.star ? 1 : e.args.length;
  if (count < spec.min || count > spec.max) throw mysqlErrors.paramCount(written);
  if (e.star) throw new MysqlError(1064, '42000', `${written}(*)`);
  const args = rw.exprs(e.args, scope);
  const types = args.map((a) => a.type);
  let argSql = args.map((a) => (spec.stringArgs ? asText(a) : a.sql));
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

function rewriteWindowCall(rw: Rewriter, e: Extract<Expr, { kind: 'call' }>, scope: Scope): Emitted {
  const spec = FUNCTIONS[e.name];
  const args = rw.exprs(e.args, scope);
  const fn = WINDOW_AGGREGATES[e.name] ?? (spec?.window ? spec.sqlite : null);
  if (!fn) throw mysqlErrors.functionMissing(rw.database, e.name);
  const over = typeof e.over === 'string' ? quoteIdent(e.over) : rw.windowSpec(e.over!, scope);
  const argText = e.star ? '*' : `${e.distinct ? 'DISTINCT ' : ''}${args.map((a) => a.sql).join(', ')}`;
  const type = spec ? spec.type(args.map((a) => a.type)) : UNKNOWN;
  return { sql: `${fn}(${argText}) OVER ${over}`, type };
}

export function rewriteDateAdd(base: Emitted, amount: Emitted, unit: string, sign: number): Emitted {
  const type = DAY_UNITS.has(unit) ? (base.type.t === 'date' ? DATE : base.type.t === 'datetime' ? DATETIME : STRING) : base.type.t === 'date' || base.type.t === 'datetime' ? DATETIME : STRING;
  return { sql: `mysql_date_add(${base.sql}, ${amount.sql}, ${quoteString(unit)}, ${sign})`, type };
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
