/**
 * Text rules shared by result normalization and patch validation. They follow Python's string and `re`
 * semantics, because the original normalizes with `" ".join(s.split())`, slices by code point and matches
 * with Unicode-aware `\b`/`\d`.
 */
import { PY_BOUNDARY, PY_DIGIT, PY_DOT, pyIgnoreCase } from '../python/python-regex.js';
import { pyCollapseWhitespace, pyLower } from '../python/python-text.js';

/** Maximum length of any hook-returned text or action, in code points. */
export const MAX_RETURN_TEXT_CHARS = 900;

/** Python's `" ".join(text.split())`: collapse whitespace runs to one space and trim. */
export function collapseWhitespace(text: string): string {
  return pyCollapseWhitespace(text);
}

/** Python's `str.lower()`. */
export function lowerCase(text: string): string {
  return pyLower(text);
}

/** The first `n` code points of `text` (Python slicing), not UTF-16 units. */
export function sliceCodePoints(text: string, n: number): string {
  if (text.length <= n) return text;
  const points = Array.from(text);
  return points.length <= n ? text : points.slice(0, n).join('');
}

const ALFWORLD_VERBS = ['go to', 'take', 'pick up', 'put', 'open', 'close', 'toggle', 'clean', 'heat', 'cool', 'slice', 'examine', 'use'];

/**
 * A household action naming a numbered instance ("go to sinkbasin 1"): a verb, then later a standalone
 * integer (IGNORECASE, Python `re` semantics). Reusable patches must not force or rewrite such actions;
 * the rule applies to returned actions on every benchmark (protocol.md §3.6).
 */
export const NUMBERED_INSTANCE_ACTION_RE = new RegExp(
  `${PY_BOUNDARY}(?:${ALFWORLD_VERBS.map(pyIgnoreCase).join('|')})${PY_BOUNDARY}${PY_DOT}*${PY_BOUNDARY}${PY_DIGIT}+${PY_BOUNDARY}`,
  'u',
);
