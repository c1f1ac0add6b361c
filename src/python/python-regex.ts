/**
 * Pieces for JS regexes (compiled with the `u` flag) that behave like Python `re` on `str` patterns.
 * Python's `\w`, `\d`, `\s` and `\b` are Unicode-aware, and `re.IGNORECASE` matches a few extra code
 * points (`ı`/`İ` for i, `ſ` for s, the Kelvin sign for k) that JS case folding does not. Checked
 * code point by code point against CPython 3.11; the only differences are characters assigned after
 * Unicode 14, which Node's newer tables know and Python 3.11's do not.
 */
import { PY_WHITESPACE_CLASS_BODY } from './python-text.js';

/** Python `\w` for `str` (letters, all numerics, underscore). */
export const PY_WORD = '[\\p{L}\\p{N}_]';
/** Python `\d` for `str` (decimal digits of any script). */
export const PY_DIGIT = '\\p{Nd}';
/** Python `\s` for `str`. */
export const PY_SPACE = `[${PY_WHITESPACE_CLASS_BODY}]`;
/** Python `\b`: a word/non-word transition, with the string ends counting as non-word. */
export const PY_BOUNDARY = `(?:(?<=${PY_WORD})(?!${PY_WORD})|(?<!${PY_WORD})(?=${PY_WORD}))`;
/** Python `.` without DOTALL: anything but `\n` (JS `.` also excludes `\r`, U+2028, U+2029). */
export const PY_DOT = '[^\\n]';

const IGNORECASE_EXTRAS: Readonly<Record<string, string>> = { i: '\u0130\u0131', k: '\u212a', s: '\u017f' };

/** A literal matched the way Python's `re.IGNORECASE` matches it. */
export function pyIgnoreCase(literal: string): string {
  let out = '';
  for (const ch of literal) {
    const lower = ch.toLowerCase();
    const upper = ch.toUpperCase();
    if (lower === upper) {
      out += escapeRegex(ch);
      continue;
    }
    out += `[${escapeRegex(lower)}${escapeRegex(upper)}${IGNORECASE_EXTRAS[lower] ?? ''}]`;
  }
  return out;
}

function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}
