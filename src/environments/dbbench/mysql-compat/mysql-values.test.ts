import { describe, expect, it } from 'vitest';

import { compareText, decimalText, foldText, isCleanNumber, mysqlDoubleText, mysqlStringToDouble, mysqlStringToInt, sortKeyText } from './mysql-values.js';

describe('mysqlDoubleText (my_gcvt)', () => {
  it.each([
    [5, '5'],
    [-1.5, '-1.5'],
    [0.1 + 0.2, '0.30000000000000004'],
    [1e15, '1e15'],
    [2 ** 49, '562949953421312'],
    [2 ** 50, '1.125899906842624e15'],
    [1e-15, '0.000000000000001'],
    [1e-16, '1e-16'],
    [1.5e-7, '0.00000015'],
    [123456.789, '123456.789'],
  ])('%d → %s', (value, text) => {
    expect(mysqlDoubleText(value)).toBe(text);
  });
});

describe('string → number conversions', () => {
  it.each([
    ['1,174', 1],
    ['abc', 0],
    [' 12x', 12],
    ['1e3', 1000],
    ['.5', 0.5],
    ['-3.2e-1abc', -0.32],
    ['', 0],
    ['1e', 1],
    ['0x10', 0],
  ])('to double: %s → %d', (text, value) => {
    expect(mysqlStringToDouble(text)).toBe(value);
  });

  it('to BIGINT takes the integer prefix and clamps', () => {
    expect(mysqlStringToInt('12.7')).toBe(12n);
    expect(mysqlStringToInt(' -5x')).toBe(-5n);
    expect(mysqlStringToInt('x')).toBe(0n);
    expect(mysqlStringToInt('99999999999999999999')).toBe(9223372036854775807n);
  });

  it('recognises clean numbers', () => {
    expect(isCleanNumber(' 12.5 ')).toBe(true);
    expect(isCleanNumber('1,174')).toBe(false);
    expect(isCleanNumber('')).toBe(false);
  });
});

describe('decimalText (DECIMAL rounding, half away from zero)', () => {
  it.each([
    [1.005, 2, '1.01'],
    ['2', 2, '2.00'],
    [-0.004, 2, '0.00'],
    [123.456, 0, '123'],
    ['0.5', 0, '1'],
    [-2.5, 0, '-3'],
    [1e-7, 3, '0.000'],
    [12345678901234567890n, 2, '12345678901234567890.00'],
    ['.5', 1, '0.5'],
    ['5.', 0, '5'],
  ])('%s at scale %d → %s', (value, scale, text) => {
    expect(decimalText(value, scale)).toBe(text);
  });
});

describe('collation approximation (utf8mb4_0900_ai_ci)', () => {
  it('folds case, accents, ligatures and ignorables', () => {
    expect(foldText('Montréal')).toBe('montreal');
    expect(foldText('Straße')).toBe('strasse');
    expect(foldText('Æsir')).toBe('aesir');
    expect(foldText('a\u00adb\u200bc')).toBe('abc');
    expect(foldText('ＡＢＣ')).toBe('abc');
  });

  it('compares with punctuation < digits < letters and no padding', () => {
    expect(compareText('JFK', 'jfk')).toBe(0);
    expect(compareText('a', 'B')).toBe(-1);
    expect(compareText('_a', '0')).toBe(-1);
    expect(compareText('9', 'a')).toBe(-1);
    expect(compareText('a ', 'a')).toBe(1);
    expect(compareText('JFK', 'jfk', true)).not.toBe(0);
    expect(sortKeyText('Éa') < sortKeyText('eb')).toBe(true);
  });
});
