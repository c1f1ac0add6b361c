/**
 * `_clean_text`, the token cleaners and the leakage regexes of the original validator (§3.5, §3.6),
 * ported with Python `re` semantics (Unicode `\b`, `\d`, `\s`; Python's IGNORECASE equivalences).
 */
import { TEXT_MAX_CHARS } from './patch-types.js';
import type { PyValue } from '../python/python-json.js';
import { NUMBERED_INSTANCE_ACTION_PYTHON, namesNumberedInstance } from '../hooks/text-rules.js';
import { PY_BOUNDARY, PY_DIGIT, PY_SPACE, pyIgnoreCase } from '../python/python-regex.js';
import { pyCollapseWhitespace, pyLen, pyLower, pyRepr, pyStrip } from '../python/python-text.js';
import { accept, reject, type Step } from './rejection.js';

export interface ForbiddenPattern {
  id: 'asin' | 'task_index' | 'webshop_index' | 'alfworld_index';
  /** The original Python pattern, for messages and docs. */
  python: string;
  regex: RegExp;
}

const B = PY_BOUNDARY;

/** Text that "appears to contain task-specific leakage". Checked on every cleaned text field. */
export const FORBIDDEN_TEXT_PATTERNS: readonly ForbiddenPattern[] = [
  {
    id: 'asin',
    python: String.raw`\b[bB]0[0-9a-zA-Z]{8}\b`,
    regex: new RegExp(`${B}[bB]0[0-9a-zA-Z]{8}${B}`, 'u'),
  },
  {
    id: 'task_index',
    python: String.raw`\b(?:task|index|sample)\s*#?\s*\d{1,5}\b` + ' (IGNORECASE)',
    regex: new RegExp(
      // `\s*#?\s*` spelled `\s*(?:#\s*)?`: the same language, without the quadratic split of one space run.
      `${B}(?:${pyIgnoreCase('task')}|${pyIgnoreCase('index')}|${pyIgnoreCase('sample')})${PY_SPACE}*(?:#${PY_SPACE}*)?${PY_DIGIT}{1,5}${B}`,
      'u',
    ),
  },
  {
    id: 'webshop_index',
    python: String.raw`\bwebshop[-_\s]*\d{1,5}\b` + ' (IGNORECASE)',
    regex: new RegExp(`${B}${pyIgnoreCase('webshop')}(?:[-_]|${PY_SPACE})*${PY_DIGIT}{1,5}${B}`, 'u'),
  },
  {
    id: 'alfworld_index',
    python: String.raw`\balfworld[-_\s]*\d{1,5}\b` + ' (IGNORECASE)',
    regex: new RegExp(`${B}${pyIgnoreCase('alfworld')}(?:[-_]|${PY_SPACE})*${PY_DIGIT}{1,5}${B}`, 'u'),
  },
];

export { NUMBERED_INSTANCE_ACTION_PYTHON };

/** The first forbidden pattern that matches `text`, if any (Python `pattern.search`). */
export function findForbiddenPattern(text: string): ForbiddenPattern | undefined {
  return FORBIDDEN_TEXT_PATTERNS.find((pattern) => pattern.regex.test(text));
}

/** The validator's numbered-instance action check: lower-case, collapse whitespace, then search. */
export function namesNumberedInstanceAction(action: string): boolean {
  return namesNumberedInstance(pyCollapseWhitespace(pyLower(action)));
}

/**
 * `_clean_text(value, field, required)`: must be a string; whitespace collapsed; non-empty when
 * required; at most 900 code points (longer text is rejected, not truncated); no leakage pattern.
 */
export function cleanText(value: PyValue, field: string, path: string, required = true): Step<string> {
  if (typeof value !== 'string') return reject('text_not_string', path, `${field} must be a string`);
  const text = pyCollapseWhitespace(value);
  if (required && text === '') return reject('text_empty', path, `${field} cannot be empty`);
  if (pyLen(text) > TEXT_MAX_CHARS) return reject('text_too_long', path, `${field} exceeds ${TEXT_MAX_CHARS} chars`);
  if (findForbiddenPattern(text)) {
    return reject('forbidden_leakage', path, `${field} appears to contain task-specific leakage`);
  }
  return accept(text);
}

const TOKEN_RE = /^[a-z0-9_.:-]{1,64}$/;
const PY_SPACE_RUN = new RegExp(`${PY_SPACE}+`, 'gu');

/** `_clean_token(value, "task_type")`: stripped, lower-cased, `*` or `[a-z0-9_.:-]{1,64}`. */
export function cleanToken(value: PyValue, field: string, path: string): Step<string> {
  if (typeof value !== 'string') return reject('invalid_token', path, `${field} must be a string`);
  const token = pyLower(pyStrip(value));
  if (token !== '*' && !TOKEN_RE.test(token)) return reject('invalid_token', path, `invalid ${field}: ${pyRepr(value)}`);
  return accept(token);
}

/** `_clean_keyword(value)`: like a token, with whitespace runs turned into `_`. */
export function cleanKeyword(value: PyValue, path: string): Step<string> {
  if (typeof value !== 'string') return reject('invalid_token', path, 'keyword must be a string');
  const token = pyLower(pyStrip(value)).replace(PY_SPACE_RUN, '_');
  if (token !== '*' && !TOKEN_RE.test(token)) return reject('invalid_token', path, `invalid keyword: ${pyRepr(value)}`);
  return accept(token);
}
