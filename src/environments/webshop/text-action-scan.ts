/**
 * The v0.2 WebShop action rule, `[Aa]ction: *\n* *((search|click)\[.+?])` (first match), as a forward scan.
 * As a backtracking regex it is quadratic twice: ` *\n* *` splits one run of spaces in every possible way,
 * and each `Action:` whose bracket never closes rescans the rest of its line. Here the spaces are skipped
 * once (only the greedy split can be followed by `search[`/`click[`), and the next `]` and the next line
 * break are found once for all labels after them.
 */
export interface TextActionMatch {
  /** `search[…]` or `click[…]`: the regex's first group. */
  action: string;
  verb: 'search' | 'click';
  /** What is between the brackets. */
  value: string;
}

/** Where the lazy `.+?` must stop: `\n` for Python's `.`; JavaScript's `.` also stops at `\r`, U+2028, U+2029. */
export type LineBreakRule = 'python' | 'javascript';

const LABEL = /[Aa]ction:/g;

function isLineBreak(code: number, rule: LineBreakRule): boolean {
  return code === 0x0a || (rule === 'javascript' && (code === 0x0d || code === 0x2028 || code === 0x2029));
}

export function scanWebShopTextAction(text: string, rule: LineBreakRule): TextActionMatch | undefined {
  let close = -1;
  let lineBreak = -1;
  LABEL.lastIndex = 0;
  for (let label = LABEL.exec(text); label !== null; label = LABEL.exec(text)) {
    let at = label.index + label[0].length;
    while (text.charCodeAt(at) === 0x20) at++;
    while (text.charCodeAt(at) === 0x0a) at++;
    while (text.charCodeAt(at) === 0x20) at++;
    const verb = text.startsWith('search[', at) ? 'search' : text.startsWith('click[', at) ? 'click' : undefined;
    if (verb === undefined) continue;
    const valueStart = at + verb.length + 1;
    // `.+?` takes at least one character, so the closing bracket comes after the value's first character.
    if (close < valueStart + 1) {
      close = text.indexOf(']', valueStart + 1);
      if (close < 0) return undefined;
    }
    if (lineBreak < valueStart) {
      lineBreak = valueStart;
      while (lineBreak < text.length && !isLineBreak(text.charCodeAt(lineBreak), rule)) lineBreak++;
    }
    if (close < lineBreak) return { action: text.slice(at, close + 1), verb, value: text.slice(valueStart, close) };
  }
  return undefined;
}
