import { describe, expect, it } from 'vitest';
import { resolveDataDir } from '../../config/data-dir.js';
import { dbbenchTasks, seededTexts } from '../../testing/text-oracle.js';
import { beforeParenthesis } from './mysql-compat/rewrite/information-schema.js';
import { renameAsAlter } from './mysql-compat/transpile-tokens.js';
import { groupThousands } from './mysql-compat/udf/string-functions.js';
import { pyDecimalStr } from './python-repr.js';

// The regexes these scans replaced, kept as the oracle on inputs short enough for them.
const oldRename = (sql: string): string => sql.replace(/^RENAME\s+TABLE\s+(.+?)\s+TO\s+/i, 'ALTER TABLE $1 RENAME TO ');
const oldGroup = (text: string): string => text.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const oldBeforeParenthesis = (type: string): string => type.replace(/\(.*$/, '');
const OLD_DECIMAL = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/;

const MB = 1 << 20;
const columnTypes = dbbenchTasks(resolveDataDir()).flatMap((t) => ((t.table as { table_info?: { columns?: { type?: string }[] } } | undefined)?.table_info?.columns ?? []).map((c) => c.type ?? ''));

describe('renameAsAlter', () => {
  it('equals the regex on realistic statements and random mixes of words, spaces and line breaks', () => {
    const real = ['RENAME TABLE a TO b', 'rename table `x y` to z;', 'RENAME  TABLE\n"old"\tTO\n new', 'RENAME TABLE t1 TO t2, t3 TO t4', 'RENAME TABLE TO x'];
    const fuzz = seededTexts(21, ['RENAME', 'rename', 'TABLE', 'table', ' ', '  ', '\t', '\n', '\r', 'TO', 'to', 'x', '`a b`', 'TOO'], 6000, 10);
    for (const sql of [...real, ...fuzz]) expect(renameAsAlter(sql), JSON.stringify(sql)).toBe(oldRename(sql));
  });

  it('rewrites or leaves a statement with 2 MB of whitespace after the name', () => {
    expect(renameAsAlter(`RENAME TABLE a${' '.repeat(2 * MB)}b`)).toBe(`RENAME TABLE a${' '.repeat(2 * MB)}b`);
    expect(renameAsAlter(`RENAME TABLE a${' x'.repeat(MB / 2)} TO b`)).toBe(`ALTER TABLE a${' x'.repeat(MB / 2)} RENAME TO b`);
  });
});

describe('groupThousands', () => {
  it('equals the regex on numbers and random digit mixes', () => {
    const fuzz = seededTexts(22, ['1', '22', '333', '-', '.', 'a', '_', ' '], 4000, 12);
    for (const text of ['0', '999', '1000', '123456789', '12345678901234567890', ...fuzz]) expect(groupThousands(text), text).toBe(oldGroup(text));
  });

  it('groups a 1 MB digit run', () => {
    const grouped = groupThousands('1'.repeat(MB));
    expect(grouped.length).toBe(MB + Math.floor((MB - 1) / 3));
    expect(grouped.startsWith('1,111,')).toBe(MB % 3 === 1);
  });
});

describe('beforeParenthesis', () => {
  it('equals the regex on every shipped column type and on random mixes', () => {
    const fuzz = seededTexts(23, ['(', ')', 'varchar', '10', '\n', '\r', ' '], 3000, 8);
    for (const type of [...columnTypes, 'decimal(10,2)', 'VARCHAR(255) NOT NULL', ...fuzz]) expect(beforeParenthesis(type), JSON.stringify(type)).toBe(oldBeforeParenthesis(type));
  });

  it('cuts a type of 1 MB of parentheses before a line break', () => {
    expect(beforeParenthesis(`${'('.repeat(MB)}\nint(3)`)).toBe(`${'('.repeat(MB)}\nint`);
  });
});

describe('pyDecimalStr', () => {
  const oldDecimal = (text: string): RegExpExecArray | null => OLD_DECIMAL.exec(text);

  it('accepts the same numerals as the regex, with the same result', () => {
    const fuzz = seededTexts(24, [' ', '\t', '\n', '\ufeff', '-', '+', '0', '12', '.', 'e', 'E', '5', 'x'], 5000, 9);
    for (const text of ['-12.50', ' 3 ', '1e5', '.5', '5.', '0.000001', ...fuzz]) {
      const m = oldDecimal(text);
      const rejected = !m || (m[2] === '' && (m[3] ?? '') === '');
      if (rejected) expect(pyDecimalStr(text), JSON.stringify(text)).toBe(text);
      else expect(pyDecimalStr(text), JSON.stringify(text)).toBe(pyDecimalStr(`${m[1]}${m[2]}${m[3] === undefined ? '' : `.${m[3]}`}${m[4] === undefined ? '' : `e${m[4]}`}`));
    }
  });

  it('answers 2 MB of whitespace around a word at once', () => {
    const text = `${' '.repeat(MB)}x${' '.repeat(MB)}`;
    expect(pyDecimalStr(text)).toBe(text);
    expect(pyDecimalStr(`${' '.repeat(MB)}-1.50${'\n'.repeat(MB)}`)).toBe('-1.50');
  });
});
