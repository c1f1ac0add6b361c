import { describe, expect, it } from 'vitest';

import { mapSqliteErrorByRegex } from './errors-oracle.fixture.js';
import { mapSqliteError } from './errors.js';

const PIECES = ['no such table: ', 'no such column: ', 'main.', 'table ', '"', 't', ' already exists', '\n', '\r', 'NOT NULL constraint failed: ', 'a.', '12', ' values for ', '3 columns', 'UNIQUE constraint failed: ', 'x'];

const show = (e: Error & { errno?: number }): string => `${e.errno ?? ''} ${e.message}`;

describe('mapSqliteError', () => {
  it('translates like the single regexes on random messages quoting agent identifiers', () => {
    let seed = 31337;
    for (let round = 0; round < 20_000; round++) {
      let message = '';
      for (let i = 0; i < round % 9; i++) {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        message += PIECES[seed % PIECES.length];
      }
      expect(show(mapSqliteError(message, 'SELECT 1', 'db')), JSON.stringify(message)).toBe(show(mapSqliteErrorByRegex(message, 'SELECT 1', 'db')));
    }
  });

  // An identifier can repeat the message's own prefix; each repetition made the regexes rescan the line.
  it('is linear on multi-megabyte identifiers', () => {
    const repeated = 'no such table: '.repeat(200_000);
    expect(mapSqliteError(`${repeated}\nno such table: x`, '', 'db').text).toBe("Table 'db.x' doesn't exist");
    expect(mapSqliteError(`${repeated}\n`, '', 'db').errno).toBe(1105);
    expect(mapSqliteError(`${'table t'.repeat(500_000)}\n`, '', 'db').errno).toBe(1105);
    expect(mapSqliteError(`table t ${'1'.repeat(3_000_000)} values`, '', 'db').errno).toBe(1105);
    expect(mapSqliteError(`table t ${'1'.repeat(3_000_000)} values for 2 columns`, '', 'db').errno).toBe(1136);
    expect(mapSqliteError(`NOT NULL constraint failed: ${'a.'.repeat(1_500_000)}`, '', 'db').errno).toBe(1048);
  });
});
