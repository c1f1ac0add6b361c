import { createHash } from 'node:crypto';

import type { PyValue } from '../../python/python-json.js';
import { pyFloatRepr } from '../../python/python-text.js';
import { compareCodePoints } from './goals.js';

/**
 * The manifest hashing of the WebShop identity protocol (protocol.md §6.5, `manifest_sha256`):
 * a dict becomes a list of `[str(key), canon(value)]` pairs sorted by key (Python string order, i.e.
 * by code point), lists stay lists, and the result is serialised like Python's
 * `json.dumps(value, ensure_ascii=False, separators=(",", ":"))` — floats as Python's `repr` (`10.0`,
 * `1e-05`, `NaN`, `Infinity`), ints as digits, only `"`, `\` and control characters escaped — then
 * SHA-256 over the UTF-8 bytes.
 *
 * Values use the Python-typed `PyValue` of `src/python/python-json.ts`: `bigint` is an int, `number`
 * a float, `Map` a dict.
 */
export function manifestSha256(value: PyValue): string {
  return createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
}

/** The canonical JSON text that {@link manifestSha256} hashes. */
export function canonicalJson(value: PyValue): string {
  return pyJsonDumps(canonicalize(value));
}

/** `_canonical_manifest_value`: dicts → sorted `[key, value]` pairs, recursively. */
export function canonicalize(value: PyValue): PyValue {
  if (value instanceof Map) {
    return [...value]
      .sort(([a], [b]) => compareCodePoints(a, b))
      .map(([key, item]): PyValue => [key, canonicalize(item)]);
  }
  if (Array.isArray(value)) return value.map(canonicalize);
  return value;
}

/** Python `json.dumps(value, ensure_ascii=False, separators=(",", ":"))`. */
export function pyJsonDumps(value: PyValue): string {
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
  if (Array.isArray(value)) return `[${value.map(pyJsonDumps).join(',')}]`;
  const parts: string[] = [];
  for (const [key, item] of value) parts.push(`${encodeString(key)}:${pyJsonDumps(item)}`);
  return `{${parts.join(',')}}`;
}

const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function encodeString(text: string): string {
  // eslint-disable-next-line no-control-regex
  return `"${text.replace(/[\x00-\x1f"\\]/g, (ch) => SHORT_ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}
