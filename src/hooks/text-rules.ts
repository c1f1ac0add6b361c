/**
 * Text rules shared by result normalization and patch validation. They follow Python's string semantics,
 * because the original normalizes with `" ".join(s.split())` and slices by code point.
 */

/** Characters Python's `str.split()` treats as whitespace. */
const PY_WHITESPACE = /[\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;

/** Maximum length of any hook-returned text or action, in code points. */
export const MAX_RETURN_TEXT_CHARS = 900;

/** Python's `" ".join(text.split())`: collapse whitespace runs to one space and trim. */
export function collapseWhitespace(text: string): string {
  return text.replace(PY_WHITESPACE, ' ').trim();
}

/** The first `n` code points of `text` (Python slicing), not UTF-16 units. */
export function sliceCodePoints(text: string, n: number): string {
  if (text.length <= n) return text;
  const points = Array.from(text);
  return points.length <= n ? text : points.slice(0, n).join('');
}

export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * A household action naming a numbered instance ("go to sinkbasin 1"). Reusable patches must not force
 * or rewrite such actions; the rule applies to returned actions on every benchmark (protocol.md §3.6).
 */
export const ALFWORLD_INSTANCE_ACTION_RE =
  /\b(?:go to|take|pick up|put|open|close|toggle|clean|heat|cool|slice|examine|use)\b.*\b\d+\b/i;
