import { describe, expect, it } from 'vitest';

import type { DbTable } from '../../environments/dbbench/dbbench-task.js';
import type { SqliteBackend } from '../../environments/dbbench/sqlite-backend.js';
import { resolveDbBackend } from './resolve-backend.js';

const MEDALS: DbTable = { name: 'Medals', columns: ['Nation', 'Gold'], rows: [['Norway', 3]] };

/** Database processes started once one episode has run a bounded read. */
async function processesAfterARead(sqliteInlineMs: number | undefined): Promise<number> {
  const backend = (await resolveDbBackend('sqlite', undefined, {}, undefined, undefined, sqliteInlineMs)) as SqliteBackend;
  try {
    const session = await backend.openEpisode(MEDALS);
    expect(await session.execute('SELECT COUNT(*) FROM `Medals`')).toEqual({ kind: 'rows', rows: [[{ type: 'int', value: '1' }]] });
    await session.dispose();
    return backend.workers().started;
  } finally {
    await backend.close();
  }
}

describe('resolveDbBackend --sqlite-inline-ms', () => {
  it('answers a bounded read in this thread by default, and in a database process with 0', async () => {
    expect(await processesAfterARead(undefined)).toBe(0);
    expect(await processesAfterARead(0)).toBe(1);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('refuses %s naming the flag', async (ms) => {
    await expect(resolveDbBackend('sqlite', undefined, {}, undefined, undefined, ms)).rejects.toThrow(/--sqlite-inline-ms must be a non-negative number of milliseconds/);
  });
});
