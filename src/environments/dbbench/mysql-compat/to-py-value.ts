import type { PyValue } from '../backend.js';
import { parseMysqlDate, parseMysqlTime, formatDate, formatDateTime, formatTime } from './mysql-dates.js';
import { decimalText, mysqlDoubleText } from './mysql-values.js';
import type { SqlType } from './sql-types.js';

/** A value as better-sqlite3 returns it with safe integers on. */
export type SqliteValue = null | number | bigint | string | Buffer;

/** The connector's view of a value of unknown MySQL type: decided by SQLite's storage class. */
export function storageToPy(value: SqliteValue): PyValue {
  if (value === null) return null;
  if (typeof value === 'bigint') return { type: 'int', value: value.toString() };
  if (typeof value === 'number') return { type: 'float', value };
  if (typeof value === 'string') return value;
  return { type: 'bytes', value: value.toString('latin1') };
}

/**
 * Converts one SQLite value to the Python value the MySQL connector would return for a column of the
 * given MySQL type (e.g. a REAL 167 in a SUM column → `167.0`, a REAL in a DECIMAL(…,2) column →
 * `Decimal('12.50')`, date text in a DATE column → `datetime.date(…)`).
 */
export function toPyValue(value: SqliteValue, type: SqlType): PyValue {
  if (value === null) return null;
  switch (type.t) {
    case 'int':
      if (typeof value === 'bigint') return { type: 'int', value: value.toString() };
      if (typeof value === 'number' && Number.isInteger(value)) return { type: 'int', value: BigInt(value).toString() };
      if (typeof value === 'string' && /^-?\d+$/.test(value)) return { type: 'int', value: BigInt(value).toString() };
      return storageToPy(value);
    case 'decimal':
      if (typeof value === 'number' || typeof value === 'bigint') return { type: 'decimal', value: decimalText(value, type.scale) };
      if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return { type: 'decimal', value: decimalText(value, type.scale) };
      return storageToPy(value);
    case 'double':
      if (typeof value === 'number') return { type: 'float', value };
      if (typeof value === 'bigint') return { type: 'float', value: Number(value) };
      return storageToPy(value);
    case 'string':
      if (typeof value === 'string') return value;
      if (typeof value === 'bigint') return value.toString();
      if (typeof value === 'number') return mysqlDoubleText(value);
      return value.toString('utf8');
    case 'date': {
      const p = typeof value === 'string' ? parseMysqlDate(value) : null;
      return p ? { type: 'date', value: formatDate(p) } : storageToPy(value);
    }
    case 'datetime': {
      const p = typeof value === 'string' ? parseMysqlDate(value) : null;
      return p ? { type: 'datetime', value: formatDateTime({ ...p, hasTime: true }) } : storageToPy(value);
    }
    case 'time': {
      const t = typeof value === 'string' ? parseMysqlTime(value) : null;
      return t !== null ? { type: 'timedelta', value: formatTime(t) } : storageToPy(value);
    }
    default:
      return storageToPy(value);
  }
}
