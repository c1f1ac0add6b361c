import { describe, expect, it } from 'vitest';

import {
  isPyWhitespaceCode,
  PY_WHITESPACE_CLASS_BODY,
  pyCollapseWhitespace,
  pyFloatRepr,
  pyLen,
  pyLStrip,
  pyRepr,
  pyRStrip,
  pySplit,
  pyStr,
  pyStrip,
  pyStringRepr,
  pyTruthy,
} from './python-text.js';

// Expected values were produced by CPython 3.11.
describe('Python whitespace', () => {
  it('strips exactly what str.strip() strips', () => {
    expect(pyStrip('\x1c\x1d\x85\u00a0 a \u3000\u2028')).toBe('a');
    // U+FEFF and U+200B are not whitespace in Python (JS trim() strips U+FEFF).
    expect(pyStrip('\ufeffa\ufeff')).toBe('\ufeffa\ufeff');
    expect(pyStrip('\u200ba')).toBe('\u200ba');
  });

  it('collapses like " ".join(s.split())', () => {
    expect(pyCollapseWhitespace('  a\t\n b\x1f\x1fc\u2003 ')).toBe('a b c');
    expect(pyCollapseWhitespace('a\ufeff b')).toBe('a\ufeff b');
    expect(pyCollapseWhitespace(' \n\t ')).toBe('');
  });

  it('knows exactly the str.isspace() code units', () => {
    const cls = new RegExp(`^[${PY_WHITESPACE_CLASS_BODY}]$`);
    const differ: number[] = [];
    for (let code = 0; code <= 0xffff; code++) if (isPyWhitespaceCode(code) !== cls.test(String.fromCharCode(code))) differ.push(code);
    expect(differ).toEqual([]);
  });

  it('splits, strips and collapses like the regex definitions on mixed text', () => {
    const ws = new RegExp(`[${PY_WHITESPACE_CLASS_BODY}]+`, 'g');
    const alphabet = ['a', 'é', '😀', ' ', '\t', '\n', '\x1c', '\x85', '\u3000', '\ufeff', '\u200b'];
    let seed = 7;
    for (let round = 0; round < 500; round++) {
      let text = '';
      for (let i = 0; i < round % 17; i++) {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        text += alphabet[seed % alphabet.length];
      }
      expect(pySplit(text)).toEqual(text.split(ws).filter((t) => t !== ''));
      expect(pyLStrip(text)).toBe(text.replace(new RegExp(`^${ws.source}`), ''));
      expect(pyRStrip(text)).toBe(text.replace(new RegExp(`${ws.source}$`), ''));
      expect(pyStrip(text)).toBe(pyRStrip(pyLStrip(text)));
      expect(pyCollapseWhitespace(text)).toBe(pyStrip(text).replace(ws, ' '));
    }
  });

  // A `[ws]+$` regex took minutes on the 1 MB case (quadratic); at 4 MB a quadratic rule would run for hours.
  it('is linear on multi-megabyte whitespace', () => {
    const run = ' \t\u3000'.repeat(1_400_000);
    const padded = `x${run}x`;
    expect(pyRStrip(padded)).toBe(padded);
    expect(pyLStrip(padded)).toBe(padded);
    expect(pyStrip(`${run}x${run}`)).toBe('x');
    expect(pyCollapseWhitespace(padded)).toBe('x x');
    expect(pySplit(padded)).toEqual(['x', 'x']);
    expect(pyCollapseWhitespace('a '.repeat(2_000_000))).toHaveLength(3_999_999);
  });
});

describe('pyLen', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(pyLen('😀😀')).toBe(2);
    expect('😀😀'.length).toBe(4);
  });
});

describe('pyRepr / pyStr', () => {
  it('prints JSON values the way Python does', () => {
    expect(pyStr(null)).toBe('None');
    expect(pyStr(true)).toBe('True');
    expect(pyStr(5n)).toBe('5');
    expect(pyStr(1)).toBe('1.0');
    expect(pyStr('x')).toBe('x');
    expect(pyRepr(['a', null, 2.5, new Map([['k', false]])])).toBe("['a', None, 2.5, {'k': False}]");
    expect(pyRepr(new Map())).toBe('{}');
  });

  it('prints floats with repr() rules', () => {
    const cases: Array<[number, string]> = [
      [0, '0.0'],
      [-0, '-0.0'],
      [1e16, '1e+16'],
      [1e15, '1000000000000000.0'],
      [1.2345678901234568e17, '1.2345678901234568e+17'],
      [0.0001, '0.0001'],
      [0.00001, '1e-05'],
      [1.5e-7, '1.5e-07'],
      [1e100, '1e+100'],
      [0.1, '0.1'],
      [NaN, 'nan'],
      [-Infinity, '-inf'],
    ];
    for (const [value, expected] of cases) expect(pyFloatRepr(value)).toBe(expected);
  });

  it('quotes and escapes strings like repr(str)', () => {
    expect(pyStringRepr("it's")).toBe('"it\'s"');
    expect(pyStringRepr('say "hi"')).toBe("'say \"hi\"'");
    expect(pyStringRepr(`both ' "`)).toBe(`'both \\' "'`);
    expect(pyStringRepr('a\\b\n\t\r\x01\x7f')).toBe("'a\\\\b\\n\\t\\r\\x01\\x7f'");
    expect(pyStringRepr('é\u00a0\u200b\ud83d😀')).toBe("'é\\xa0\\u200b\\ud83d😀'");
  });
});

describe('pyTruthy', () => {
  it('follows bool()', () => {
    expect([null, false, 0, -0, 0n, '', [], new Map()].map(pyTruthy)).toEqual(Array(8).fill(false));
    expect([NaN, 0.1, 1n, ' ', [0], new Map([['a', null]])].map(pyTruthy)).toEqual(Array(6).fill(true));
  });
});
