import type { TypeCast } from 'mysql2';
import type { FieldPacket, QueryResult } from 'mysql2/promise';

import type { PyValue } from './backend.js';

/**
 * How the MariaDB backend turns what the server sends into what the Python connector would hand
 * AgentBench: identifier quoting, connector-style error text, the first result set, and column values.
 */

/** Backtick-quotes an identifier (names here hold spaces, `/`, `#`, parentheses and unicode). */
export function quoteIdentifier(name: string): string {
  return `\`${name.replaceAll('`', '``')}\``;
}

/**
 * A connector error as mysql-connector-python prints it: `NNNN (SQLSTATE): message`, or
 * `NNNN: message` without a SQLSTATE. MariaDB's "MariaDB server version" in syntax errors is
 * reworded to MySQL's "MySQL server version" so the agent sees the reference text.
 */
export function formatConnectorError(error: unknown): string {
  const e = (typeof error === 'object' && error !== null ? error : {}) as {
    errno?: unknown;
    sqlState?: unknown;
    sqlMessage?: unknown;
    fatal?: unknown;
  };
  if (typeof e.errno === 'number' && e.errno > 0 && typeof e.sqlMessage === 'string') {
    const message = e.sqlMessage.replace('your MariaDB server version', 'your MySQL server version');
    return typeof e.sqlState === 'string' && e.sqlState !== '' ? `${e.errno} (${e.sqlState}): ${message}` : `${e.errno}: ${message}`;
  }
  if (e.fatal === true) return '2013 (HY000): Lost connection to MySQL server during query';
  return errorText(error);
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function isFatal(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { fatal?: unknown }).fatal === true;
}

/** The first result set as rows (FC fetches only that one); DML and other statements give `[]`. */
export function firstRowSet(result: QueryResult, fields: FieldPacket[] | FieldPacket[][] | undefined): PyValue[][] {
  if (!Array.isArray(result)) return [];
  const nested = Array.isArray(fields) && fields.length > 0 && Array.isArray(fields[0]);
  if (nested) {
    const first = result.find((r) => Array.isArray(r));
    return (first ?? []) as PyValue[][];
  }
  return result as unknown as PyValue[][];
}

/**
 * What the Python connector makes of each column type: integers (and YEAR, BIT) → int, FLOAT/DOUBLE →
 * float, DECIMAL → Decimal, DATE → date, DATETIME/TIMESTAMP → datetime, TIME → timedelta, binary
 * strings → bytes (here as a latin1 string, one character per byte), other strings → str, NULL → None.
 * Values are read from the raw text the server sends, so nothing is rounded on the way.
 * Invalid dates such as `0000-00-00` become None, as the connector returns them.
 */
export const castValue: TypeCast = (field, next) => {
  switch (field.type) {
    case 'TINY':
    case 'SHORT':
    case 'LONG':
    case 'INT24':
    case 'LONGLONG':
    case 'YEAR': {
      const text = field.string('ascii');
      return text === null ? null : { type: 'int', value: text };
    }
    case 'BIT': {
      const bytes = field.buffer();
      if (bytes === null) return null;
      let n = 0n;
      for (const b of bytes) n = (n << 8n) | BigInt(b);
      return { type: 'int', value: n.toString() };
    }
    case 'FLOAT':
    case 'DOUBLE': {
      const text = field.string('ascii');
      return text === null ? null : { type: 'float', value: Number(text) };
    }
    case 'DECIMAL':
    case 'NEWDECIMAL': {
      const text = field.string('ascii');
      return text === null ? null : { type: 'decimal', value: text };
    }
    case 'DATE':
    case 'NEWDATE': {
      const text = field.string('ascii');
      return text === null || !isValidDate(text) ? null : { type: 'date', value: text };
    }
    case 'DATETIME':
    case 'DATETIME2':
    case 'TIMESTAMP':
    case 'TIMESTAMP2': {
      const text = field.string('ascii');
      return text === null || !isValidDate(text) ? null : { type: 'datetime', value: text };
    }
    case 'TIME':
    case 'TIME2': {
      const text = field.string('ascii');
      return text === null ? null : { type: 'timedelta', value: text };
    }
    case 'NULL':
      field.string();
      return null;
    case 'GEOMETRY': {
      const bytes = field.buffer();
      return bytes === null ? null : { type: 'bytes', value: bytes.toString('latin1') };
    }
    case 'JSON':
      return field.string('utf8');
    default: {
      if (field.extendedFormat === 'json') return field.string('utf8');
      // `next` honours the column's character set: a Buffer for binary strings, else a string.
      const value = next() as unknown;
      if (value === null || value === undefined) return null;
      if (Buffer.isBuffer(value)) return { type: 'bytes', value: value.toString('latin1') };
      return String(value);
    }
  }
};

function isValidDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 31;
  return day <= days;
}
