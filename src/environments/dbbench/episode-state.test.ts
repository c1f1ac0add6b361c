import { describe, expect, it } from 'vitest';

import type { DbBenchTask } from './dbbench-task.js';
import { DbBenchEpisodeState, answerShapeOf, classifySqlResult, normalizeSql, parseRowsText } from './episode-state.js';

const task: DbBenchTask = {
  index: 0,
  description: 'q',
  addDescription: 'd',
  type: 'UPDATE',
  kind: 'mutation',
  label: ['UPDATE t SET a = 1'],
  answerMd5: "[('x',)]",
  table: { name: 'Big Table', columns: ['a', 'b'], rows: [] },
};

describe('DBBench episode state', () => {
  it('classifies results into the original error kinds', () => {
    expect(classifySqlResult("1054 (42S22): Unknown column 'x' in 'field list'")).toEqual({ kind: 'unknown_col', isError: true });
    expect(classifySqlResult('1064 (42000): You have an error in your SQL syntax; check the manual')).toEqual({ kind: 'syntax', isError: true });
    expect(classifySqlResult('[]')).toEqual({ kind: 'empty', isError: false });
    expect(classifySqlResult('[(None,)]')).toEqual({ kind: 'null_agg', isError: false });
    expect(classifySqlResult("[('a',)]")).toEqual({ kind: '', isError: false });
    expect(classifySqlResult('Error: SQL execution timed out.')).toEqual({ kind: '', isError: true });
  });

  it('parses row-list text, quotes and escapes included', () => {
    expect(parseRowsText("[('a', 1), ('b\\'c', 2.5)]")).toEqual([
      ['a', '1'],
      ["b'c", '2.5'],
    ]);
    expect(parseRowsText('not rows')).toBeUndefined();
  });

  it('tracks streaks, loops, mutations, columns and a candidate answer', () => {
    const s = new DbBenchEpisodeState(task);
    s.updateAfterSql('SELECT * FROM t', '1064 (42000): You have an error in your SQL syntax');
    s.updateAfterSql('select *  from t;', '1064 (42000): You have an error in your SQL syntax');
    expect(s.errorStreak).toBe(2);
    expect(s.loopStreak).toBe(1);
    expect(s.sqlHistory).toEqual(['select * from t', 'select * from t']);
    s.updateAfterSql('DESCRIBE `Big Table`', "[('a', 'text', 'YES', '', None, ''), ('b', 'text', 'YES', '', None, '')]");
    expect(s.discoveredColumns).toEqual({ 'Big Table': ['a', 'b'] });
    expect(s.errorStreak).toBe(0);
    s.updateAfterSql('SELECT a FROM `Big Table`', "[('x',), ('y',)]");
    expect(s.candidateAnswer).toEqual(['x', 'y']);
    expect(s.candidateAnswerShape).toBe('list');
    expect(s.mutationAttempted).toBe(false);
    s.updateAfterSql("UPDATE `Big Table` SET a = 'z'", '[]');
    expect(s.mutationAttempted).toBe(true);
    expect(s.lastErrorKind).toBe('empty');
    expect(normalizeSql('  SELECT 1 ;; ')).toBe('select 1');
    expect(answerShapeOf('counting')).toBe('number');
    expect(answerShapeOf('INSERT')).toBe('mutation');
  });

  it('keeps the last SELECT result with rows as the candidate, whether it is read after each statement or only at the end', () => {
    const results: [string, string][] = [
      ['SELECT a FROM t', "[('x',), ('y',)]"],
      ['SELECT a FROM t WHERE 0', 'not rows'],
      ['SELECT 1', '[1]'],
      ['SELECT a, b FROM t LIMIT 1', "[('q', 'None')]"],
      ['SELECT a FROM t', '[]'],
      ['WITH c AS (SELECT 1) SELECT * FROM c', 'neither'],
    ];
    const eachTime = new DbBenchEpisodeState(task);
    const atEnd = new DbBenchEpisodeState(task);
    const seen: [string[], string, boolean][] = [];
    for (const [sql, response] of results) {
      eachTime.updateAfterSql(sql, response);
      atEnd.updateAfterSql(sql, response);
      seen.push([eachTime.candidateAnswer, eachTime.candidateAnswerShape, eachTime.candidateImplausible]);
    }
    expect(seen.map(([answer, shape]) => `${shape}:${answer.join('|')}`)).toEqual(['list:x|y', 'list:x|y', 'list:x|y', 'row:q|None', 'row:q|None', 'row:q|None']);
    expect(seen[3]![2]).toBe(true);
    expect([atEnd.candidateAnswer, atEnd.candidateAnswerShape, atEnd.candidateImplausible]).toEqual(seen.at(-1));
    const unread = new DbBenchEpisodeState(task);
    for (const [sql, response] of results.slice(0, 3)) unread.updateAfterSql(sql, response);
    expect(unread.candidateAnswer).toEqual(['x', 'y']);
  });

  it('normalizes agent SQL like the regex chain, in linear time', () => {
    const oracle = (sql: string): string => sql.trim().replace(/[;\s]+$/, '').replace(/\s+/g, ' ').toLowerCase();
    const pieces = [';', ' ', '\n', '\u00a0', '\ufeff', 'S', 'x'];
    let seed = 11;
    for (let round = 0; round < 5000; round++) {
      let sql = '';
      for (let i = 0; i < round % 10; i++) {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        sql += pieces[seed % pieces.length];
      }
      expect(normalizeSql(sql), JSON.stringify(sql)).toBe(oracle(sql));
    }
    // `/[;\s]+$/` is quadratic on a long run that ends before the end; at 4 MB it runs for hours.
    expect(normalizeSql(`SELECT 1${' ;'.repeat(2_000_000)}x`)).toHaveLength(4_000_009);
  });
});
