/**
 * Small text rules shared by the failure-packet renderers: cutting text to a budget without splitting a
 * character, collapsing whitespace, and printing rewards. Every cut leaves a visible marker, and the marker
 * counts against the budget, so a rendered field is never longer than its limit.
 */
import { pyFloatRepr } from '../python/python-text.js';

export const CUT_MARK = '...[truncated]';
export const MIDDLE_CUT_MARK = '...[middle truncated]...';

/** The longest prefix of `text` with at most `max` UTF-16 units that does not end inside a surrogate pair. */
function safePrefix(text: string, max: number): string {
  if (max <= 0) return '';
  let end = Math.min(max, text.length);
  const last = text.charCodeAt(end - 1);
  if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end);
}

/** The longest suffix of `text` with at most `max` UTF-16 units that does not start inside a surrogate pair. */
function safeSuffix(text: string, max: number): string {
  if (max <= 0) return '';
  let start = Math.max(0, text.length - max);
  const first = text.charCodeAt(start);
  if (start > 0 && first >= 0xdc00 && first <= 0xdfff) start++;
  return text.slice(start);
}

/** `text` if it fits in `max` characters, else its head followed by {@link CUT_MARK}, `max` characters in all. */
export function clipHead(text: string, max: number, mark = CUT_MARK): string {
  if (text.length <= max) return text;
  if (max <= mark.length) return safePrefix(mark, max);
  return safePrefix(text, max - mark.length) + mark;
}

/**
 * `text` if it fits in `max` characters, else half the remaining budget from the head and half from the
 * tail joined by {@link MIDDLE_CUT_MARK}: the start and the end of a long output both stay readable.
 */
export function clipMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= MIDDLE_CUT_MARK.length) return safePrefix(MIDDLE_CUT_MARK, max);
  const room = max - MIDDLE_CUT_MARK.length;
  const head = Math.ceil(room / 2);
  return safePrefix(text, head) + MIDDLE_CUT_MARK + safeSuffix(text, room - head);
}

/** Every run of whitespace (newlines included) becomes one space; the ends are trimmed. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

/** CRLF/CR become LF, trailing spaces go, and runs of three or more newlines become two. */
export function tidyLines(text: string): string {
  // Trailing spaces are cut per line: `/[ \t]+\n/g` retries every start of a long run that ends elsewhere.
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  for (let i = 0; i < lines.length - 1; i++) lines[i] = trimSpacesAndTabsEnd(lines[i]!);
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function trimSpacesAndTabsEnd(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  return end === line.length ? line : line.slice(0, end);
}

/** A reward as Python prints a float (`0.0`, `1.0`, `0.25`), the way the original's headers show it. */
export function formatReward(reward: number): string {
  return pyFloatRepr(reward);
}
