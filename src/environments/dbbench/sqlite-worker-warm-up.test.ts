import { describe, expect, it } from 'vitest';

import type { DbTable } from './dbbench-task.js';
import { formatSqlOutcome } from './format-result.js';
import { createSqliteBackend } from './sqlite-backend.js';

// A database process runs a few statements on a throwaway `warm_up` table before it reports ready. The first
// episode of a new process must see exactly what an engine in this thread sees: nothing of the warm-up.
const TABLE: DbTable = { name: 'warm_up', columns: ['name', 'n'], rows: [['x', '9']] };
const STATEMENTS = [
  'SELECT ROW_COUNT()',
  'SELECT FOUND_ROWS()',
  'SELECT LAST_INSERT_ID()',
  'SELECT @a',
  'SHOW TABLES',
  'SELECT * FROM `warm_up`',
  "SELECT COUNT(*), GROUP_CONCAT(`name`) FROM `warm_up` WHERE `n` > '0'",
  "UPDATE `warm_up` SET `n` = '3' WHERE `name` = 'a'",
  'SELECT ROW_COUNT()',
];

async function firstEpisode(isolation: 'process' | 'inline'): Promise<{ outputs: string[]; hash: string | null }> {
  // The process side is asked for a process from the first statement on (no statement tried in this thread).
  const backend = createSqliteBackend(isolation === 'process' ? { isolation, inlineBudgetMs: 0 } : { isolation });
  try {
    const session = await backend.openEpisode(TABLE);
    const outputs: string[] = [];
    for (const sql of STATEMENTS) outputs.push(formatSqlOutcome(await session.execute(sql)));
    const hash = await session.tableHash();
    await session.dispose();
    return { outputs, hash };
  } finally {
    await backend.close();
  }
}

describe('the warm-up of a new database process', () => {
  it('leaves nothing for the first episode: the same answers and table hash as an engine in this thread', async () => {
    const inline = await firstEpisode('inline');
    const isolated = await firstEpisode('process');
    expect(isolated).toEqual(inline);
    // The episode's own table, not the warm-up's rows ('a', 'b', 'c').
    expect(inline.outputs[5]).toBe("[('x', '9')]");
    expect(inline.outputs[8]).toBe('[(0,)]');
  });
});
