import type Database from 'better-sqlite3';

import { singleRowError, udfError } from './errors.js';
import { aggregateTypes, DATE, DATETIME, decimal, DOUBLE, INT, isExact, scaleOf, STRING, TIME, UNKNOWN, type SqlType } from './sql-types.js';
import * as udf from './udf/index.js';
import type { SqlValue } from './udf/index.js';

/**
 * The MySQL functions the rewriter knows: how many arguments each takes, what MySQL type it returns, and
 * which SQLite function implements it (a UDF registered by {@link registerMysqlFunctions}, or a built-in
 * whose semantics already match). Functions not listed here are passed through unchanged and fail as
 * unknown functions when SQLite does not have them either.
 */
export interface FunctionSpec {
  sqlite: string;
  min: number;
  max: number;
  type: (args: readonly SqlType[]) => SqlType;
  /** Decimal-typed arguments are turned into text with their scale first (string functions). */
  stringArgs?: boolean;
  aggregate?: boolean;
  /** Window-only functions (ROW_NUMBER, RANK, …): emitted as SQLite's built-ins. */
  window?: boolean;
}

const fixed = (type: SqlType) => () => type;
const first = (args: readonly SqlType[]): SqlType => args[0] ?? UNKNOWN;
const numericOf = (t: SqlType): SqlType => (isExact(t) ? t : t.t === 'unknown' ? UNKNOWN : DOUBLE);
const MANY = Number.POSITIVE_INFINITY;

const spec = (sqlite: string, min: number, max: number, type: FunctionSpec['type'], extra: Partial<FunctionSpec> = {}): FunctionSpec => ({
  sqlite,
  min,
  max,
  type,
  ...extra,
});
const str = (sqlite: string, min: number, max: number, type: FunctionSpec['type'] = fixed(STRING)): FunctionSpec =>
  spec(sqlite, min, max, type, { stringArgs: true });

export const FUNCTIONS: Record<string, FunctionSpec> = {
  // strings
  CONCAT: str('mysql_concat', 1, MANY),
  CONCAT_WS: str('mysql_concat_ws', 2, MANY),
  LENGTH: str('mysql_length', 1, 1, fixed(INT)),
  OCTET_LENGTH: str('mysql_length', 1, 1, fixed(INT)),
  CHAR_LENGTH: str('mysql_char_length', 1, 1, fixed(INT)),
  CHARACTER_LENGTH: str('mysql_char_length', 1, 1, fixed(INT)),
  BIT_LENGTH: str('mysql_bit_length', 1, 1, fixed(INT)),
  LOWER: str('mysql_lower', 1, 1),
  LCASE: str('mysql_lower', 1, 1),
  UPPER: str('mysql_upper', 1, 1),
  UCASE: str('mysql_upper', 1, 1),
  SUBSTRING: str('mysql_substring', 2, 3),
  SUBSTR: str('mysql_substring', 2, 3),
  MID: str('mysql_substring', 3, 3),
  LEFT: str('mysql_left', 2, 2),
  RIGHT: str('mysql_right', 2, 2),
  TRIM: str('mysql_trim', 2, 3),
  LTRIM: str('mysql_ltrim', 1, 1),
  RTRIM: str('mysql_rtrim', 1, 1),
  REPLACE: str('mysql_replace', 3, 3),
  REVERSE: str('mysql_reverse', 1, 1),
  REPEAT: str('mysql_repeat', 2, 2),
  SPACE: spec('mysql_space', 1, 1, fixed(STRING)),
  LPAD: str('mysql_lpad', 3, 3),
  RPAD: str('mysql_rpad', 3, 3),
  SUBSTRING_INDEX: str('mysql_substring_index', 3, 3),
  LOCATE: str('mysql_locate', 2, 3, fixed(INT)),
  INSTR: str('mysql_instr', 2, 2, fixed(INT)),
  FIELD: str('mysql_field', 2, MANY, fixed(INT)),
  FIND_IN_SET: str('mysql_find_in_set', 2, 2, fixed(INT)),
  STRCMP: str('mysql_strcmp', 2, 2, fixed(INT)),
  ASCII: str('mysql_ascii', 1, 1, fixed(INT)),
  ORD: str('mysql_ascii', 1, 1, fixed(INT)),
  FORMAT: spec('mysql_format', 2, 3, fixed(STRING)),
  MD5: str('mysql_md5', 1, 1),
  SHA1: str('mysql_sha1', 1, 1),
  SHA: str('mysql_sha1', 1, 1),
  SHA2: str('mysql_sha2', 2, 2),
  HEX: str('mysql_hex', 1, 1),
  QUOTE: str('mysql_quote', 1, 1),
  ELT: str('mysql_elt', 2, MANY, (a) => aggregateTypes(a.slice(1))),
  INSERT: str('mysql_insert', 4, 4),
  REGEXP_LIKE: str('mysql_regexp_like', 2, 3, fixed(INT)),
  REGEXP_REPLACE: str('mysql_regexp_replace', 3, 3),
  REGEXP_SUBSTR: str('mysql_regexp_substr', 2, 2),
  REGEXP_INSTR: str('mysql_regexp_instr', 2, 2, fixed(INT)),
  // numbers
  ABS: spec('mysql_abs', 1, 1, (a) => numericOf(first(a))),
  SIGN: spec('mysql_sign', 1, 1, fixed(INT)),
  CEIL: spec('mysql_ceil', 1, 1, (a) => (isExact(first(a)) ? INT : DOUBLE)),
  CEILING: spec('mysql_ceil', 1, 1, (a) => (isExact(first(a)) ? INT : DOUBLE)),
  FLOOR: spec('mysql_floor', 1, 1, (a) => (isExact(first(a)) ? INT : DOUBLE)),
  ROUND: spec('mysql_round', 1, 2, (a) => numericOf(first(a))),
  TRUNCATE: spec('mysql_truncate', 2, 2, (a) => numericOf(first(a))),
  MOD: spec('mysql_mod', 2, 2, (a) => (a.every(isExact) ? (a.every((t) => t.t === 'int') ? INT : decimal(Math.max(...a.map(scaleOf)))) : DOUBLE)),
  SQRT: spec('mysql_sqrt', 1, 1, fixed(DOUBLE)),
  POW: spec('mysql_pow', 2, 2, fixed(DOUBLE)),
  POWER: spec('mysql_pow', 2, 2, fixed(DOUBLE)),
  EXP: spec('mysql_exp', 1, 1, fixed(DOUBLE)),
  LN: spec('mysql_ln', 1, 1, fixed(DOUBLE)),
  LOG: spec('mysql_log', 1, 2, fixed(DOUBLE)),
  LOG2: spec('mysql_log2', 1, 1, fixed(DOUBLE)),
  LOG10: spec('mysql_log10', 1, 1, fixed(DOUBLE)),
  PI: spec('mysql_pi', 0, 0, fixed(DOUBLE)),
  RAND: spec('mysql_rand', 0, 1, fixed(DOUBLE)),
  DEGREES: spec('mysql_degrees', 1, 1, fixed(DOUBLE)),
  RADIANS: spec('mysql_radians', 1, 1, fixed(DOUBLE)),
  SIN: spec('mysql_sin', 1, 1, fixed(DOUBLE)),
  COS: spec('mysql_cos', 1, 1, fixed(DOUBLE)),
  TAN: spec('mysql_tan', 1, 1, fixed(DOUBLE)),
  GREATEST: spec('mysql_greatest', 2, MANY, (a) => aggregateTypes(a)),
  LEAST: spec('mysql_least', 2, MANY, (a) => aggregateTypes(a)),
  // control flow (IF and CASE are rewritten to CASE by the emitter)
  IFNULL: spec('ifnull', 2, 2, (a) => aggregateTypes(a)),
  COALESCE: spec('coalesce', 1, MANY, (a) => aggregateTypes(a)),
  NULLIF: spec('mysql_nullif', 2, 2, first),
  ISNULL: spec('mysql_isnull', 1, 1, fixed(INT)),
  // dates
  NOW: spec('mysql_now', 0, 1, fixed(DATETIME)),
  SYSDATE: spec('mysql_now', 0, 1, fixed(DATETIME)),
  CURRENT_TIMESTAMP: spec('mysql_now', 0, 1, fixed(DATETIME)),
  LOCALTIME: spec('mysql_now', 0, 1, fixed(DATETIME)),
  LOCALTIMESTAMP: spec('mysql_now', 0, 1, fixed(DATETIME)),
  UTC_TIMESTAMP: spec('mysql_now', 0, 1, fixed(DATETIME)),
  CURDATE: spec('mysql_curdate', 0, 0, fixed(DATE)),
  CURRENT_DATE: spec('mysql_curdate', 0, 0, fixed(DATE)),
  UTC_DATE: spec('mysql_curdate', 0, 0, fixed(DATE)),
  CURTIME: spec('mysql_curtime', 0, 1, fixed(TIME)),
  CURRENT_TIME: spec('mysql_curtime', 0, 1, fixed(TIME)),
  UTC_TIME: spec('mysql_curtime', 0, 1, fixed(TIME)),
  DATE: spec('mysql_date', 1, 1, fixed(DATE)),
  TIME: spec('mysql_time', 1, 1, fixed(TIME)),
  TIMESTAMP: spec('mysql_datetime', 1, 1, fixed(DATETIME)),
  YEAR: spec('mysql_year', 1, 1, fixed(INT)),
  MONTH: spec('mysql_month', 1, 1, fixed(INT)),
  DAY: spec('mysql_day', 1, 1, fixed(INT)),
  DAYOFMONTH: spec('mysql_day', 1, 1, fixed(INT)),
  HOUR: spec('mysql_hour', 1, 1, fixed(INT)),
  MINUTE: spec('mysql_minute', 1, 1, fixed(INT)),
  SECOND: spec('mysql_second', 1, 1, fixed(INT)),
  QUARTER: spec('mysql_quarter', 1, 1, fixed(INT)),
  WEEK: spec('mysql_week', 1, 2, fixed(INT)),
  DAYOFWEEK: spec('mysql_dayofweek', 1, 1, fixed(INT)),
  WEEKDAY: spec('mysql_weekday', 1, 1, fixed(INT)),
  DAYOFYEAR: spec('mysql_dayofyear', 1, 1, fixed(INT)),
  DAYNAME: spec('mysql_dayname', 1, 1, fixed(STRING)),
  MONTHNAME: spec('mysql_monthname', 1, 1, fixed(STRING)),
  LAST_DAY: spec('mysql_last_day', 1, 1, fixed(DATE)),
  TO_DAYS: spec('mysql_to_days', 1, 1, fixed(INT)),
  DATEDIFF: spec('mysql_datediff', 2, 2, fixed(INT)),
  TIMESTAMPDIFF: spec('mysql_timestampdiff', 3, 3, fixed(INT)),
  STR_TO_DATE: spec('mysql_str_to_date', 2, 2, fixed(DATE)),
  DATE_FORMAT: spec('mysql_date_format', 2, 2, fixed(STRING)),
  UNIX_TIMESTAMP: spec('mysql_unix_timestamp', 0, 1, fixed(INT)),
  FROM_UNIXTIME: spec('mysql_from_unixtime', 1, 1, fixed(DATETIME)),
  EXTRACT: spec('mysql_extract', 2, 2, fixed(INT)),
  // information
  DATABASE: spec('mysql_database', 0, 0, fixed(STRING)),
  SCHEMA: spec('mysql_database', 0, 0, fixed(STRING)),
  VERSION: spec('mysql_version', 0, 0, fixed(STRING)),
  USER: spec('mysql_user', 0, 0, fixed(STRING)),
  CURRENT_USER: spec('mysql_user', 0, 0, fixed(STRING)),
  SESSION_USER: spec('mysql_user', 0, 0, fixed(STRING)),
  SYSTEM_USER: spec('mysql_user', 0, 0, fixed(STRING)),
  CONNECTION_ID: spec('mysql_connection_id', 0, 0, fixed(INT)),
  LAST_INSERT_ID: spec('mysql_zero', 0, 1, fixed(INT)),
  ROW_COUNT: spec('mysql_row_count', 0, 0, fixed(INT)),
  FOUND_ROWS: spec('mysql_found_rows', 0, 0, fixed(INT)),
  // aggregates (COUNT and GROUP_CONCAT are emitted specially)
  SUM: spec('mysql_sum', 1, 1, (a) => (isExact(first(a)) ? decimal(scaleOf(first(a))) : DOUBLE), { aggregate: true }),
  AVG: spec('mysql_avg', 1, 1, (a) => (isExact(first(a)) ? decimal(scaleOf(first(a)) + 4) : DOUBLE), { aggregate: true }),
  MIN: spec('mysql_min', 1, 1, first, { aggregate: true }),
  MAX: spec('mysql_max', 1, 1, first, { aggregate: true }),
  COUNT: spec('count', 0, MANY, fixed(INT), { aggregate: true }),
  GROUP_CONCAT: spec('mysql_group_concat', 1, MANY, fixed(STRING), { aggregate: true }),
  ANY_VALUE: spec('mysql_any_value', 1, 1, first, { aggregate: true }),
  STD: spec('mysql_stddev_pop', 1, 1, fixed(DOUBLE), { aggregate: true }),
  STDDEV: spec('mysql_stddev_pop', 1, 1, fixed(DOUBLE), { aggregate: true }),
  STDDEV_POP: spec('mysql_stddev_pop', 1, 1, fixed(DOUBLE), { aggregate: true }),
  STDDEV_SAMP: spec('mysql_stddev_samp', 1, 1, fixed(DOUBLE), { aggregate: true }),
  VARIANCE: spec('mysql_var_pop', 1, 1, fixed(DOUBLE), { aggregate: true }),
  VAR_POP: spec('mysql_var_pop', 1, 1, fixed(DOUBLE), { aggregate: true }),
  VAR_SAMP: spec('mysql_var_samp', 1, 1, fixed(DOUBLE), { aggregate: true }),
  // window functions
  ROW_NUMBER: spec('row_number', 0, 0, fixed(INT), { window: true }),
  RANK: spec('rank', 0, 0, fixed(INT), { window: true }),
  DENSE_RANK: spec('dense_rank', 0, 0, fixed(INT), { window: true }),
  NTILE: spec('ntile', 1, 1, fixed(INT), { window: true }),
  PERCENT_RANK: spec('percent_rank', 0, 0, fixed(DOUBLE), { window: true }),
  CUME_DIST: spec('cume_dist', 0, 0, fixed(DOUBLE), { window: true }),
  LAG: spec('lag', 1, 3, first, { window: true }),
  LEAD: spec('lead', 1, 3, first, { window: true }),
  FIRST_VALUE: spec('first_value', 1, 1, first, { window: true }),
  LAST_VALUE: spec('last_value', 1, 1, first, { window: true }),
  NTH_VALUE: spec('nth_value', 2, 2, first, { window: true }),
};

/** SQLite built-ins used when an aggregate carries an OVER clause (UDF aggregates cannot be windowed). */
export const WINDOW_AGGREGATES: Record<string, string> = { SUM: 'sum', AVG: 'avg', MIN: 'min', MAX: 'max', COUNT: 'count' };

/** Per-connection values some functions report. */
export interface FunctionContext {
  database: string;
  connectionId: number;
  rowCount: () => number;
  foundRows: () => number;
  /** Called once per candidate row by the rewritten SQL; throws to cancel the running statement. */
  tick: () => void;
}

const MYSQL_VERSION = '8.0.36';

type Fn = (...args: SqlValue[]) => unknown;

function intResult(fn: Fn): Fn {
  return (...args) => {
    const r = fn(...args);
    return typeof r === 'number' && Number.isInteger(r) ? BigInt(r) : r;
  };
}

function math(fn: (x: number) => number): Fn {
  return (x) => {
    const v = udf.toNum(x ?? null);
    if (v === null) return null;
    const r = fn(v);
    return Number.isFinite(r) ? r : null;
  };
}

interface AggregateSpec<S> {
  start: () => S;
  step: (state: S, value: SqlValue) => S;
  inverse?: (state: S, value: SqlValue) => S;
  result: (state: S) => unknown;
}

/** Where the functions are defined: a connection, or something that records the definitions for later (`lazy-functions.ts`). */
export type FunctionTarget = Pick<Database.Database, 'function' | 'aggregate'>;

/** better-sqlite3's typings want one type for the state and the row value; this keeps both honest. */
function defineAggregate<S>(db: FunctionTarget, name: string, agg: AggregateSpec<S>): void {
  db.aggregate(name, { ...agg, safeIntegers: true } as unknown as Parameters<Database.Database['aggregate']>[1]);
}

interface Accumulator {
  values: number[];
  sum: number;
  count: number;
}

function numericAggregate(db: FunctionTarget, name: string, result: (acc: Accumulator) => number | null): void {
  defineAggregate<Accumulator>(db, name, {
    start: () => ({ values: [], sum: 0, count: 0 }),
    step: (acc: Accumulator, v: SqlValue) => {
      const n = udf.toNum(v);
      if (n !== null) {
        acc.sum += n;
        acc.count += 1;
        acc.values.push(n);
      }
      return acc;
    },
    inverse: (acc: Accumulator, v: SqlValue) => {
      const n = udf.toNum(v);
      if (n !== null) {
        acc.sum -= n;
        acc.count -= 1;
        acc.values.splice(acc.values.indexOf(n), 1);
      }
      return acc;
    },
    result: (acc: Accumulator) => (acc.count === 0 ? null : result(acc)),
  });
}

function variance(acc: Accumulator, sample: boolean): number | null {
  const n = acc.values.length;
  if (sample && n < 2) return null;
  const mean = acc.sum / n;
  const ss = acc.values.reduce((s, v) => s + (v - mean) ** 2, 0);
  return ss / (sample ? n - 1 : n);
}

const GROUP_CONCAT_MAX_LEN = 1024;

/** Registers `mysql_group_concat_<n>` for one separator and returns its name. */
export function registerGroupConcat(db: Database.Database, registry: Map<string, string>, separator: string): string {
  const existing = registry.get(separator);
  if (existing) return existing;
  const name = `mysql_group_concat_${registry.size}`;
  defineAggregate<string[]>(db, name, {
    start: () => [],
    step: (parts: string[], v: SqlValue) => {
      const s = udf.toStr(v);
      if (s !== null) parts.push(s);
      return parts;
    },
    result: (parts: string[]) => {
      if (parts.length === 0) return null;
      const joined = parts.join(separator);
      if (Buffer.byteLength(joined, 'utf8') <= GROUP_CONCAT_MAX_LEN) return joined;
      return Buffer.from(joined, 'utf8').subarray(0, GROUP_CONCAT_MAX_LEN).toString('utf8').replace(/\uFFFD$/, '');
    },
  });
  registry.set(separator, name);
  return name;
}

/** Registers every `mysql_*` function on a connection (or on a recorder of definitions). */
export function registerMysqlFunctions(db: FunctionTarget, ctx: FunctionContext): void {
  registerSharedMysqlFunctions(db);
  registerContextMysqlFunctions(db, ctx);
}

/** The functions that read the connection's context (its database name, id, row counts, the statement's tick). */
export function registerContextMysqlFunctions(db: FunctionTarget, ctx: FunctionContext): void {
  const options = (deterministic: boolean) => ({ varargs: true, deterministic, safeIntegers: true });
  db.function('mysql_database', options(true), () => ctx.database);
  db.function('mysql_tick', options(false), (..._columns: unknown[]) => {
    ctx.tick();
    return 1n;
  });
  db.function('mysql_connection_id', options(true), intResult(() => ctx.connectionId) as (...a: unknown[]) => unknown);
  db.function('mysql_row_count', options(false), intResult(() => ctx.rowCount()) as (...a: unknown[]) => unknown);
  db.function('mysql_found_rows', options(false), intResult(() => ctx.foundRows()) as (...a: unknown[]) => unknown);
}

/**
 * Every other `mysql_*` function: none of them reads its connection, so one set of definitions can serve
 * every connection (see `lazy-functions.ts`).
 */
export function registerSharedMysqlFunctions(db: FunctionTarget): void {
  const scalars: Record<string, Fn> = {
    mysql_cmp: (a, b, bin) => udf.cmp(a ?? null, b ?? null, bin),
    mysql_nullsafe_eq: (a, b, bin) => udf.nullSafeEq(a ?? null, b ?? null, bin),
    mysql_in: (x, ...list) => udf.inList(false, x ?? null, ...list),
    mysql_in_bin: (x, ...list) => udf.inList(true, x ?? null, ...list),
    mysql_between: (x, lo, hi) => udf.between(x ?? null, lo ?? null, hi ?? null),
    mysql_between_date: (x, lo, hi) => udf.between(x ?? null, lo ?? null, hi ?? null, udf.compareDates),
    mysql_cmp_date: (a, b) => udf.compareDates(a ?? null, b ?? null),
    mysql_like: (x, p, e) => udf.like(false, x ?? null, p ?? null, e),
    mysql_like_bin: (x, p, e) => udf.like(true, x ?? null, p ?? null, e),
    mysql_regexp: (x, p) => udf.regexpLike(false, x ?? null, p ?? null),
    mysql_regexp_bin: (x, p) => udf.regexpLike(true, x ?? null, p ?? null),
    mysql_regexp_like: (x, p, m) => udf.regexpLike(false, x ?? null, p ?? null, m),
    mysql_xor: (a, b) => udf.logicalXor(a ?? null, b ?? null),
    mysql_div: (a, b) => udf.div(a ?? null, b ?? null),
    mysql_div_dec: (a, b, s) => udf.divDecimal(a ?? null, b ?? null, s ?? 4n),
    mysql_intdiv: (a, b) => udf.intDiv(a ?? null, b ?? null),
    mysql_mod: (a, b) => udf.mod(a ?? null, b ?? null),
    mysql_bitxor: (a, b) => udf.bitXor(a ?? null, b ?? null),
    mysql_sortkey: (x) => udf.sortKey(x ?? null),
    mysql_text: (x) => udf.storeText(x ?? null),
    mysql_text_dec: (x, s) => udf.storeDecimalText(x ?? null, s ?? 0n),
    mysql_cast_signed: (x) => udf.castSigned(x ?? null),
    mysql_cast_unsigned: (x) => udf.castUnsigned(x ?? null),
    mysql_cast_decimal: (x, p, s) => udf.castDecimal(x ?? null, p ?? 10n, s ?? 0n),
    mysql_cast_char: (x, n) => udf.castChar(x ?? null, n),
    mysql_cast_double: (x) => udf.castDouble(x ?? null),
    mysql_cast_date: (x) => udf.castDate(x ?? null),
    mysql_cast_datetime: (x) => udf.castDateTime(x ?? null),
    mysql_cast_time: (x) => udf.castTime(x ?? null),
    mysql_concat: (...a) => udf.concat(...a),
    mysql_concat_ws: (s, ...a) => udf.concatWs(s ?? null, ...a),
    mysql_lower: (x) => udf.toStr(x ?? null)?.toLowerCase() ?? null,
    mysql_upper: (x) => udf.toStr(x ?? null)?.toUpperCase() ?? null,
    mysql_substring: (x, p, l) => udf.substring(x ?? null, p ?? null, l),
    mysql_left: (x, n) => udf.left(x ?? null, n ?? null),
    mysql_right: (x, n) => udf.right(x ?? null, n ?? null),
    mysql_trim: (x, m, r) => udf.trim(x ?? null, m ?? 'BOTH', r),
    mysql_ltrim: (x) => udf.trim(x ?? null, 'LEADING'),
    mysql_rtrim: (x) => udf.trim(x ?? null, 'TRAILING'),
    mysql_replace: (x, f, t) => udf.replace(x ?? null, f ?? null, t ?? null),
    mysql_reverse: (x) => {
      const s = udf.toStr(x ?? null);
      return s === null ? null : Array.from(s).reverse().join('');
    },
    mysql_repeat: (x, n) => udf.repeat(x ?? null, n ?? null),
    mysql_space: (n) => udf.repeat(' ', n ?? null),
    mysql_lpad: (x, n, p) => udf.pad(true, x ?? null, n ?? null, p ?? null),
    mysql_rpad: (x, n, p) => udf.pad(false, x ?? null, n ?? null, p ?? null),
    mysql_substring_index: (x, d, c) => udf.substringIndex(x ?? null, d ?? null, c ?? null),
    mysql_find_in_set: (x, s) => udf.findInSet(x ?? null, s ?? null),
    mysql_strcmp: (a, b) => udf.cmp(a ?? null, b ?? null),
    mysql_format: (x, d) => udf.format(x ?? null, d ?? null),
    mysql_md5: (x) => udf.hash('md5', x ?? null),
    mysql_sha1: (x) => udf.hash('sha1', x ?? null),
    mysql_sha2: (x, b) => udf.sha2(x ?? null, b ?? null),
    mysql_hex: (x) => {
      if (x === null || x === undefined) return null;
      if (typeof x === 'bigint' || typeof x === 'number') return (udf.castSigned(x) ?? 0n).toString(16).toUpperCase();
      return Buffer.from(udf.toStr(x)!, 'utf8').toString('hex').toUpperCase();
    },
    mysql_quote: (x) => {
      const s = udf.toStr(x ?? null);
      return s === null ? 'NULL' : `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").split('\u0000').join('\\0').split('\u001a').join('\\Z')}'`;
    },
    mysql_elt: (n, ...list) => {
      const i = udf.toInt(n ?? null);
      return i === null || i < 1 || i > list.length ? null : (list[i - 1] ?? null);
    },
    mysql_insert: (x, p, l, w) => udf.insertString(x ?? null, p ?? null, l ?? null, w ?? null),
    mysql_regexp_replace: (x, p, r) => udf.regexpReplace(x ?? null, p ?? null, r ?? null),
    mysql_regexp_substr: (x, p) => udf.regexpSubstr(x ?? null, p ?? null),
    mysql_abs: (x) => {
      if (x === null || x === undefined) return null;
      if (typeof x === 'bigint') return x < 0n ? -x : x;
      return Math.abs(udf.toNum(x)!);
    },
    mysql_ceil: math(Math.ceil),
    mysql_floor: math(Math.floor),
    mysql_round: (x, d, exact) => udf.round(x ?? null, d ?? 0n, exact),
    mysql_truncate: (x, d) => udf.truncate(x ?? null, d ?? null),
    mysql_sqrt: math((v) => (v < 0 ? NaN : Math.sqrt(v))),
    mysql_pow: (a, b) => {
      const x = udf.toNum(a ?? null);
      const y = udf.toNum(b ?? null);
      if (x === null || y === null) return null;
      const r = x ** y;
      if (!Number.isFinite(r)) throw udfError(1690, '22003', `DOUBLE value is out of range in 'pow(${x},${y})'`);
      return r;
    },
    mysql_exp: math(Math.exp),
    mysql_ln: math((v) => (v <= 0 ? NaN : Math.log(v))),
    mysql_log: (a, b) => {
      if (b === undefined) return math((v) => (v <= 0 ? NaN : Math.log(v)))(a ?? null);
      const base = udf.toNum(a ?? null);
      const v = udf.toNum(b);
      if (base === null || v === null || base <= 0 || base === 1 || v <= 0) return null;
      return Math.log(v) / Math.log(base);
    },
    mysql_log2: math((v) => (v <= 0 ? NaN : Math.log2(v))),
    mysql_log10: math((v) => (v <= 0 ? NaN : Math.log10(v))),
    mysql_pi: () => Math.PI,
    mysql_rand: () => Math.random(),
    mysql_degrees: math((v) => (v * 180) / Math.PI),
    mysql_radians: math((v) => (v * Math.PI) / 180),
    mysql_sin: math(Math.sin),
    mysql_cos: math(Math.cos),
    mysql_tan: math(Math.tan),
    mysql_greatest: (...a) => udf.greatestLeast(true, ...a),
    mysql_least: (...a) => udf.greatestLeast(false, ...a),
    mysql_nullif: (a, b) => (udf.cmp(a ?? null, b ?? null) === 0 ? null : (a ?? null)),
    mysql_now: () => udf.now('datetime'),
    mysql_curdate: () => udf.now('date'),
    mysql_curtime: () => udf.now('time'),
    mysql_date: (x) => udf.castDate(x ?? null),
    mysql_time: (x) => udf.castTime(x ?? null),
    mysql_datetime: (x) => udf.castDateTime(x ?? null),
    mysql_dayname: (x) => udf.datePart('DAYNAME', x ?? null),
    mysql_monthname: (x) => udf.datePart('MONTHNAME', x ?? null),
    mysql_last_day: (x) => udf.datePart('LAST_DAY', x ?? null),
    mysql_str_to_date: (x, f) => udf.strToDateValue(x ?? null, f ?? null),
    mysql_date_format: (x, f) => udf.dateFormatValue(x ?? null, f ?? null),
    mysql_date_add: (x, n, unit, sign) => udf.dateAdd(x ?? null, n ?? null, unit ?? 'DAY', sign ?? 1n),
    mysql_from_unixtime: (x) => udf.fromUnixTime(x ?? null),
    mysql_version: () => MYSQL_VERSION,
    mysql_user: () => 'root@localhost',
  };
  const integers: Record<string, Fn> = {
    mysql_length: (x) => udf.length(x ?? null),
    mysql_char_length: (x) => udf.charLength(x ?? null),
    mysql_bit_length: (x) => {
      const n = udf.length(x ?? null);
      return n === null ? null : n * 8;
    },
    mysql_locate: (n, h, f) => udf.locate(n ?? null, h ?? null, f),
    mysql_instr: (h, n) => udf.locate(n ?? null, h ?? null),
    mysql_field: (x, ...l) => udf.field(x ?? null, ...l),
    mysql_ascii: (x) => {
      const s = udf.toStr(x ?? null);
      return s === null ? null : s === '' ? 0 : Buffer.from(s, 'utf8')[0]!;
    },
    mysql_regexp_instr: (x, p) => udf.regexpInstr(x ?? null, p ?? null),
    mysql_sign: (x) => {
      const v = udf.toNum(x ?? null);
      return v === null ? null : Math.sign(v);
    },
    mysql_isnull: (x) => (x === null || x === undefined ? 1 : 0),
    mysql_year: (x) => udf.datePart('YEAR', x ?? null),
    mysql_month: (x) => udf.datePart('MONTH', x ?? null),
    mysql_day: (x) => udf.datePart('DAY', x ?? null),
    mysql_hour: (x) => udf.datePart('HOUR', x ?? null),
    mysql_minute: (x) => udf.datePart('MINUTE', x ?? null),
    mysql_second: (x) => udf.datePart('SECOND', x ?? null),
    mysql_quarter: (x) => udf.datePart('QUARTER', x ?? null),
    mysql_week: (x) => udf.datePart('WEEK', x ?? null),
    mysql_dayofweek: (x) => udf.datePart('DAYOFWEEK', x ?? null),
    mysql_weekday: (x) => udf.datePart('WEEKDAY', x ?? null),
    mysql_dayofyear: (x) => udf.datePart('DAYOFYEAR', x ?? null),
    mysql_to_days: (x) => udf.datePart('TO_DAYS', x ?? null),
    mysql_datediff: (a, b) => udf.dateDiff(a ?? null, b ?? null),
    mysql_timestampdiff: (u, a, b) => udf.tsDiff(u ?? null, a ?? null, b ?? null),
    mysql_unix_timestamp: (x) => udf.unixTimestamp(x),
    mysql_extract: (u, x) => udf.datePart(String(u), x ?? null),
    mysql_zero: () => 0,
  };
  const nonDeterministic = new Set(['mysql_rand', 'mysql_now', 'mysql_curdate', 'mysql_curtime', 'mysql_unix_timestamp']);
  for (const [name, fn] of Object.entries(scalars)) {
    db.function(name, { varargs: true, deterministic: !nonDeterministic.has(name), safeIntegers: true }, fn as (...a: unknown[]) => unknown);
  }
  for (const [name, fn] of Object.entries(integers)) {
    db.function(name, { varargs: true, deterministic: !nonDeterministic.has(name), safeIntegers: true }, intResult(fn) as (...a: unknown[]) => unknown);
  }

  numericAggregate(db, 'mysql_sum', (acc) => acc.sum);
  numericAggregate(db, 'mysql_avg', (acc) => acc.sum / acc.count);
  numericAggregate(db, 'mysql_stddev_pop', (acc) => Math.sqrt(variance(acc, false) ?? NaN));
  numericAggregate(db, 'mysql_stddev_samp', (acc) => {
    const v = variance(acc, true);
    return v === null ? null : Math.sqrt(v);
  });
  numericAggregate(db, 'mysql_var_pop', (acc) => variance(acc, false));
  numericAggregate(db, 'mysql_var_samp', (acc) => variance(acc, true));

  for (const [name, wantMax] of [
    ['mysql_min', false],
    ['mysql_max', true],
  ] as const) {
    defineAggregate<{ best: SqlValue }>(db, name, {
      start: () => ({ best: null }),
      step: (acc: { best: SqlValue }, v: SqlValue) => {
        if (v === null) return acc;
        if (acc.best === null) acc.best = v;
        else {
          const c = udf.compareValues(v, acc.best);
          if (c !== null && (wantMax ? c > 0 : c < 0)) acc.best = v;
        }
        return acc;
      },
      result: (acc: { best: SqlValue }) => acc.best,
    });
  }
  defineAggregate<{ seen: boolean; value: SqlValue }>(db, 'mysql_any_value', {
    start: () => ({ seen: false, value: null }),
    step: (acc: { seen: boolean; value: SqlValue }, v: SqlValue) => {
      if (!acc.seen) {
        acc.seen = true;
        acc.value = v;
      }
      return acc;
    },
    result: (acc: { value: SqlValue }) => acc.value,
  });
  // The value of a scalar subquery: more than one row is MySQL error 1242.
  defineAggregate<{ count: number; value: SqlValue }>(db, 'mysql_single', {
    start: () => ({ count: 0, value: null }),
    step: (acc: { count: number; value: SqlValue }, v: SqlValue) => {
      acc.count += 1;
      if (acc.count > 1) throw singleRowError();
      acc.value = v;
      return acc;
    },
    result: (acc: { value: SqlValue }) => acc.value,
  });
}
