import { pyFloatRepr, pyStringRepr } from '../../python/python-text.js';
import type { PyValue } from './backend.js';

/**
 * Python `repr()` / `str()` of the values the MySQL connector hands AgentBench, so the text an agent
 * sees matches `str(cursor.fetchall())` character for character.
 */

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}

/** `repr(s)` for a Python `str`: quote choice, backslash escapes and non-printable escapes. */
export const pyReprStr: (s: string) => string = pyStringRepr;

/** `repr(b)` for Python `bytes`; each char code of `latin1` (0–255) is one byte. */
export function pyReprBytes(latin1: string): string {
  const quote = latin1.includes("'") && !latin1.includes('"') ? '"' : "'";
  let out = `b${quote}`;
  for (let i = 0; i < latin1.length; i++) {
    const code = latin1.charCodeAt(i) & 0xff;
    const ch = String.fromCharCode(code);
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (code < 0x20 || code >= 0x7f) out += `\\x${hex(code, 2)}`;
    else out += ch;
  }
  return out + quote;
}

/** Shortest round-trip digits of a finite, non-zero magnitude, and the decimal-point position. */
export function shortestDigits(value: number): { digits: string; decpt: number } {
  const [mantissa, exponent] = Math.abs(value).toExponential().split('e') as [string, string];
  return { digits: mantissa.replace('.', ''), decpt: Number(exponent) + 1 };
}

/** `repr(x)` for a Python float: `167.0`, `1e+16`, `1e-05`, `-0.0`, `inf`, `nan`. */
export const pyReprFloat: (value: number) => string = pyFloatRepr;

/** `str(Decimal(text))`: Python's to-scientific-string rule for a plain decimal numeral such as `-12.50`. */
export function pyDecimalStr(text: string): string {
  // `trim()` removes exactly `\s` from both ends, as the leading and trailing `\s*` of the original
  // pattern did; inside them nothing is whitespace. Two `\s*` around optional parts backtrack quadratically.
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return text;
  const sign = m[1] === '-' ? '-' : '';
  const frac = m[3] ?? '';
  const exp = Number(m[4] ?? '0') - frac.length;
  const coefficient = `${m[2]}${frac}`.replace(/^0+/, '') || '0';
  const adjusted = exp + coefficient.length - 1;
  if (exp <= 0 && adjusted >= -6) {
    if (exp === 0) return sign + coefficient;
    const point = coefficient.length + exp;
    return point > 0
      ? `${sign}${coefficient.slice(0, point)}.${coefficient.slice(point)}`
      : `${sign}0.${'0'.repeat(-point)}${coefficient}`;
  }
  const mantissa = coefficient.length > 1 ? `${coefficient[0]}.${coefficient.slice(1)}` : coefficient;
  return `${sign}${mantissa}E${adjusted >= 0 ? '+' : '-'}${Math.abs(adjusted)}`;
}

function dateParts(text: string): number[] | null {
  const m = /^(\d{1,4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.(\d{1,6}))?)?$/.exec(text.trim());
  if (!m) return null;
  const micro = m[7] === undefined ? 0 : Number(m[7].padEnd(6, '0'));
  return [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number).concat(micro);
}

function reprDate(text: string): string {
  const p = dateParts(text);
  if (!p) return pyReprStr(text);
  return `datetime.date(${p.slice(0, 3).join(', ')})`;
}

function reprDatetime(text: string): string {
  const p = dateParts(text);
  if (!p) return pyReprStr(text);
  const fields = p.slice();
  if (fields[6] === 0) {
    fields.pop();
    if (fields[5] === 0) fields.pop();
  }
  return `datetime.datetime(${fields.join(', ')})`;
}

/** `repr(timedelta)` from a MySQL TIME text such as `-01:30:00` or `838:59:59.5`. */
function reprTimedelta(text: string): string {
  const m = /^\s*(-?)(\d+):(\d{1,2}):(\d{1,2})(?:\.(\d{1,6}))?\s*$/.exec(text);
  if (!m) return pyReprStr(text);
  const micros =
    ((Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4])) * 1_000_000 + Number((m[5] ?? '').padEnd(6, '0') || '0')) *
    (m[1] === '-' ? -1 : 1);
  const perDay = 86_400 * 1_000_000;
  const days = Math.floor(micros / perDay);
  const rest = micros - days * perDay;
  const seconds = Math.floor(rest / 1_000_000);
  const microseconds = rest - seconds * 1_000_000;
  const args: string[] = [];
  if (days !== 0) args.push(`days=${days}`);
  if (seconds !== 0) args.push(`seconds=${seconds}`);
  if (microseconds !== 0) args.push(`microseconds=${microseconds}`);
  return `datetime.timedelta(${args.length > 0 ? args.join(', ') : '0'})`;
}

/** `repr()` of one value as the connector returns it. */
export function pyReprValue(value: PyValue): string {
  if (value === null) return 'None';
  if (typeof value === 'string') return pyReprStr(value);
  switch (value.type) {
    case 'int':
      return value.value;
    case 'float':
      return pyReprFloat(value.value);
    case 'decimal':
      return `Decimal('${pyDecimalStr(value.value)}')`;
    case 'date':
      return reprDate(value.value);
    case 'datetime':
      return reprDatetime(value.value);
    case 'timedelta':
      return reprTimedelta(value.value);
    case 'bytes':
      return pyReprBytes(value.value);
  }
}

/**
 * `str(rows)` for a list of row tuples: `[('a', 1), (2.0,)]`. With `stopAfter`, the text may end early, after
 * the first tuple that takes it past `stopAfter` UTF-16 units: then it is a prefix of the whole text, for a
 * caller that keeps only that much of it (the result text is cut at 800 characters).
 */
export function pyReprRows(rows: readonly (readonly PyValue[])[], stopAfter = Number.POSITIVE_INFINITY): string {
  let out = '[';
  for (let i = 0; i < rows.length; i++) {
    if (i > 0) out += ', ';
    const items = rows[i]!.map(pyReprValue);
    out += items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
    if (out.length > stopAfter) return out;
  }
  return `${out}]`;
}

/**
 * Python `str(value)` of a cell as the FC harness sends it when loading a table (`str(col)`): strings
 * unchanged, ints in decimal, floats by `repr`, `None` as `'None'`, booleans as `'True'`/`'False'`.
 * A JSON float such as `335.0` arrives in JS as the integer 335; pass `{ type: 'float', value }` to keep
 * the Python float form.
 */
export function pythonStr(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < 1e16 ? String(value) : pyReprFloat(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'object' && !Array.isArray(value)) {
    const v = value as { type?: unknown; value?: unknown };
    if (v.type === 'float' && typeof v.value === 'number') return pyReprFloat(v.value);
    if (v.type === 'int' && (typeof v.value === 'string' || typeof v.value === 'number')) return String(v.value);
  }
  return JSON.stringify(value);
}
