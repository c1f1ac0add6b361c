import type { DateParts } from '../mysql-dates.js';
import { compareValues, dateOf, flag, type SqlValue } from './sql-value.js';

/** Comparison operators: `mysql_cmp`, `<=>`, IN lists, BETWEEN and date comparison. */

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
