import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { compareCodePoints, pyJsonCompact } from '../python/python-json-compact.js';
import type { PyValue } from '../python/python-json.js';

/**
 * A task's content hash: SHA-256 over Python's
 * `json.dumps(record, sort_keys=True, ensure_ascii=False, separators=(",", ":"))` of the task's record
 * as the data file holds it, so anyone can recompute it with one line of Python. (A benchmark with an
 * identity protocol of its own may hash its tasks by that instead.)
 */
export function canonicalSha256(value: PyValue): string {
  return createHash('sha256').update(pyJsonCompact(sortKeys(value)), 'utf8').digest('hex');
}

function sortKeys(value: PyValue): PyValue {
  if (value instanceof Map) {
    return new Map([...value].sort(([a], [b]) => compareCodePoints(a, b)).map(([k, v]) => [k, sortKeys(v)]));
  }
  if (Array.isArray(value)) return value.map(sortKeys);
  return value;
}

/** SHA-256 of a file's bytes. */
export function fileSha256(file: string): { bytes: number; sha256: string } {
  const data = readFileSync(file);
  return { bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') };
}
