import {
  addInterval,
  dateFormat,
  dayOfWeek,
  dayOfYear,
  formatDate,
  formatDateTime,
  formatDateValue,
  formatTime,
  fromEpochMs,
  nowParts,
  parseMysqlTime,
  strToDate,
  timestampDiff,
  toDays,
  weekMode0,
  type DateParts,
} from '../mysql-dates.js';
import { dateOf, toNum, toStr, type SqlValue } from './sql-value.js';

/** Date and time functions (NOW() and friends are UTC). */

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
  return formatDateTime(fromEpochMs(n * 1000, true));
}
