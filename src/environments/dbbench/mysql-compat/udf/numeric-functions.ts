import { compareText, decimalText } from '../mysql-values.js';
import { compareValues, flag, toInt, toNum, toStr, type SqlValue } from './sql-value.js';

/** Arithmetic operators and numeric functions. */

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
