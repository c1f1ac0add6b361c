/**
 * Text rules shared by result normalization and patch validation. They follow Python's string and `re`
 * semantics, because the original normalizes with `" ".join(s.split())`, slices by code point and matches
 * with Unicode-aware `\b`/`\d`.
 */
import { PY_BOUNDARY, PY_DIGIT, PY_WORD, pyIgnoreCase } from '../python/python-regex.js';
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

const HOUSEHOLD_VERBS = ['go to', 'take', 'pick up', 'put', 'open', 'close', 'toggle', 'clean', 'heat', 'cool', 'slice', 'examine', 'use'];

/** The original's rule, for messages and docs: `re.search` with IGNORECASE. */
export const NUMBERED_INSTANCE_ACTION_PYTHON = String.raw`\b(?:go to|take|pick up|put|open|close|toggle|clean|heat|cool|slice|examine|use)\b.*\b\d+\b`;

const INSTANCE_VERB = new RegExp(`${PY_BOUNDARY}(?:${HOUSEHOLD_VERBS.map(pyIgnoreCase).join('|')})${PY_BOUNDARY}`, 'gu');
/** `\b\d+\b`: a digit run with no word character on either side. */
const STANDALONE_NUMBER = new RegExp(`(?<!${PY_WORD})${PY_DIGIT}+(?!${PY_WORD})`, 'gu');

/**
 * A household action naming a numbered instance ("go to sinkbasin 1"): a verb, then later on the same line
 * a standalone integer (IGNORECASE, Python `re` semantics). Reusable patches must not force or rewrite such
 * actions; the rule applies to returned actions on every benchmark (protocol.md §3.6).
 *
 * As one regex (`verb.*number`) this is quadratic: every verb occurrence rescans the rest of its line. Here
 * both parts are searched forward only: the first verb of a line decides for the whole line (a later verb
 * sees a subset of the same text), and the next standalone number is looked up once per line at most.
 */
export function namesNumberedInstance(text: string): boolean {
  let number = -1;
  INSTANCE_VERB.lastIndex = 0;
  for (let verb = INSTANCE_VERB.exec(text); verb !== null; verb = INSTANCE_VERB.exec(text)) {
    const verbEnd = verb.index + verb[0].length;
    if (number < verbEnd) {
      STANDALONE_NUMBER.lastIndex = verbEnd;
      const found = STANDALONE_NUMBER.exec(text);
      if (found === null) return false;
      number = found.index;
    }
    const lineEnd = text.indexOf('\n', verbEnd);
    if (lineEnd < 0 || number < lineEnd) return true;
    INSTANCE_VERB.lastIndex = lineEnd + 1;
  }
  return false;
}
