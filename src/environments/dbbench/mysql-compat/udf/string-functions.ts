import { createHash } from 'node:crypto';

import { compareText, decimalText, foldText, utf8Length } from '../mysql-values.js';
import { chars, compareValues, toInt, toNum, toStr, type SqlValue } from './sql-value.js';

/** String functions: lengths and positions count characters; LOCATE and FIELD compare under the collation. */

/** Longer results are NULL, as MySQL returns NULL beyond max_allowed_packet (64 MiB there). */
const MAX_STRING_CHARS = 16_777_216;

export function concat(...args: SqlValue[]): string | null {
  let out = '';
  for (const a of args) {
    const s = toStr(a);
    if (s === null) return null;
    out += s;
  }
  return out;
}

export function concatWs(sep: SqlValue, ...args: SqlValue[]): string | null {
  const s = toStr(sep);
  if (s === null) return null;
  return args
    .map(toStr)
    .filter((x): x is string => x !== null)
    .join(s);
}

export function length(x: SqlValue): number | null {
  if (Buffer.isBuffer(x)) return x.length;
  const s = toStr(x);
  return s === null ? null : utf8Length(s);
}

export function charLength(x: SqlValue): number | null {
  const s = toStr(x);
  return s === null ? null : chars(s).length;
}

export function substring(x: SqlValue, pos: SqlValue, len?: SqlValue): string | null {
  const s = toStr(x);
  const p = toInt(pos);
  if (s === null || p === null) return null;
  const list = chars(s);
  const l = len === undefined ? list.length : toInt(len);
  if (l === null) return null;
  if (p === 0 || l < 1) return '';
  const start = p > 0 ? p - 1 : list.length + p;
  if (start < 0 || start >= list.length) return '';
  return list.slice(start, start + l).join('');
}

export function left(x: SqlValue, n: SqlValue): string | null {
  const s = toStr(x);
  const k = toInt(n);
  if (s === null || k === null) return null;
  return k <= 0 ? '' : chars(s).slice(0, k).join('');
}

export function right(x: SqlValue, n: SqlValue): string | null {
  const s = toStr(x);
  const k = toInt(n);
  if (s === null || k === null) return null;
  const list = chars(s);
  return k <= 0 ? '' : list.slice(Math.max(0, list.length - k)).join('');
}

export function trim(x: SqlValue, mode: SqlValue, remove?: SqlValue): string | null {
  let s = toStr(x);
  const r = remove === undefined ? ' ' : toStr(remove);
  if (s === null || r === null) return null;
  if (r === '') return s;
  if (mode === 'BOTH' || mode === 'LEADING') while (s.startsWith(r)) s = s.slice(r.length);
  if (mode === 'BOTH' || mode === 'TRAILING') while (s.endsWith(r)) s = s.slice(0, s.length - r.length);
  return s;
}

export function replace(x: SqlValue, from: SqlValue, to: SqlValue): string | null {
  const s = toStr(x);
  const f = toStr(from);
  const t = toStr(to);
  if (s === null || f === null || t === null) return null;
  return f === '' ? s : s.split(f).join(t);
}

export function repeat(x: SqlValue, n: SqlValue): string | null {
  const s = toStr(x);
  const k = toInt(n);
  if (s === null || k === null) return null;
  if (k <= 0) return '';
  if (s.length * k > MAX_STRING_CHARS) return null;
  return s.repeat(k);
}

export function pad(leftSide: boolean, x: SqlValue, n: SqlValue, padding: SqlValue): string | null {
  const s = toStr(x);
  const k = toInt(n);
  const p = toStr(padding);
  if (s === null || k === null || p === null || k < 0 || k > MAX_STRING_CHARS) return null;
  const list = chars(s);
  if (list.length >= k) return list.slice(0, k).join('');
  if (p === '') return null;
  const fill = chars(p.repeat(Math.ceil((k - list.length) / chars(p).length))).slice(0, k - list.length).join('');
  return leftSide ? fill + s : s + fill;
}

export function substringIndex(x: SqlValue, delim: SqlValue, count: SqlValue): string | null {
  const s = toStr(x);
  const d = toStr(delim);
  const c = toInt(count);
  if (s === null || d === null || c === null) return null;
  if (d === '' || c === 0) return '';
  const parts = s.split(d);
  if (c > 0) return parts.slice(0, c).join(d);
  return parts.slice(Math.max(0, parts.length + c)).join(d);
}

/** 1-based position of `needle` in `hay` at or after `from`, compared under the default collation. */
export function locate(needle: SqlValue, hay: SqlValue, from?: SqlValue): number | null {
  const n = toStr(needle);
  const h = toStr(hay);
  const f = from === undefined ? 1 : toInt(from);
  if (n === null || h === null || f === null) return null;
  if (f < 1) return 0;
  const list = chars(h);
  const target = foldText(n);
  const width = chars(n).length;
  if (width === 0) return f <= list.length + 1 ? f : 0;
  for (let i = f - 1; i + width <= list.length; i++) {
    if (foldText(list.slice(i, i + width).join('')) === target) return i + 1;
  }
  return 0;
}

export function field(x: SqlValue, ...list: SqlValue[]): number {
  if (x === null) return 0;
  const at = list.findIndex((item) => compareValues(x, item) === 0);
  return at + 1;
}

export function findInSet(x: SqlValue, set: SqlValue): number | null {
  const s = toStr(x);
  const l = toStr(set);
  if (s === null || l === null) return null;
  if (l === '') return 0;
  return l.split(',').findIndex((item) => compareText(item, s) === 0) + 1;
}

export function format(x: SqlValue, digits: SqlValue): string | null {
  const v = toNum(x);
  const d = toInt(digits);
  if (v === null || d === null) return null;
  const text = decimalText(v, Math.max(0, Math.min(30, d)));
  const [intPart, frac] = text.split('.') as [string, string | undefined];
  const negative = intPart.startsWith('-');
  const grouped = groupThousands(intPart.replace('-', ''));
  return `${negative ? '-' : ''}${grouped}${frac !== undefined ? `.${frac}` : ''}`;
}

export function hash(algorithm: 'md5' | 'sha1' | 'sha256' | 'sha224' | 'sha384' | 'sha512', x: SqlValue): string | null {
  const s = Buffer.isBuffer(x) ? x : toStr(x);
  if (s === null) return null;
  return createHash(algorithm).update(s).digest('hex');
}

export function sha2(x: SqlValue, bits: SqlValue): string | null {
  const b = toInt(bits);
  const algorithm = b === 224 ? 'sha224' : b === 384 ? 'sha384' : b === 512 ? 'sha512' : b === 256 || b === 0 ? 'sha256' : null;
  return algorithm ? hash(algorithm, x) : null;
}

export function insertString(x: SqlValue, pos: SqlValue, len: SqlValue, with_: SqlValue): string | null {
  const s = toStr(x);
  const p = toInt(pos);
  const l = toInt(len);
  const w = toStr(with_);
  if (s === null || p === null || l === null || w === null) return null;
  const list = chars(s);
  if (p < 1 || p > list.length) return s;
  return list.slice(0, p - 1).join('') + w + list.slice(p - 1 + Math.max(0, l)).join('');
}

function isDigitCode(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isWordCode(code: number): boolean {
  return isDigitCode(code) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f;
}

/**
 * `text.replace(/\B(?=(\d{3})+(?!\d))/g, ',')` as one scan: a comma before every third digit from the
 * end of each digit run (the lookahead rescans the rest of the run from every position).
 */
export function groupThousands(text: string): string {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (!isDigitCode(text.charCodeAt(i))) {
      out.push(text[i]!);
      i++;
      continue;
    }
    let end = i;
    while (end < text.length && isDigitCode(text.charCodeAt(end))) end++;
    for (let at = i; at < end; at++) {
      const rest = end - at;
      if (rest >= 3 && rest % 3 === 0 && at > 0 && isWordCode(text.charCodeAt(at - 1))) out.push(',');
      out.push(text[at]!);
    }
    i = end;
  }
  return out.join('');
}
