/**
 * Python `str` semantics the original validator relies on: `str.split()` / `str.strip()` whitespace,
 * `len()` in code points, truthiness, `str()` and `repr()` of JSON values. The original is Python, so a
 * faithful port must not use JS `trim()` (it also strips U+FEFF and misses U+001C–U+001F, U+0085) or
 * `.length` (UTF-16 units).
 */
import type { PyValue } from './python-json.js';
import { isPyDict } from './python-json.js';

/** Body of a regex character class with exactly the characters Python's `str.isspace()` accepts. */
export const PY_WHITESPACE_CLASS_BODY =
  '\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

/**
 * Whether the UTF-16 unit `code` is Python whitespace. Every `str.isspace()` character is in the BMP, so
 * a unit test is exact (surrogates are never whitespace).
 */
export function isPyWhitespaceCode(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x1c && code <= 0x1f);
  if (code < 0x85) return false;
  if (code === 0x85 || code === 0xa0 || code === 0x1680) return true;
  if (code < 0x2000) return false;
  return code <= 0x200a || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000;
}

// The helpers below are index scans, not regexes: `[ws]+$` is tried at every start position of a whitespace
// run, so a long run that does not reach the end costs quadratic time in a backtracking engine.

/** Python `s.strip()` with no argument. */
export function pyStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isPyWhitespaceCode(text.charCodeAt(start))) start++;
  while (end > start && isPyWhitespaceCode(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

export function pyLStrip(text: string): string {
  let start = 0;
  while (start < text.length && isPyWhitespaceCode(text.charCodeAt(start))) start++;
  return start === 0 ? text : text.slice(start);
}

export function pyRStrip(text: string): string {
  let end = text.length;
  while (end > 0 && isPyWhitespaceCode(text.charCodeAt(end - 1))) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** Python `s.split()` with no argument: the non-empty runs between whitespace. */
export function pySplit(text: string): string[] {
  const parts: string[] = [];
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    if (isPyWhitespaceCode(text.charCodeAt(i))) {
      if (start >= 0) parts.push(text.slice(start, i));
      start = -1;
    } else if (start < 0) {
      start = i;
    }
  }
  if (start >= 0) parts.push(text.slice(start));
  return parts;
}

/** Python `" ".join(s.split())`: whitespace runs become one space, ends trimmed. */
export function pyCollapseWhitespace(text: string): string {
  return pySplit(text).join(' ');
}

/** Python `len(s)`: code points, not UTF-16 units. */
export function pyLen(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Python `s.lower()`. JS `toLowerCase()` applies the same full, locale-independent mapping. */
export function pyLower(text: string): string {
  return text.toLowerCase();
}

/** Python `bool(value)` for a JSON value (NaN is truthy in Python). */
export function pyTruthy(value: PyValue | undefined): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'bigint') return value !== 0n;
  if (typeof value === 'string') return value.length > 0;
  if (Array.isArray(value)) return value.length > 0;
  return value.size > 0;
}

/** Python `str(value)`: strings unchanged, everything else as `repr()`. */
export function pyStr(value: PyValue): string {
  return typeof value === 'string' ? value : pyRepr(value);
}

/** Python `repr(value)` for a JSON value: `None`, `True`, `1.0`, `'text'`, `[1, 'a']`, `{'k': None}`. */
export function pyRepr(value: PyValue): string {
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return pyFloatRepr(value);
  if (typeof value === 'string') return pyStringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (isPyDict(value)) {
    const parts: string[] = [];
    for (const [key, item] of value) parts.push(`${pyStringRepr(key)}: ${pyRepr(item)}`);
    return `{${parts.join(', ')}}`;
  }
  return String(value);
}

/** Python `repr(float)`: shortest round-trip digits, scientific below 1e-4 and from 1e16 on. */
export function pyFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  const [mantissa = '0', exponentText = '0'] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) {
    const head = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const expSign = exponent < 0 ? '-' : '+';
    return `${sign}${head}e${expSign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const intPart = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fracPart = digits.slice(exponent + 1);
  return `${sign}${intPart}.${fracPart === '' ? '0' : fracPart}`;
}

const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Python `repr(str)`: quote choice, backslash escapes and `\x`/`\u`/`\U` for non-printable code points. */
export function pyStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(cp, 2)}`;
    else if (cp < 0x7f) out += ch;
    else if (ch !== ' ' && NON_PRINTABLE.test(ch)) {
      if (cp <= 0xff) out += `\\x${hex(cp, 2)}`;
      else if (cp <= 0xffff) out += `\\u${hex(cp, 4)}`;
      else out += `\\U${hex(cp, 8)}`;
    } else out += ch;
  }
  return out + quote;
}

function hex(cp: number, width: number): string {
  return cp.toString(16).padStart(width, '0');
}
