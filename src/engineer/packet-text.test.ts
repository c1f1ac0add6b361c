import { describe, expect, it } from 'vitest';

import { clipHead, clipMiddle, collapseWhitespace, formatReward, tidyLines } from './packet-text.js';

describe('packet text rules', () => {
  it('cuts to the budget with the marker counted, never splitting a surrogate pair', () => {
    expect(clipHead('abc', 3)).toBe('abc');
    expect(clipHead('a'.repeat(50), 20)).toBe(`${'a'.repeat(6)}...[truncated]`);
    expect(clipHead('a'.repeat(50), 20)).toHaveLength(20);
    const emoji = `${'a'.repeat(5)}😀${'b'.repeat(40)}`;
    const cut = clipHead(emoji, 20);
    expect(cut).toBe('aaaaa...[truncated]');
    expect(cut.length).toBeLessThanOrEqual(20);
    expect(clipHead('a'.repeat(50), 5)).toBe('...[t');
  });

  it('keeps head and tail around a middle cut', () => {
    const text = `HEAD${'x'.repeat(100)}TAIL`;
    const cut = clipMiddle(text, 60);
    expect(cut).toHaveLength(60);
    expect(cut.startsWith('HEADxxxxxxx')).toBe(true);
    expect(cut.endsWith('xxxTAIL')).toBe(true);
    expect(cut).toContain('...[middle truncated]...');
  });

  it('collapses whitespace, tidies line breaks and prints rewards as Python floats', () => {
    expect(collapseWhitespace(' {"q":\n  "a   b"}\t')).toBe('{"q": "a b"}');
    expect(tidyLines('a  \r\nb\r\n\r\n\r\n\nc\n')).toBe('a\nb\n\nc');
    expect([0, 1, 0.25, 1 / 3].map(formatReward)).toEqual(['0.0', '1.0', '0.25', '0.3333333333333333']);
  });

  it('tidies lines like the regex chain, in linear time', () => {
    const oracle = (text: string): string => text.replace(/\r\n?/g, '\n').replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
    const pieces = [' ', '\t', '\n', '\r', 'x', '\u00a0'];
    let seed = 5;
    for (let round = 0; round < 5000; round++) {
      let text = '';
      for (let i = 0; i < round % 13; i++) {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        text += pieces[seed % pieces.length];
      }
      expect(tidyLines(text), JSON.stringify(text)).toBe(oracle(text));
    }
    // `/[ \t]+\n/g` is quadratic on a long run that ends elsewhere; at 4 MB it runs for hours.
    expect(tidyLines(`a${' \t'.repeat(2_000_000)}b\n`)).toHaveLength(4_000_002);
  });
});
