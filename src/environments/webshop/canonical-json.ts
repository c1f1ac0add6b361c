import { createHash } from 'node:crypto';

import type { PyValue } from '../../python/python-json.js';
import { compareCodePoints, pyJsonCompact } from '../../python/python-json-compact.js';

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
export const pyJsonDumps = pyJsonCompact;
