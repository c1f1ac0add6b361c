/**
 * The block searches of the response protocols (§2.3), as index scans with exactly the results of the
 * original's regexes under Python `re`:
 * - `re.findall(r"<tag>\s*(.*?)\s*</tag>", text, re.S | re.I)` → `closedTagBlocks`;
 * - `re.search(...)` of the same pattern → `hasClosedTagBlock`;
 * - `re.findall(r"```(?:json)?\s*(\{.*?\})\s*```", text, re.S)` → `fencedJsonBlocks`.
 * A backtracking engine runs those patterns in quadratic time on whitespace runs (every start of the lazy
 * group retries `\s*` over the rest of the run) and on openings without a closing tag, so an engineer
 * answer padded with whitespace never got a verdict. Only fixed-length tags are found with regexes here.
 */
import { pyIgnoreCase } from '../python/python-regex.js';
import { isPyWhitespaceCode } from '../python/python-text.js';

/** The opening and closing tag of one block kind, matched the way Python's IGNORECASE matches them. */
export interface TagPair {
  open: RegExp;
  close: RegExp;
}

export function tagPair(name: string): TagPair {
  const body = pyIgnoreCase(name);
  return { open: new RegExp(`<${body}>`, 'gu'), close: new RegExp(`</${body}>`, 'gu') };
}

function find(re: RegExp, text: string, from: number): RegExpExecArray | null {
  re.lastIndex = from;
  return re.exec(text);
}

function skipWhitespace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isPyWhitespaceCode(text.charCodeAt(i))) i++;
  return i;
}

/** Start of the whitespace run that ends at `end`, not before `floor`. */
function whitespaceRunStart(text: string, end: number, floor: number): number {
  let i = end;
  while (i > floor && isPyWhitespaceCode(text.charCodeAt(i - 1))) i--;
  return i;
}

/**
 * The contents of every closed block, in order. The lazy group ends before the whitespace that precedes
 * the first closing tag after the opening tag; the next search starts after that closing tag. When an
 * opening tag has no closing tag after it, no later one has either, so the scan ends there.
 */
export function closedTagBlocks(text: string, tags: TagPair): string[] {
  const blocks: string[] = [];
  let from = 0;
  for (;;) {
    const open = find(tags.open, text, from);
    if (open === null) break;
    const openEnd = open.index + open[0].length;
    const close = find(tags.close, text, openEnd);
    if (close === null) break;
    const contentStart = skipWhitespace(text, openEnd);
    blocks.push(text.slice(contentStart, whitespaceRunStart(text, close.index, contentStart)));
    from = close.index + close[0].length;
  }
  return blocks;
}

/** Whether the text holds a closed block (`re.search` of the block pattern). */
export function hasClosedTagBlock(text: string, tags: TagPair): boolean {
  const open = find(tags.open, text, 0);
  return open !== null && find(tags.close, text, open.index + open[0].length) !== null;
}

/**
 * Every fenced JSON block: three backticks, an optional `json`, whitespace, then the shortest text from a
 * `{` to a `}` that only whitespace separates from the next three backticks. Once a block's `{` finds no
 * such closing, no later opening can (its `{` comes after this one), so the scan ends there.
 */
export function fencedJsonBlocks(text: string): string[] {
  const blocks: string[] = [];
  let from = 0;
  for (;;) {
    const fence = text.indexOf('```', from);
    if (fence < 0) break;
    let body = fence + 3;
    if (text.startsWith('json', body)) body += 4;
    body = skipWhitespace(text, body);
    if (text[body] !== '{') {
      from = fence + 1;
      continue;
    }
    let closed = -1;
    for (let end = text.indexOf('```', body + 2); end >= 0; end = text.indexOf('```', end + 1)) {
      const brace = whitespaceRunStart(text, end, body + 1) - 1;
      if (brace > body && text[brace] === '}') {
        blocks.push(text.slice(body, brace + 1));
        closed = end + 3;
        break;
      }
    }
    if (closed < 0) break;
    from = closed;
  }
  return blocks;
}
