import { createHash } from 'node:crypto';

import { mysqlErrors, udfError } from './errors.js';
import {
  addInterval,
  dateFormat,
  dayOfWeek,
  dayOfYear,
  formatDate,
  formatDateTime,
  formatDateValue,
  formatTime,
  nowParts,
  parseMysqlDate,
  parseMysqlTime,
  strToDate,
  timestampDiff,
  toDays,
  weekMode0,
  type DateParts,
} from './mysql-dates.js';
import {
  compareText,
  decimalText,
  doubleToInt,
  foldText,
  mysqlDoubleText,
  mysqlStringToDouble,
  mysqlStringToInt,
  sortKeyText,
  toUnsigned,
  utf8Length,
} from './mysql-values.js';

/**
 * The bodies of the SQL functions registered on every SQLite connection. Values arrive as SQLite gives
 * them to JS (null, number, bigint, string, Buffer) and are coerced with MySQL's rules.
 */
export type SqlValue = null | number | bigint | string | Buffer;

export function toStr(v: SqlValue): string | null {
  if (v === null) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 1e15 ? String(v) : mysqlDoubleText(v);
  return v.toString('utf8');
}

export function toNum(v: SqlValue): number | null {
  if (v === null) return null;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return mysqlStringToDouble(typeof v === 'string' ? v : v.toString('utf8'));
}

/** An integer argument (positions, lengths, counts): strings and doubles round half away from zero. */
export function toInt(v: SqlValue): number | null {
  const n = toNum(v);
  if (n === null) return null;
  return n < 0 ? -Math.round(-n) : Math.round(n);
}

/** MySQL's three-way comparison: strings by collation, anything involving a number numerically. */
export function compareValues(a: SqlValue, b: SqlValue, binary = false): number | null {
  if (a === null || b === null) return null;
  if (typeof a === 'string' && typeof b === 'string') return compareText(a, b, binary);
  if (Buffer.isBuffer(a) || Buffer.isBuffer(b)) {
    const x = Buffer.isBuffer(a) ? a : Buffer.from(toStr(a) ?? '', 'utf8');
    const y = Buffer.isBuffer(b) ? b : Buffer.from(toStr(b) ?? '', 'utf8');
    return Math.sign(Buffer.compare(x, y));
  }
  const x = toNum(a)!;
  const y = toNum(b)!;
  return x < y ? -1 : x > y ? 1 : 0;
}

const chars = (s: string): string[] => Array.from(s);

/** Longer results are NULL, as MySQL returns NULL beyond max_allowed_packet (64 MiB there). */
const MAX_STRING_CHARS = 16_777_216;

// ---------------------------------------------------------------------------------------------
// Comparison, LIKE, REGEXP

/** A flag argument passed from SQL (`1` arrives as a bigint with safe integers on). */
function flag(v: SqlValue | undefined): boolean {
  return v === 1n || v === 1;
}

export function cmp(a: SqlValue, b: SqlValue, binary?: SqlValue): number | null {
  return compareValues(a, b, flag(binary));
}

export function nullSafeEq(a: SqlValue, b: SqlValue, binary?: SqlValue): number {
  if (a === null || b === null) return a === null && b === null ? 1 : 0;
  return compareValues(a, b, flag(binary)) === 0 ? 1 : 0;
}

export function inList(binary: boolean, x: SqlValue, ...list: SqlValue[]): number | null {
  if (x === null) return null;
  let sawNull = false;
  for (const item of list) {
    const c = compareValues(x, item, binary);
    if (c === null) sawNull = true;
    else if (c === 0) return 1;
  }
  return sawNull ? null : 0;
}

/** Comparison where one side is a DATE/DATETIME: both sides are read as dates (text or YYYYMMDD numbers). */
export function compareDates(a: SqlValue, b: SqlValue): number | null {
  if (a === null || b === null) return null;
  const x = dateOf(a);
  const y = dateOf(b);
  if (!x || !y) return compareValues(a, b);
  const key = (p: DateParts): number => Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) * 1000 + Math.floor(p.micro / 1000);
  return Math.sign(key(x) - key(y));
}

export function between(x: SqlValue, low: SqlValue, high: SqlValue, compare: (a: SqlValue, b: SqlValue) => number | null = compareValues): number | null {
  const a = compare(x, low);
  const b = compare(x, high);
  if (a !== null && a < 0) return 0;
  if (b !== null && b > 0) return 0;
  if (a === null || b === null) return null;
  return 1;
}

const likeCache = new Map<string, RegExp>();

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

export function like(binary: boolean, x: SqlValue, pattern: SqlValue, escape?: SqlValue): number | null {
  const subject = toStr(x);
  const pat = toStr(pattern);
  if (subject === null || pat === null) return null;
  const esc = escape === undefined ? '\\' : (toStr(escape) ?? '\\');
  const key = `${binary ? 1 : 0}\u0000${esc}\u0000${pat}`;
  let re = likeCache.get(key);
  if (!re) {
    let source = '';
    let literal = '';
    const flush = (): void => {
      source += escapeRegex(binary ? literal : foldText(literal));
      literal = '';
    };
    const list = chars(pat);
    for (let i = 0; i < list.length; i++) {
      const ch = list[i]!;
      if (esc !== '' && ch === esc && i + 1 < list.length) {
        literal += list[++i];
        continue;
      }
      if (ch === '%' || ch === '_') {
        flush();
        source += ch === '%' ? '.*' : '.';
        continue;
      }
      literal += ch;
    }
    flush();
    re = new RegExp(`^${source}$`, 'su');
    if (likeCache.size > 5000) likeCache.clear();
    likeCache.set(key, re);
  }
  return re.test(binary ? subject : foldText(subject)) ? 1 : 0;
}

const POSIX_CLASSES: Record<string, string> = {
  alpha: '\\p{L}',
  digit: '0-9',
  alnum: '\\p{L}\\p{N}',
  upper: '\\p{Lu}',
  lower: '\\p{Ll}',
  space: '\\s',
  blank: ' \\t',
  punct: '\\p{P}',
  xdigit: '0-9A-Fa-f',
  cntrl: '\\p{Cc}',
  print: '\\P{C}',
  graph: '\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}',
};

const regexCache = new Map<string, RegExp>();

/** Compiles an ICU-style pattern as MySQL 8 does (case-insensitive unless `binary` or match type `c`). */
export function compileRegex(pattern: string, caseSensitive: boolean, global = false): RegExp {
  const key = `${caseSensitive ? 1 : 0}${global ? 1 : 0}\u0000${pattern}`;
  const hit = regexCache.get(key);
  if (hit) return hit;
  let source = pattern
    .replace(/\[\[:<:\]\]/g, '\\b')
    .replace(/\[\[:>:\]\]/g, '\\b')
    .replace(/\[:(\w+):\]/g, (m, name: string) => POSIX_CLASSES[name] ?? m)
    .replace(/^\(\?i\)/, '');
  source = source.replace(/\\Q(.*?)(?:\\E|$)/g, (_m, lit: string) => escapeRegex(lit));
  const flags = `${caseSensitive ? '' : 'i'}${global ? 'g' : ''}`;
  let re: RegExp;
  try {
    re = new RegExp(source, `${flags}u`);
  } catch {
    try {
      re = new RegExp(source, flags);
    } catch {
      throw udfError(3685, 'HY000', 'Illegal argument to a regular expression.');
    }
  }
  if (regexCache.size > 2000) regexCache.clear();
  regexCache.set(key, re);
  return re;
}

export function regexpLike(binary: boolean, x: SqlValue, pattern: SqlValue, matchType?: SqlValue): number | null {
  const subject = toStr(x);
  const pat = toStr(pattern);
  if (subject === null || pat === null) return null;
  const mt = toStr(matchType ?? null) ?? '';
  const caseSensitive = binary || (mt.includes('c') && !mt.includes('i'));
  return compileRegex(pat, caseSensitive).test(subject) ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Arithmetic and numeric functions

export function div(a: SqlValue, b: SqlValue): number | null {
  const x = toNum(a);
  const y = toNum(b);
  if (x === null || y === null || y === 0) return null;
  return x / y;
}

/** Exact division, rounded half up to `scale` decimals as MySQL's DECIMAL result is. */
export function divDecimal(a: SqlValue, b: SqlValue, scale: SqlValue): number | null {
  const q = div(a, b);
  if (q === null) return null;
  return Number(decimalText(q, Number(scale)));
}

export function intDiv(a: SqlValue, b: SqlValue): number | null {
  const x = toNum(a);
  const y = toNum(b);
  if (x === null || y === null || y === 0) return null;
  return Math.trunc(x / y);
}

export function mod(a: SqlValue, b: SqlValue): number | null {
  const x = toNum(a);
  const y = toNum(b);
  if (x === null || y === null || y === 0) return null;
  return x % y;
}

export function bitXor(a: SqlValue, b: SqlValue): bigint | null {
  const x = toInt(a);
  const y = toInt(b);
  if (x === null || y === null) return null;
  return BigInt.asIntN(64, BigInt(x) ^ BigInt(y));
}

export function logicalXor(a: SqlValue, b: SqlValue): number | null {
  const x = toNum(a);
  const y = toNum(b);
  if (x === null || y === null) return null;
  return x !== 0 !== (y !== 0) ? 1 : 0;
}

function roundHalfEven(v: number): number {
  const r = Math.round(v);
  return Math.abs(v % 1) === 0.5 ? 2 * Math.round(v / 2) : r;
}

/** ROUND(x, d): exact values round half away from zero; doubles use rint (half to even) like MySQL. */
export function round(x: SqlValue, digits: SqlValue, exact: SqlValue | undefined): number | null {
  const v = toNum(x);
  const d = toInt(digits ?? 0);
  if (v === null || d === null) return null;
  if (flag(exact)) {
    if (d >= 0) return Number(decimalText(v, d));
    const f = 10 ** -d;
    return Number(decimalText(v / f, 0)) * f;
  }
  const f = 10 ** Math.abs(d);
  if (!Number.isFinite(f)) return d > 0 ? v : 0;
  const r = d >= 0 ? roundHalfEven(v * f) / f : roundHalfEven(v / f) * f;
  return Number.isFinite(r) ? r : v;
}

export function truncate(x: SqlValue, digits: SqlValue): number | null {
  const v = toNum(x);
  const d = toInt(digits);
  if (v === null || d === null) return null;
  const f = 10 ** d;
  return Math.trunc(v * f) / f;
}

export function greatestLeast(greatest: boolean, ...args: SqlValue[]): SqlValue {
  if (args.some((a) => a === null)) return null;
  const allNumbers = args.every((a) => typeof a === 'number' || typeof a === 'bigint');
  const anyNumber = args.some((a) => typeof a === 'number' || typeof a === 'bigint');
  let best: SqlValue = args[0] ?? null;
  for (const a of args.slice(1)) {
    const c = allNumbers ? compareValues(a, best) : anyNumber ? compareText(toStr(a)!, toStr(best)!) : compareValues(a, best);
    if (c !== null && (greatest ? c > 0 : c < 0)) best = a;
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// Casts and conversions

export function castSigned(x: SqlValue): bigint | null {
  if (x === null) return null;
  if (typeof x === 'bigint') return x;
  if (typeof x === 'number') return doubleToInt(x);
  return mysqlStringToInt(typeof x === 'string' ? x : x.toString('utf8'));
}

export function castUnsigned(x: SqlValue): bigint | string | null {
  const v = castSigned(x);
  if (v === null) return null;
  const u = toUnsigned(v);
  return u > (1n << 63n) - 1n ? u.toString() : u;
}

export function castDecimal(x: SqlValue, precision: SqlValue, scale: SqlValue): number | null {
  if (x === null) return null;
  const p = Number(precision ?? 10);
  const s = Number(scale ?? 0);
  let text = decimalText(typeof x === 'bigint' ? x : (toNum(x) ?? 0), s);
  const max = Number(`${'9'.repeat(Math.max(1, p - s))}${s > 0 ? `.${'9'.repeat(s)}` : ''}`);
  if (Math.abs(Number(text)) > max) text = String(Math.sign(Number(text)) * max);
  return Number(text);
}

export function castChar(x: SqlValue, length?: SqlValue): string | null {
  const s = toStr(x);
  if (s === null) return null;
  if (length === undefined || length === null) return s;
  return chars(s).slice(0, Number(length)).join('');
}

export function castDouble(x: SqlValue): number | null {
  return toNum(x);
}

function dateOf(x: SqlValue): DateParts | null {
  if (x === null) return null;
  if (typeof x === 'number' || typeof x === 'bigint') {
    const digits = String(typeof x === 'number' ? Math.trunc(x) : x);
    return parseMysqlDate(digits);
  }
  return parseMysqlDate(toStr(x)!);
}

export function castDate(x: SqlValue): string | null {
  const p = dateOf(x);
  return p ? formatDate(p) : null;
}

export function castDateTime(x: SqlValue): string | null {
  const p = dateOf(x);
  return p ? formatDateTime(p) : null;
}

export function castTime(x: SqlValue): string | null {
  const s = toStr(x);
  if (s === null) return null;
  const p = parseMysqlDate(s);
  if (p) return formatTime(p.hour * 3600 + p.minute * 60 + p.second);
  const t = parseMysqlTime(s);
  return t === null ? null : formatTime(t);
}

/** The text MySQL stores when a number is written into a TEXT column. */
export function storeText(x: SqlValue): SqlValue {
  if (x === null || typeof x === 'string' || Buffer.isBuffer(x)) return x;
  return toStr(x);
}

export function storeDecimalText(x: SqlValue, scale: SqlValue): string | null {
  if (x === null) return null;
  if (typeof x === 'string') return x;
  return decimalText(typeof x === 'bigint' ? x : (toNum(x) ?? 0), Number(scale));
}

export function sortKey(x: SqlValue): SqlValue {
  return typeof x === 'string' ? sortKeyText(x) : x;
}

// ---------------------------------------------------------------------------------------------
// String functions

export function concat(...args: SqlValue[]): string | null {
  let out = '';
  for (const a of args) {
    const s = toStr(a);
    if (s === null) return null;
    out += s;
  }
  return out;
}

export function concatWs(sep: SqlValue, ...args: SqlValue[]): string | null {
  const s = toStr(sep);
  if (s === null) return null;
  return args
    .map(toStr)
    .filter((x): x is string => x !== null)
    .join(s);
}

export function length(x: SqlValue): number | null {
  if (Buffer.isBuffer(x)) return x.length;
  const s = toStr(x);
  return s === null ? null : utf8Length(s);
}

export function charLength(x: SqlValue): number | null {
  const s = toStr(x);
  return s === null ? null : chars(s).length;
}

export function substring(x: SqlValue, pos: SqlValue, len?: SqlValue): string | null {
  const s = toStr(x);
  const p = toInt(pos);
  if (s === null || p === null) return null;
  const list = chars(s);
  const l = len === undefined ? list.length : toInt(len);
  if (l === null) return null;
  if (p === 0 || l < 1) return '';
  const start = p > 0 ? p - 1 : list.length + p;
  if (start < 0 || start >= list.length) return '';
  return list.slice(start, start + l).join('');
}

export function left(x: SqlValue, n: SqlValue): string | null {
  const s = toStr(x);
  const k = toInt(n);
  if (s === null || k === null) return null;
  return k <= 0 ? '' : chars(s).slice(0, k).join('');
}

export function right(x: SqlValue, n: SqlValue): string | null {
  const s = toStr(x);
  const k = toInt(n);
  if (s === null || k === null) return null;
  const list = chars(s);
  return k <= 0 ? '' : list.slice(Math.max(0, list.length - k)).join('');
}

export function trim(x: SqlValue, mode: SqlValue, remove?: SqlValue): string | null {
  let s = toStr(x);
  const r = remove === undefined ? ' ' : toStr(remove);
  if (s === null || r === null) return null;
  if (r === '') return s;
  if (mode === 'BOTH' || mode === 'LEADING') while (s.startsWith(r)) s = s.slice(r.length);
  if (mode === 'BOTH' || mode === 'TRAILING') while (s.endsWith(r)) s = s.slice(0, s.length - r.length);
  return s;
}

export function replace(x: SqlValue, from: SqlValue, to: SqlValue): string | null {
  const s = toStr(x);
  const f = toStr(from);
  const t = toStr(to);
  if (s === null || f === null || t === null) return null;
  return f === '' ? s : s.split(f).join(t);
}

export function repeat(x: SqlValue, n: SqlValue): string | null {
  const s = toStr(x);
  const k = toInt(n);
  if (s === null || k === null) return null;
  if (k <= 0) return '';
  if (s.length * k > MAX_STRING_CHARS) return null;
  return s.repeat(k);
}

export function pad(leftSide: boolean, x: SqlValue, n: SqlValue, padding: SqlValue): string | null {
  const s = toStr(x);
  const k = toInt(n);
  const p = toStr(padding);
  if (s === null || k === null || p === null || k < 0 || k > MAX_STRING_CHARS) return null;
  const list = chars(s);
  if (list.length >= k) return list.slice(0, k).join('');
  if (p === '') return null;
  const fill = chars(p.repeat(Math.ceil((k - list.length) / chars(p).length))).slice(0, k - list.length).join('');
  return leftSide ? fill + s : s + fill;
}

export function substringIndex(x: SqlValue, delim: SqlValue, count: SqlValue): string | null {
  const s = toStr(x);
  const d = toStr(delim);
  const c = toInt(count);
  if (s === null || d === null || c === null) return null;
  if (d === '' || c === 0) return '';
  const parts = s.split(d);
  if (c > 0) return parts.slice(0, c).join(d);
  return parts.slice(Math.max(0, parts.length + c)).join(d);
}

/** 1-based position of `needle` in `hay` at or after `from`, compared under the default collation. */
export function locate(needle: SqlValue, hay: SqlValue, from?: SqlValue): number | null {
  const n = toStr(needle);
  const h = toStr(hay);
  const f = from === undefined ? 1 : toInt(from);
  if (n === null || h === null || f === null) return null;
  if (f < 1) return 0;
  const list = chars(h);
  const target = foldText(n);
  const width = chars(n).length;
  if (width === 0) return f <= list.length + 1 ? f : 0;
  for (let i = f - 1; i + width <= list.length; i++) {
    if (foldText(list.slice(i, i + width).join('')) === target) return i + 1;
  }
  return 0;
}

export function field(x: SqlValue, ...list: SqlValue[]): number {
  if (x === null) return 0;
  const at = list.findIndex((item) => compareValues(x, item) === 0);
  return at + 1;
}

export function findInSet(x: SqlValue, set: SqlValue): number | null {
  const s = toStr(x);
  const l = toStr(set);
  if (s === null || l === null) return null;
  if (l === '') return 0;
  return l.split(',').findIndex((item) => compareText(item, s) === 0) + 1;
}

export function format(x: SqlValue, digits: SqlValue): string | null {
  const v = toNum(x);
  const d = toInt(digits);
  if (v === null || d === null) return null;
  const text = decimalText(v, Math.max(0, Math.min(30, d)));
  const [intPart, frac] = text.split('.') as [string, string | undefined];
  const negative = intPart.startsWith('-');
  const grouped = intPart.replace('-', '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${frac !== undefined ? `.${frac}` : ''}`;
}

export function hash(algorithm: 'md5' | 'sha1' | 'sha256' | 'sha224' | 'sha384' | 'sha512', x: SqlValue): string | null {
  const s = Buffer.isBuffer(x) ? x : toStr(x);
  if (s === null) return null;
  return createHash(algorithm).update(s).digest('hex');
}

export function sha2(x: SqlValue, bits: SqlValue): string | null {
  const b = toInt(bits);
  const algorithm = b === 224 ? 'sha224' : b === 384 ? 'sha384' : b === 512 ? 'sha512' : b === 256 || b === 0 ? 'sha256' : null;
  return algorithm ? hash(algorithm, x) : null;
}

export function regexpReplace(x: SqlValue, pattern: SqlValue, replacement: SqlValue): string | null {
  const s = toStr(x);
  const p = toStr(pattern);
  const r = toStr(replacement);
  if (s === null || p === null || r === null) return null;
  return s.replace(compileRegex(p, false, true), r.replace(/\$/g, '$$$$').replace(/\\(\d)/g, '$$$1'));
}

export function regexpSubstr(x: SqlValue, pattern: SqlValue): string | null {
  const s = toStr(x);
  const p = toStr(pattern);
  if (s === null || p === null) return null;
  const m = compileRegex(p, false).exec(s);
  return m ? m[0] : null;
}

export function regexpInstr(x: SqlValue, pattern: SqlValue): number | null {
  const s = toStr(x);
  const p = toStr(pattern);
  if (s === null || p === null) return null;
  const m = compileRegex(p, false).exec(s);
  return m ? chars(s.slice(0, m.index)).length + 1 : 0;
}

export function insertString(x: SqlValue, pos: SqlValue, len: SqlValue, with_: SqlValue): string | null {
  const s = toStr(x);
  const p = toInt(pos);
  const l = toInt(len);
  const w = toStr(with_);
  if (s === null || p === null || l === null || w === null) return null;
  const list = chars(s);
  if (p < 1 || p > list.length) return s;
  return list.slice(0, p - 1).join('') + w + list.slice(p - 1 + Math.max(0, l)).join('');
}

// ---------------------------------------------------------------------------------------------
// Dates

export function dateValue(x: SqlValue): DateParts | null {
  return dateOf(x);
}

export function datePart(part: string, x: SqlValue): number | string | null {
  const p = dateOf(x);
  if (!p) {
    if (['HOUR', 'MINUTE', 'SECOND'].includes(part)) {
      const t = x === null ? null : parseMysqlTime(toStr(x)!);
      if (t === null) return null;
      const a = Math.abs(t);
      return part === 'HOUR' ? Math.floor(a / 3600) : part === 'MINUTE' ? Math.floor(a / 60) % 60 : a % 60;
    }
    return null;
  }
  switch (part) {
    case 'YEAR': return p.year;
    case 'MONTH': return p.month;
    case 'DAY': return p.day;
    case 'HOUR': return p.hour;
    case 'MINUTE': return p.minute;
    case 'SECOND': return p.second;
    case 'MICROSECOND': return p.micro;
    case 'QUARTER': return Math.ceil(p.month / 3);
    case 'WEEK': return weekMode0(p);
    case 'DAYOFWEEK': return dayOfWeek(p) + 1;
    case 'WEEKDAY': return (dayOfWeek(p) + 6) % 7;
    case 'DAYOFYEAR': return dayOfYear(p);
    case 'DAYNAME': return dateFormat(p, '%W');
    case 'MONTHNAME': return dateFormat(p, '%M');
    case 'TO_DAYS': return toDays(p);
    case 'LAST_DAY': return formatDate({ ...p, day: new Date(Date.UTC(p.year, p.month, 0)).getUTCDate() });
    case 'DATE': return formatDate(p);
    case 'YEAR_MONTH': return p.year * 100 + p.month;
    default: return null;
  }
}

export function dateAdd(x: SqlValue, amount: SqlValue, unit: SqlValue, sign: SqlValue): string | null {
  const p = dateOf(x);
  const n = toNum(amount);
  if (!p || n === null) return null;
  const out = addInterval(p, n * Number(sign ?? 1), String(unit));
  return out ? formatDateValue(out) : null;
}

export function dateDiff(a: SqlValue, b: SqlValue): number | null {
  const x = dateOf(a);
  const y = dateOf(b);
  if (!x || !y) return null;
  return toDays(x) - toDays(y);
}

export function tsDiff(unit: SqlValue, a: SqlValue, b: SqlValue): number | null {
  const x = dateOf(a);
  const y = dateOf(b);
  if (!x || !y) return null;
  return timestampDiff(String(unit), x, y);
}

export function strToDateValue(x: SqlValue, fmt: SqlValue): string | null {
  const s = toStr(x);
  const f = toStr(fmt);
  if (s === null || f === null) return null;
  const p = strToDate(s, f);
  return p ? formatDateValue(p) : null;
}

export function dateFormatValue(x: SqlValue, fmt: SqlValue): string | null {
  const p = dateOf(x);
  const f = toStr(fmt);
  if (!p || f === null) return null;
  return dateFormat(p, f);
}

export function now(kind: 'date' | 'datetime' | 'time'): string {
  const p = nowParts();
  if (kind === 'date') return formatDate(p);
  if (kind === 'time') return formatTime(p.hour * 3600 + p.minute * 60 + p.second);
  return formatDateTime(p);
}

export function unixTimestamp(x?: SqlValue): number | null {
  if (x === undefined) return Math.floor(Date.now() / 1000);
  const p = dateOf(x);
  if (!p) return null;
  return Math.floor(Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) / 1000);
}

export function fromUnixTime(x: SqlValue): string | null {
  const n = toNum(x);
  if (n === null) return null;
  const d = new Date(n * 1000);
  return formatDateTime({
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    micro: 0,
    hasTime: true,
  });
}

export function singleRowError(): Error {
  const e = mysqlErrors.subqueryRows();
  return udfError(e.errno, e.sqlState, e.text);
}
