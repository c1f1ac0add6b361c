import { describe, expect, it } from 'vitest';

import { parseAction } from './session.js';
import { scanWebShopTextAction } from './text-action-scan.js';
import { parseWebShopTextAction } from './webshop-text-prompts.js';

// The regexes the scans replace, kept as the oracle.
const PYTHON_RULE = /[Aa]ction: *\n* *((search|click)\[[^\n]+?\])/;
const JS_RULE = /[Aa]ction: *\n* *((search|click)\[(.+?)\])/;
const PARSE_ACTION = /^([^\n]+)\[([^\n]+)\]/;

const PIECES = ['Action:', 'action:', 'ACTION:', ' ', '\n', '\r', '\u2028', 'search[', 'click[', '[', ']', 'x', 'b0', 'search'];

function randomTexts(count: number): string[] {
  let seed = 4242;
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    let text = '';
    for (let j = 0; j < i % 12; j++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      text += PIECES[seed % PIECES.length];
    }
    texts.push(text);
  }
  return texts;
}

describe('scanWebShopTextAction', () => {
  it('finds what the v0.2 regex finds, with Python and JavaScript line breaks', () => {
    for (const text of randomTexts(20_000)) {
      const py = PYTHON_RULE.exec(text);
      expect(scanWebShopTextAction(text, 'python'), text).toEqual(py ? { action: py[1], verb: py[2], value: py[1]!.slice(py[2]!.length + 1, -1) } : undefined);
      const js = JS_RULE.exec(text);
      expect(scanWebShopTextAction(text, 'javascript'), text).toEqual(js ? { action: js[1], verb: js[2], value: js[3] } : undefined);
    }
  });

  // The regex is quadratic on these (space runs after a label, labels whose bracket never closes); at
  // multi-megabyte sizes it runs for hours.
  it('is linear on multi-megabyte replies', () => {
    expect(parseWebShopTextAction(`Action:${' '.repeat(4_000_000)}x`)).toBeUndefined();
    expect(parseWebShopTextAction(`${'Action: search[a '.repeat(250_000)}`)).toBeUndefined();
    expect(parseWebShopTextAction(`${'Action: search[a\n'.repeat(250_000)}Action: click[b]`)).toEqual({ action: 'click[b]', verb: 'click', value: 'b' });
    expect(scanWebShopTextAction(`Action: search[${'x'.repeat(4_000_000)}]`, 'javascript')?.value).toHaveLength(4_000_000);
  });
});

describe('parseAction (the engine rule)', () => {
  it('splits like re.match(r"(.+)\\[(.+)\\]")', () => {
    for (const text of randomTexts(20_000)) {
      const m = PARSE_ACTION.exec(text);
      expect(parseAction(text), text).toEqual(m ? { name: m[1], arg: m[2] } : { name: text, arg: undefined });
    }
    expect(parseAction('click[b0[x]]')).toEqual({ name: 'click[b0', arg: 'x]' });
  });

  it('is linear on a multi-megabyte line of brackets', () => {
    const brackets = `]${'[['.repeat(2_000_000)}`;
    expect(parseAction(brackets)).toEqual({ name: brackets, arg: undefined });
    expect(parseAction(`a${'['.repeat(4_000_000)}b]`).arg).toBe('b');
  });
});
