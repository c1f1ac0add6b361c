import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import { loadDbBenchSplit } from './load-tasks.js';
import { pythonStr } from './python-repr.js';
import { combineTableHashes, concatWs, formatStoredHash, mysqlTableHash, parseAnswerMd5 } from './table-hash.js';

describe('mysqlTableHash', () => {
  it('matches an independent implementation (expected values from Python hashlib)', () => {
    expect(mysqlTableHash([['a', null, 'b'], [null, null], ['Montréal', '–15']])).toBe('3d801c1b2740c58b1925d80860d2feb3');
  });

  it('replicates the 1,024-byte GROUP_CONCAT cap', () => {
    const rows = Array.from({ length: 200 }, (_, i) => [String(i), 'x']);
    expect(mysqlTableHash(rows)).toBe('901cf509ce8323566a51d2b498c50dd1');
    // Without the cap the hash would be 76f1c607…; with 170 rows or fewer the cap never bites.
    expect(mysqlTableHash(rows)).not.toBe('76f1c60714d4ce845961183e2463ab9b');
  });

  it('gives null for an empty table and is order-insensitive', () => {
    expect(mysqlTableHash([])).toBeNull();
    expect(mysqlTableHash([['1'], ['2']])).toBe(mysqlTableHash([['2'], ['1']]));
  });

  it('skips NULLs and stringifies numbers as MySQL stores them in TEXT', () => {
    expect(concatWs(['a', null, 'b'])).toBe('a,b');
    expect(concatWs([null, null])).toBe('');
    expect(concatWs([5, 1.5, 5.0, 1e16, 10n])).toBe('5,1.5,5,1e16,10');
  });

  it('reproduces a stored answer_md5 from the shipped data (dev INSERT task)', () => {
    const tasks = loadDbBenchSplit(resolveDataDir(), 'dev');
    const task = tasks.find((t) => t.kind === 'mutation' && t.label[0]?.includes("'Kauai King'"));
    expect(task).toBeDefined();
    const rows = task!.table.rows.map((row) => row.map(pythonStr));
    rows.push(['1971', 'Kauai King', '4', 'Henry Forrest', 'Ford Stable']);
    expect(mysqlTableHash(rows)).toBe(parseAnswerMd5(task!.answerMd5!));
  });
});

describe('stored hash text', () => {
  it('parses and formats the repr form', () => {
    expect(parseAnswerMd5("[('03b2eddd4fe471e0f29fc9e907fd5a5d',)]")).toBe('03b2eddd4fe471e0f29fc9e907fd5a5d');
    expect(parseAnswerMd5('[(None,)]')).toBeNull();
    expect(parseAnswerMd5('03B2EDDD4FE471E0F29FC9E907FD5A5D')).toBe('03b2eddd4fe471e0f29fc9e907fd5a5d');
    expect(parseAnswerMd5('garbage')).toBeUndefined();
    expect(formatStoredHash('abc')).toBe("[('abc',)]");
    expect(formatStoredHash(null)).toBe('[(None,)]');
  });

  it('combines several tables like FC', () => {
    expect(combineTableHashes(['b', 'a'])).toBe('a_b');
    expect(combineTableHashes([null])).toBeNull();
    expect(combineTableHashes(['b', null])).toBe('None_b');
  });
});
