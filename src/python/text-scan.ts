/**
 * Index scans for what small JavaScript regexes do at the ends of a string (`/[c]+$/`, `/^[c]+|[c]+$/g`)
 * and JavaScript's `\s` class. A backtracking engine retries such a pattern at every start inside a long
 * run of the class that does not reach the end, which is quadratic; a scan from the end is linear.
 */

/** Whether the UTF-16 unit `code` is in JavaScript's `\s` (WhiteSpace and LineTerminator; all in the BMP). */
export function isJsSpaceCode(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  if (code === 0xa0 || code === 0x1680 || code === 0xfeff) return true;
  if (code < 0x2000) return false;
  return code <= 0x200a || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000;
}

/** Whether `code` ends a line for JavaScript's `.` and multiline `^`/`$`: `\n`, `\r`, U+2028, U+2029. */
export function isJsLineTerminatorCode(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
}

export type CodeTest = (code: number) => boolean;

function toTest(chars: string | CodeTest): CodeTest {
  if (typeof chars !== 'string') return chars;
  const codes = new Set(Array.from(chars, (c) => c.charCodeAt(0)));
  return (code) => codes.has(code);
}

/** `text.replace(/[c]+$/, '')` (Python's `text.rstrip(chars)` for BMP characters). */
export function trimEndOf(text: string, chars: string | CodeTest): string {
  const test = toTest(chars);
  let end = text.length;
  while (end > 0 && test(text.charCodeAt(end - 1))) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** `text.replace(/^[c]+|[c]+$/g, '')` (Python's `text.strip(chars)` for BMP characters). */
export function trimBothOf(text: string, chars: string | CodeTest): string {
  const test = toTest(chars);
  let start = 0;
  let end = text.length;
  while (start < end && test(text.charCodeAt(start))) start++;
  while (end > start && test(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** Index of the last JavaScript line terminator in `text`, or -1. */
export function lastLineTerminator(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (isJsLineTerminatorCode(text.charCodeAt(i))) return i;
  return -1;
}

/**
 * The group of the first match of `open(.*?)close` (or `open(.+?)close` with `minLength` 1), where `open`
 * and `close` are literals without line ends and `.` is JavaScript's (no line terminators): the text from
 * the leftmost `open` to the first `close` on its line. As a regex each `open` with no `close` on its line
 * rescans the rest of the line; here a line without one is passed once and the next `close` is remembered.
 */
export function lazyBetweenOnLine(text: string, open: string, close: string, minLength: 0 | 1 = 0): { start: number; end: number } | undefined {
  let from = 0;
  let closeAt = -1;
  let lineEnd = -1;
  for (;;) {
    const at = text.indexOf(open, from);
    if (at < 0) return undefined;
    const start = at + open.length;
    if (lineEnd < start) {
      lineEnd = start;
      while (lineEnd < text.length && !isJsLineTerminatorCode(text.charCodeAt(lineEnd))) lineEnd++;
    }
    if (closeAt !== -2 && closeAt < start + minLength) {
      closeAt = text.indexOf(close, start + minLength);
      if (closeAt < 0) closeAt = -2;
    }
    if (closeAt === -2) return undefined;
    if (closeAt + close.length <= lineEnd) return { start, end: closeAt };
    // Every later `open` on this line meets the same `close` past the line's end.
    from = lineEnd;
  }
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && isJsSpaceCode(text.charCodeAt(at))) at++;
  return at;
}

/**
 * `text.split(/\s+WORD\s+/)` for a literal `word` that starts and ends with non-space: each whitespace
 * run is measured once (the regex measures it again from each of its positions when no word follows).
 */
export function splitOnSpacedWord(text: string, word: string): string[] {
  const parts: string[] = [];
  let pieceStart = 0;
  let i = 0;
  while (i < text.length) {
    if (!isJsSpaceCode(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const runEnd = skipSpace(text, i);
    if (text.startsWith(word, runEnd) && isJsSpaceCode(text.charCodeAt(runEnd + word.length))) {
      parts.push(text.slice(pieceStart, i));
      pieceStart = skipSpace(text, runEnd + word.length);
      i = pieceStart;
    } else {
      i = runEnd;
    }
  }
  parts.push(text.slice(pieceStart));
  return parts;
}
