import { describe, expect, it } from 'vitest';

import type { PyValue, SqlOutcome } from './backend.js';
import { EMPTY_RESPONSE_TEXT, formatExecutionFailure, formatSqlOutcome, SQL_TIMEOUT_TEXT, truncateResultText } from './format-result.js';
import { pyDecimalStr, pyReprFloat, pyReprRows, pyReprStr, pythonStr } from './python-repr.js';

// Expected strings were produced with CPython 3.11 `str(rows)`.
const rows = (...r: PyValue[][]): SqlOutcome => ({ kind: 'rows', rows: r });
const f = (value: number): PyValue => ({ type: 'float', value });
const i = (value: string): PyValue => ({ type: 'int', value });

describe('formatSqlOutcome: row tuples', () => {
  it('cuts a long result to the same text as writing out every row and cutting that', () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pieces = ['a', 'é', '😀', "'", '\\n', '\u{1F600}\u{1F600}', 'xyz ', '\u0000'];
    const cell = (): PyValue => {
      const kind = random(5);
      if (kind === 0) return null;
      if (kind === 1) return i(String(random(100000)));
      return Array.from({ length: random(60) }, () => pieces[random(pieces.length)]).join('');
    };
    for (let n = 0; n < 300; n++) {
      const width = 1 + random(4);
      const table = Array.from({ length: random(120) }, () => Array.from({ length: width }, cell));
      const whole = truncateResultText(pyReprRows(table));
      expect(formatSqlOutcome({ kind: 'rows', rows: table })).toBe(whole);
    }
    // Around the cut: all astral characters (two UTF-16 units each), and a text of exactly 800 and 801 characters.
    const astral = Array.from({ length: 40 }, () => ['😀'.repeat(30)]);
    expect(formatSqlOutcome({ kind: 'rows', rows: astral })).toBe(truncateResultText(pyReprRows(astral)));
    for (const total of [800, 801]) {
      const one = [['x'.repeat(total - "[('',)]".length)]];
      expect(Array.from(pyReprRows(one)).length).toBe(total);
      expect(formatSqlOutcome({ kind: 'rows', rows: one })).toBe(truncateResultText(pyReprRows(one)));
    }
  });


  it('renders the common shapes', () => {
    expect(formatSqlOutcome(rows(['Women +60kg Bronze']))).toBe("[('Women +60kg Bronze',)]");
    expect(formatSqlOutcome(rows([i('3')]))).toBe('[(3,)]');
    expect(formatSqlOutcome(rows([f(167)]))).toBe('[(167.0,)]');
    expect(formatSqlOutcome(rows())).toBe('[]');
    expect(formatSqlOutcome(rows([null, 'a', i('1')], []))).toBe("[(None, 'a', 1), ()]");
  });

  it('chooses quotes and escapes like Python repr', () => {
    expect(formatSqlOutcome(rows(["it's"]))).toBe(`[("it's",)]`);
    expect(formatSqlOutcome(rows(['say "hi"']))).toBe(`[('say "hi"',)]`);
    expect(formatSqlOutcome(rows([`both ' and "`]))).toBe(`[('both \\' and "',)]`);
    expect(formatSqlOutcome(rows(['back\\slash']))).toBe(`[('back\\\\slash',)]`);
    expect(formatSqlOutcome(rows(['line\nbreak\ttab\rcr']))).toBe(`[('line\\nbreak\\ttab\\rcr',)]`);
  });

  it('keeps printable unicode and escapes the rest', () => {
    expect(formatSqlOutcome(rows(['Montréal']))).toBe("[('Montréal',)]");
    expect(formatSqlOutcome(rows(['naïve – dash']))).toBe("[('naïve – dash',)]");
    expect(formatSqlOutcome(rows(['\u00a0nbsp\u200b\ufeff']))).toBe(`[('\\xa0nbsp\\u200b\\ufeff',)]`);
    expect(formatSqlOutcome(rows(['\u0000\u001f\u007f']))).toBe(`[('\\x00\\x1f\\x7f',)]`);
    expect(formatSqlOutcome(rows(['😀 \u{1F600}']))).toBe("[('😀 😀',)]");
    expect(formatSqlOutcome(rows(['\u2028']))).toBe(`[('\\u2028',)]`);
    expect(pyReprStr('\u{e0001}')).toBe(`'\\U000e0001'`);
    expect(pyReprStr('\ud800')).toBe(`'\\ud800'`);
  });

  it('renders floats with Python repr', () => {
    const values = [1e16, 1e15, 0.0001, 0.00001, -0, 123456789012345680, 1.5e-7, 2.5, 0.1 + 0.2, Infinity, NaN, -1e22, 1e22];
    expect(formatSqlOutcome(rows(...values.map((v) => [f(v)])))).toBe(
      '[(1e+16,), (1000000000000000.0,), (0.0001,), (1e-05,), (-0.0,), (1.2345678901234568e+17,), (1.5e-07,), (2.5,), (0.30000000000000004,), (inf,), (nan,), (-1e+22,), (1e+22,)]',
    );
    expect(pyReprFloat(-Infinity)).toBe('-inf');
    expect(pyReprFloat(-12.5)).toBe('-12.5');
    expect(pyReprFloat(5e-324)).toBe('5e-324');
    expect(pyReprFloat(1.7976931348623157e308)).toBe('1.7976931348623157e+308');
    expect(pyReprFloat(9999999999999998)).toBe('9999999999999998.0');
  });

  it('renders Decimal, date, datetime, timedelta and bytes', () => {
    const dec = (value: string): PyValue => ({ type: 'decimal', value });
    expect(formatSqlOutcome(rows([dec('1.50')], [dec('0.0000001000')], [dec('12')], [dec('-0.5')], [dec('0.000001')]))).toBe(
      "[(Decimal('1.50'),), (Decimal('1.000E-7'),), (Decimal('12'),), (Decimal('-0.5'),), (Decimal('0.000001'),)]",
    );
    expect(
      formatSqlOutcome(
        rows(
          [{ type: 'date', value: '2020-01-02' }],
          [{ type: 'datetime', value: '2020-01-02 00:00:00' }],
          [{ type: 'datetime', value: '2020-01-02 03:04:05' }],
          [{ type: 'datetime', value: '2020-01-02 03:04:00.000500' }],
        ),
      ),
    ).toBe(
      '[(datetime.date(2020, 1, 2),), (datetime.datetime(2020, 1, 2, 0, 0),), (datetime.datetime(2020, 1, 2, 3, 4, 5),), (datetime.datetime(2020, 1, 2, 3, 4, 0, 500),)]',
    );
    const td = (value: string): PyValue => ({ type: 'timedelta', value });
    expect(formatSqlOutcome(rows([td('-01:00:00')], [td('00:00:00')], [td('838:59:59')], [td('00:00:01.5')]))).toBe(
      '[(datetime.timedelta(days=-1, seconds=82800),), (datetime.timedelta(0),), (datetime.timedelta(days=34, seconds=82799),), (datetime.timedelta(seconds=1, microseconds=500000),)]',
    );
    expect(formatSqlOutcome(rows([{ type: 'bytes', value: "ab'c" }], [{ type: 'bytes', value: '\u0000\u00ff"' }]))).toBe(
      `[(b"ab'c",), (b'\\x00\\xff"',)]`,
    );
  });

  it('follows Decimal.__str__ for exponents', () => {
    expect(pyDecimalStr('0.00')).toBe('0.00');
    expect(pyDecimalStr('100')).toBe('100');
    expect(pyDecimalStr('0.0000001')).toBe('1E-7');
    expect(pyDecimalStr('-123.4500')).toBe('-123.4500');
  });
});

describe('formatSqlOutcome: errors, timeouts and truncation', () => {
  it('passes the connector error text through', () => {
    const message = "1146 (42S02): Table 'db.nope' doesn't exist";
    expect(formatSqlOutcome({ kind: 'error', message })).toBe(message);
  });

  it('uses the FC timeout and empty-response texts', () => {
    expect(formatSqlOutcome({ kind: 'timeout' })).toBe(SQL_TIMEOUT_TEXT);
    expect(SQL_TIMEOUT_TEXT).toBe('Error: SQL execution timed out.');
    expect(formatSqlOutcome({ kind: 'error', message: '' })).toBe(EMPTY_RESPONSE_TEXT);
    expect(formatExecutionFailure('boom')).toBe('Error executing query: boom');
  });

  it('cuts at 800 code points and appends [TRUNCATED]', () => {
    const long = formatSqlOutcome(rows(...Array.from({ length: 100 }, () => ['xxxxxxxxxx'])));
    expect(long.endsWith('[TRUNCATED]')).toBe(true);
    expect(long.length).toBe(800 + '[TRUNCATED]'.length);
    expect(long.startsWith("[('xxxxxxxxxx',), ('xxxxxxxxxx',)")).toBe(true);
    const exact = 'a'.repeat(800);
    expect(truncateResultText(exact)).toBe(exact);
    // 400 astral characters are 800 UTF-16 units but only 400 Python characters: no cut.
    const astral = '😀'.repeat(500);
    expect(truncateResultText(astral)).toBe(astral);
    const cut = truncateResultText('😀'.repeat(801));
    expect(Array.from(cut.replace('[TRUNCATED]', '')).length).toBe(800);
    const error = formatSqlOutcome({ kind: 'error', message: 'e'.repeat(900) });
    expect(error).toBe('e'.repeat(800) + '[TRUNCATED]');
  });
});

describe('pythonStr (cells as the FC loader sends them)', () => {
  it('stringifies like Python str()', () => {
    expect(pythonStr('x')).toBe('x');
    expect(pythonStr(1967)).toBe('1967');
    expect(pythonStr(1012.9)).toBe('1012.9');
    expect(pythonStr({ type: 'float', value: 335 })).toBe('335.0');
    expect(pythonStr(true)).toBe('True');
    expect(pythonStr(null)).toBe('None');
  });
});
