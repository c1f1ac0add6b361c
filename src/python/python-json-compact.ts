import type { PyValue } from './python-json.js';
import { pyFloatRepr } from './python-text.js';

/**
 * Python `json.dumps(value, ensure_ascii=False, separators=(",", ":"))`: floats as Python's `repr`
 * (`10.0`, `1e-05`, `NaN`, `Infinity`), ints as digits, only `"`, `\` and control characters escaped.
 * Values are the Python-typed `PyValue` of `python-json.ts`: `bigint` an int, `number` a float, `Map` a dict.
 */
export function pyJsonCompact(value: PyValue): string {
  if (value === null) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (value === Infinity) return 'Infinity';
    if (value === -Infinity) return '-Infinity';
    return pyFloatRepr(value);
  }
  if (typeof value === 'string') return encodeString(value);
  if (Array.isArray(value)) return `[${value.map(pyJsonCompact).join(',')}]`;
  const parts: string[] = [];
  for (const [key, item] of value) parts.push(`${encodeString(key)}:${pyJsonCompact(item)}`);
  return `{${parts.join(',')}}`;
}

/** Python's string order (`sorted`, `sort_keys`): by code point, not by UTF-16 unit. */
export function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i]!.codePointAt(0) ?? 0) - (y[i]!.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function encodeString(text: string): string {
  // eslint-disable-next-line no-control-regex
  return `"${text.replace(/[\x00-\x1f"\\]/g, (ch) => SHORT_ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}
