import { parseMysqlDate, type DateParts } from '../mysql-dates.js';
import { compareText, mysqlDoubleText, mysqlStringToDouble } from '../mysql-values.js';

/**
 * A value as SQLite hands it to a user-defined function in JS (null, number, bigint, string, Buffer).
 * The SQL function bodies in this folder coerce it with MySQL's rules, using the helpers below.
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

/** The code points of a string (MySQL counts characters, not UTF-16 units). */
export const chars = (s: string): string[] => Array.from(s);

/** A flag argument passed from SQL (`1` arrives as a bigint with safe integers on). */
export function flag(v: SqlValue | undefined): boolean {
  return v === 1n || v === 1;
}

/** A DATE/DATETIME read from text or from a YYYYMMDD[hhmmss] number, or null when it is not one. */
export function dateOf(x: SqlValue): DateParts | null {
  if (x === null) return null;
  if (typeof x === 'number' || typeof x === 'bigint') {
    const digits = String(typeof x === 'number' ? Math.trunc(x) : x);
    return parseMysqlDate(digits);
  }
  return parseMysqlDate(toStr(x)!);
}
