import { describe, expect, it } from 'vitest';

import { tokenizeMysql, type Token } from './tokenize.js';

function tokens(sql: string): Pick<Token, 'kind' | 'value'>[] {
  const result = tokenizeMysql(sql);
  if (!Array.isArray(result)) throw new Error(result.message);
  return result.filter((t) => t.kind !== 'eof').map(({ kind, value }) => ({ kind, value }));
}

describe('tokenizeMysql', () => {
  it('reads quoted names, strings with MySQL escapes and doubled quotes', () => {
    expect(tokens('`a``b` "x\\"y" \'it\'\'s\' \'a\\nb\' \'50\\%\'')).toEqual([
      { kind: 'quoted', value: 'a`b' },
      { kind: 'string', value: 'x"y' },
      { kind: 'string', value: "it's" },
      { kind: 'string', value: 'a\nb' },
      { kind: 'string', value: '50\\%' },
    ]);
  });

  it('tells digit-leading names from numbers', () => {
    expect(tokens('1952_British 1e5 .5 12 0x1F X\'41\' 2e')).toEqual([
      { kind: 'word', value: '1952_British' },
      { kind: 'number', value: '1e5' },
      { kind: 'number', value: '.5' },
      { kind: 'number', value: '12' },
      { kind: 'hexstring', value: '1F' },
      { kind: 'hexstring', value: '41' },
      { kind: 'word', value: '2e' },
    ]);
  });

  it('skips comments, keeps -- without a space as two minus signs', () => {
    expect(tokens('SELECT 1--1 -- c\n# d\n/* e */ , @x, @@session.sql_mode')).toEqual([
      { kind: 'word', value: 'SELECT' },
      { kind: 'number', value: '1' },
      { kind: 'op', value: '-' },
      { kind: 'op', value: '-' },
      { kind: 'number', value: '1' },
      { kind: 'op', value: ',' },
      { kind: 'variable', value: 'x' },
      { kind: 'op', value: ',' },
      { kind: 'variable', value: 'session.sql_mode' },
    ]);
  });

  it('reads multi-character operators', () => {
    expect(tokens('a<=>b||c&&d!=e<>f:=g').filter((t) => t.kind === 'op').map((t) => t.value)).toEqual(['<=>', '||', '&&', '!=', '<>', ':=']);
  });

  it('reports where an unterminated literal starts', () => {
    expect(tokenizeMysql("SELECT 'abc")).toEqual({ kind: 'lex-error', at: 7, message: 'unterminated string' });
  });
});
