/**
 * The static MySQL result type of an expression, tracked while rewriting so that values come back
 * with the Python type the MySQL connector would produce (COUNT → int, SUM of TEXT → float, `10/4` →
 * Decimal('2.5000'), CAST(… AS DATE) → datetime.date).
 */
export type SqlType =
  | { t: 'int' }
  | { t: 'decimal'; scale: number }
  | { t: 'double' }
  | { t: 'string' }
  | { t: 'date' }
  | { t: 'datetime' }
  | { t: 'time' }
  | { t: 'null' }
  | { t: 'unknown' };

export const INT: SqlType = { t: 'int' };
export const DOUBLE: SqlType = { t: 'double' };
export const STRING: SqlType = { t: 'string' };
export const NULL_TYPE: SqlType = { t: 'null' };
export const UNKNOWN: SqlType = { t: 'unknown' };
export const DATE: SqlType = { t: 'date' };
export const DATETIME: SqlType = { t: 'datetime' };
export const TIME: SqlType = { t: 'time' };

export function decimal(scale: number): SqlType {
  return { t: 'decimal', scale: Math.max(0, Math.min(30, scale)) };
}

export function isExact(type: SqlType): boolean {
  return type.t === 'int' || type.t === 'decimal';
}

export function scaleOf(type: SqlType): number {
  return type.t === 'decimal' ? type.scale : 0;
}

/** Result type of `+`, `-`, `*` (and the numeric part of MOD): exact stays exact, anything else is DOUBLE. */
export function arithmeticType(a: SqlType, b: SqlType, op: '+' | '-' | '*' | '%'): SqlType {
  if (a.t === 'null' || b.t === 'null') return a.t === 'null' ? (isExact(b) ? b : DOUBLE) : isExact(a) ? a : DOUBLE;
  if (a.t === 'int' && b.t === 'int') return INT;
  if (isExact(a) && isExact(b)) return decimal(op === '*' ? scaleOf(a) + scaleOf(b) : Math.max(scaleOf(a), scaleOf(b)));
  if (a.t === 'unknown' || b.t === 'unknown') return UNKNOWN;
  return DOUBLE;
}

/** The type MySQL gives CASE/IF/COALESCE/UNION columns over several branch types. */
export function aggregateTypes(types: readonly SqlType[]): SqlType {
  const known = types.filter((t) => t.t !== 'null');
  if (known.length === 0) return types.length > 0 ? NULL_TYPE : UNKNOWN;
  if (known.some((t) => t.t === 'unknown')) return UNKNOWN;
  const first = known[0]!;
  if (known.every((t) => t.t === first.t)) {
    if (first.t === 'decimal') return decimal(Math.max(...known.map(scaleOf)));
    return first;
  }
  if (known.some((t) => t.t === 'string' || t.t === 'date' || t.t === 'datetime' || t.t === 'time')) return STRING;
  if (known.some((t) => t.t === 'double')) return DOUBLE;
  return decimal(Math.max(...known.map(scaleOf)));
}

/** The type of a column declared in CREATE TABLE (every DBBench column is TEXT). */
export function typeFromDeclared(declared: string): SqlType {
  const d = declared.toUpperCase();
  if (d === '' || /CHAR|TEXT|CLOB|ENUM|SET|JSON/.test(d)) return STRING;
  if (/^(TINY|SMALL|MEDIUM|BIG)?INT|^INTEGER|^BOOL|^BIT|^YEAR/.test(d)) return INT;
  if (/^(DECIMAL|NUMERIC|DEC|FIXED)/.test(d)) {
    const m = /\(\s*\d+\s*,\s*(\d+)\s*\)/.exec(d);
    return decimal(m ? Number(m[1]) : 0);
  }
  if (/^(DOUBLE|FLOAT|REAL)/.test(d)) return DOUBLE;
  if (/^DATETIME|^TIMESTAMP/.test(d)) return DATETIME;
  if (/^DATE/.test(d)) return DATE;
  if (/^TIME/.test(d)) return TIME;
  if (/BLOB|BINARY/.test(d)) return STRING;
  return UNKNOWN;
}
