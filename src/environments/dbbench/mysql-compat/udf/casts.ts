import { formatDate, formatDateTime, formatTime, parseMysqlDate, parseMysqlTime } from '../mysql-dates.js';
import { decimalText, doubleToInt, mysqlStringToInt, sortKeyText, toUnsigned } from '../mysql-values.js';
import { chars, dateOf, toNum, toStr, type SqlValue } from './sql-value.js';

/** CAST/CONVERT targets, the text stored into TEXT columns, and the collation sort key. */

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
