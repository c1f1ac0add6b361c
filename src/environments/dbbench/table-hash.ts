import { hash } from 'node:crypto';

import { mysqlNumberText } from './mysql-compat/mysql-values.js';

/**
 * The DBBench table hash (benchmarks.md §1.5), computed in JS from the table's rows so it does not depend
 * on the engine. It reproduces
 *
 *   SELECT md5(group_concat(rowhash ORDER BY rowhash))
 *   FROM (SELECT substring(MD5(CONCAT_WS(',', `c1`, `c2`, …)), 1, 5) AS rowhash FROM `t`) AS sub
 *
 * with MySQL's default `group_concat_max_len` of 1,024 bytes.
 */

/** MySQL's default `group_concat_max_len`. */
export const GROUP_CONCAT_MAX_LEN = 1024;

/**
 * A cell as read back from the table. Strings are what a TEXT column holds. Numbers only appear when a
 * caller hashes values that were never stored; they are stringified the way MySQL stores a number in a
 * TEXT column (`5` → `'5'`, `1.5` → `'1.5'`, `5.0` → `'5'`, `1e16` → `'1e16'`), which is not Python's
 * `str()`: a float inserted through the FC loader arrives as the *string* `'5.0'` and stays that way.
 */
export type HashCell = string | number | bigint | null;

/** One-shot `crypto.hash`: the same digest as a `createHash` object, at well under half its cost per row. */
function md5Hex(text: string): string {
  return hash('md5', text, 'hex');
}

/** `CONCAT_WS(',', …)` over one row: NULLs are skipped, numbers stringified as MySQL would. */
export function concatWs(row: readonly HashCell[]): string {
  const parts: string[] = [];
  for (const cell of row) {
    if (cell === null) continue;
    parts.push(typeof cell === 'string' ? cell : mysqlNumberText(cell));
  }
  return parts.join(',');
}

/** Cuts a string to at most `maxBytes` UTF-8 bytes without splitting a character, as GROUP_CONCAT does. */
function cutToBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  let bytes = 0;
  let out = '';
  for (const ch of text) {
    const size = Buffer.byteLength(ch, 'utf8');
    if (bytes + size > maxBytes) break;
    bytes += size;
    out += ch;
  }
  return out;
}

/** The hash of one table's rows, or null for an empty table (MySQL's `md5(NULL)`). */
export function mysqlTableHash(rows: readonly (readonly HashCell[])[]): string | null {
  if (rows.length === 0) return null;
  const rowHashes = rows.map((row) => md5Hex(concatWs(row)).slice(0, 5)).sort();
  return md5Hex(cutToBytes(rowHashes.join(','), GROUP_CONCAT_MAX_LEN));
}

/**
 * The FC combination over all tables of a task (`calculate_tables_hash_async`): each table's hash (a
 * NULL hash is read back from `str([(None,)])` as the text `None`), sorted and joined with `_`. For the
 * single-table tasks of DBBench this is just that table's hash; a single empty table gives null.
 */
export function combineTableHashes(hashes: readonly (string | null)[]): string | null {
  if (hashes.length === 1 && hashes[0] === null) return null;
  return hashes
    .map((h) => h ?? 'None')
    .sort()
    .join('_');
}

/** The v0.2 answer string for a hash: `str(cursor.fetchall())` of the hash query, e.g. `[('03b2…',)]`. */
export function formatStoredHash(hash: string | null): string {
  return hash === null ? '[(None,)]' : `[('${hash}',)]`;
}

/**
 * Reads a stored `answer_md5` such as `[('03b2eddd4fe471e0f29fc9e907fd5a5d',)]`: the hash, null for
 * `[(None,)]`, or undefined when the text has another shape. A bare 32-hex-digit string is accepted too.
 */
export function parseAnswerMd5(stored: string): string | null | undefined {
  const text = stored.trim();
  const wrapped = /^\[\(\s*(?:'([^']*)'|"([^"]*)"|(None))\s*,\s*\)\]$/.exec(text);
  if (wrapped) return wrapped[3] !== undefined ? null : (wrapped[1] ?? wrapped[2] ?? '');
  if (/^[0-9a-f]{32}$/i.test(text)) return text.toLowerCase();
  return undefined;
}
