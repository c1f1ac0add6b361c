import { describe, expect, it } from 'vitest';

import type { DbTable } from './dbbench-task.js';
import { formatSqlOutcome } from './format-result.js';
import { createSqliteBackend, type SqliteBackendOptions } from './sqlite-backend.js';
import { BoundedFirstSession } from './sqlite-bounded-session.js';
import { BOUNDED_MAX_CELL_BYTES, BOUNDED_MAX_ROWS } from './sqlite-own-queries.js';

// The default isolation tries bounded statements in this thread first and moves an episode database to a
// database process at its first statement that is not bounded or outruns the budget. Every answer must be
// the one a database process gives from the first statement on (`inlineBudgetMs: 0`). Where a test needs a
// statement to stay here, it gives a budget no loaded machine reaches (the default 5 ms is timing).
const ROOMY = { inlineBudgetMs: 60_000 };

const MEDALS: DbTable = { name: 'Medals', columns: ['Nation', 'Gold'], rows: [['Norway', 3], ['Sweden', '1'], ['Chile', '0']] };
/** 60 rows: a self-join visits 3,600 candidate rows, past any budget of a hundredth of a millisecond. */
const NUMBERS: DbTable = { name: 'Numbers', columns: ['k', 'n'], rows: Array.from({ length: 60 }, (_, i) => [`k${i}`, String(i)]) };
const ENDLESS_COUNT_DDL = 'CREATE TABLE n AS SELECT (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c) AS n';

interface Played {
  outputs: string[];
  hash: string | null;
  where: string;
  started: number;
}

async function play(table: DbTable, statements: readonly string[], options: SqliteBackendOptions): Promise<Played> {
  const backend = createSqliteBackend(options);
  try {
    const session = await backend.openEpisode(table);
    const outputs: string[] = [];
    for (const sql of statements) outputs.push(formatSqlOutcome(await session.execute(sql)));
    const hash = await session.tableHash();
    const where = session instanceof BoundedFirstSession ? session.where : 'process only';
    await session.dispose();
    return { outputs, hash, where, started: backend.workers().started };
  } finally {
    await backend.close();
  }
}

const BOUNDED_EPISODE = [
  "SELECT * FROM `Medals` WHERE `Nation` LIKE '%e%' ORDER BY `Nation`",
  'SELECT SQL_CALC_FOUND_ROWS `Nation` FROM `Medals` LIMIT 1',
  'SELECT FOUND_ROWS(), ROW_COUNT(), LAST_INSERT_ID(), @nothing',
  'SELECT `Nation`, MAX(`Gold`) FROM `Medals` GROUP BY `Nation` HAVING MAX(`Gold`) > 0',
  'SELECT a.`Nation`, b.`Nation` FROM `Medals` a JOIN `Medals` b ON a.`Gold` < b.`Gold` ORDER BY 1, 2',
  'SELECT `missing` FROM `Medals`',
  'SELECT FROM',
  'SHOW TABLES',
  'SHOW COLUMNS FROM `Medals`',
];

describe('the default isolation: bounded statements in this thread first', () => {
  it('answers a bounded episode without any database process, exactly as a database process does', async () => {
    const here = await play(MEDALS, BOUNDED_EPISODE, ROOMY);
    const isolated = await play(MEDALS, BOUNDED_EPISODE, { inlineBudgetMs: 0 });
    expect(here.where).toBe('here');
    expect(here.started).toBe(0);
    expect(isolated.started).toBe(1);
    expect({ outputs: here.outputs, hash: here.hash }).toEqual({ outputs: isolated.outputs, hash: isolated.hash });
    expect(here.outputs[0]).toBe("[('Chile', '0'), ('Sweden', '1')]");
  });

  it('moves to a process at the first statement that is not bounded, with the rows and the FOUND_ROWS() and ROW_COUNT() of the statements here', async () => {
    const statements = [
      'SELECT SQL_CALC_FOUND_ROWS * FROM `Medals` LIMIT 2',
      "SELECT FOUND_ROWS(), ROW_COUNT(), REPEAT('ab', 2)", // not bounded: from here on, a process
      "UPDATE `Medals` SET `Gold` = '7' WHERE `Nation` = 'Norway'",
      "SET @a = 'kept'",
      "SELECT @a, `Gold` FROM `Medals` WHERE `Nation` = 'Norway'",
    ];
    const moved = await play(MEDALS, statements, ROOMY);
    const isolated = await play(MEDALS, statements, { inlineBudgetMs: 0 });
    expect(moved.where).toBe('process');
    expect(moved.started).toBe(1);
    expect({ outputs: moved.outputs, hash: moved.hash }).toEqual({ outputs: isolated.outputs, hash: isolated.hash });
    expect(moved.outputs[4]).toBe("[('kept', '7')]");
  });

  it('answers writes here too while the table stays within bounds, exactly as a database process does', async () => {
    const statements = [
      "INSERT INTO `Medals` VALUES ('Peru', '2')",
      'SELECT ROW_COUNT(), LAST_INSERT_ID()',
      "UPDATE `Medals` SET `Gold` = `Gold` + 1 WHERE `Nation` <> 'Chile'",
      'SELECT ROW_COUNT()',
      "DELETE FROM `Medals` WHERE `Gold` = '0'",
      'SELECT * FROM `Medals` ORDER BY `Nation`',
    ];
    const here = await play(MEDALS, statements, ROOMY);
    const isolated = await play(MEDALS, statements, { inlineBudgetMs: 0 });
    expect([here.where, here.started]).toEqual(['here', 0]);
    expect({ outputs: here.outputs, hash: here.hash }).toEqual({ outputs: isolated.outputs, hash: isolated.hash });
    expect(here.outputs[3]).toBe('[(3,)]');
  });

  it(`moves once a write leaves a cell of more than ${BOUNDED_MAX_CELL_BYTES} bytes or more than ${BOUNDED_MAX_ROWS} rows`, async () => {
    // Each doubling is bounded; repeated, it would grow a value until one call on it outlasts any budget.
    const doubling = Array.from({ length: 12 }, () => 'UPDATE `Medals` SET `Nation` = CONCAT(`Nation`, `Nation`)');
    const cells = [...doubling, 'SELECT LENGTH(`Nation`) FROM `Medals` ORDER BY 1'];
    const grownCell = await play(MEDALS, cells, ROOMY);
    expect(grownCell.where).toBe('process');
    expect(grownCell.outputs).toEqual((await play(MEDALS, cells, { inlineBudgetMs: 0 })).outputs);
    // 3 rows doubled 12 times: 12,288 rows.
    const rows = [...Array.from({ length: 12 }, () => 'INSERT INTO `Medals` SELECT * FROM `Medals`'), 'SELECT COUNT(*) FROM `Medals`'];
    const grownRows = await play(MEDALS, rows, ROOMY);
    expect(grownRows.where).toBe('process');
    expect(grownRows.outputs.at(-1)).toBe('[(12288,)]');
    expect(grownRows.outputs).toEqual((await play(MEDALS, rows, { inlineBudgetMs: 0 })).outputs);
    // Six doublings stay within both bounds.
    expect((await play(MEDALS, doubling.slice(0, 6), ROOMY)).where).toBe('here');
  });

  it('sends every statement of a task table larger than the bounds to a process', async () => {
    const wide: DbTable = { name: 'Wide', columns: ['a'], rows: [['x'.repeat(BOUNDED_MAX_CELL_BYTES + 1)]] };
    const played = await play(wide, ['SELECT LENGTH(`a`) FROM `Wide`'], ROOMY);
    expect(played.where).toBe('process');
    expect(played.outputs).toEqual([`[(${BOUNDED_MAX_CELL_BYTES + 1},)]`]);
  });

  it('stops a bounded statement at the budget and runs it again in a process with the same answer', async () => {
    // With a budget of 0.01 ms the tick stops any statement here within its first rows.
    const statements = [
      'SELECT COUNT(*), SUM(a.`n` * b.`n`) FROM `Numbers` a, `Numbers` b',
      'SELECT FOUND_ROWS(), ROW_COUNT()',
    ];
    const tiny = await play(NUMBERS, statements, { inlineBudgetMs: 0.01 });
    const roomy = await play(NUMBERS, statements, ROOMY);
    const isolated = await play(NUMBERS, statements, { inlineBudgetMs: 0 });
    expect([tiny.where, roomy.where]).toEqual(['process', 'here']);
    expect({ outputs: tiny.outputs, hash: tiny.hash }).toEqual({ outputs: isolated.outputs, hash: isolated.hash });
    expect(roomy.outputs).toEqual(isolated.outputs);
    expect(tiny.outputs[0]).toBe(`[(3600, ${(59 * 60 / 2) ** 2}.0)]`);
  });

  it('still stops DDL that never ends in a database process, killed at the timeout, and keeps what was done before it', async () => {
    const statements = ['SELECT COUNT(*) FROM `Medals`', "UPDATE `Medals` SET `Gold` = '7' WHERE `Nation` = 'Norway'", ENDLESS_COUNT_DDL, "SELECT `Gold` FROM `Medals` WHERE `Nation` = 'Norway'", 'SELECT COUNT(*) FROM n'];
    const backend = createSqliteBackend({ sqlTimeoutMs: 1_000 });
    try {
      const session = await backend.openEpisode(MEDALS);
      const outputs: string[] = [];
      for (const sql of statements) outputs.push(formatSqlOutcome(await session.execute(sql)));
      expect(outputs.slice(2)).toEqual(['Error: SQL execution timed out.', "[('7',)]", "1146 (42S02): Table 'dbbench.n' doesn't exist"]);
      expect(backend.workers()).toMatchObject({ killed: 1 });
    } finally {
      await backend.close();
    }
  });

  it('disposeInBackground() refuses calls at once; the database closes later and close() waits for it', async () => {
    const backend = createSqliteBackend({});
    const session = await backend.openEpisode(MEDALS);
    expect(formatSqlOutcome(await session.execute('SELECT COUNT(*) FROM `Medals`'))).toBe('[(3,)]');
    session.disposeInBackground!();
    await expect(session.execute('SELECT 1')).rejects.toThrow(/after dispose/);
    await expect(session.tableHash()).rejects.toThrow(/after dispose/);
    await backend.close();
    await session.dispose();
    expect(backend.workers()).toEqual({ busy: 0, idle: 0, started: 0, killed: 0 });
  });

  it('refuses a negative budget', () => {
    expect(() => createSqliteBackend({ inlineBudgetMs: -1 })).toThrow(/inlineBudgetMs must be a non-negative number, got -1/);
  });
});
