import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import type { DbTable } from './dbbench-task.js';
import { DBBENCH_SPLITS, loadDbBenchSplit } from './load-tasks.js';
import { readCatalog, type Catalog } from './mysql-compat/catalog.js';
import { SqliteEngine } from './sqlite-engine.js';
import { BOUNDED_MAX_CELL_BYTES, BOUNDED_MAX_ROWS, OwnQueries } from './sqlite-own-queries.js';

/** The engine's state that loading the table sets, beside the reads it stands for. */
interface LoadedState {
  db: Database.Database;
  outgrown: boolean | undefined;
  catalogCache: { version: number; catalog: Catalog } | null;
}

function loadedState(engine: SqliteEngine): LoadedState {
  return engine as unknown as LoadedState;
}

/** What the first statement used to read from SQLite: the bounds scan, the schema version and the catalog. */
function expectLoadedStateMatchesReads(table: DbTable): void {
  const engine = new SqliteEngine(table, { databaseName: 'dbbench' });
  try {
    const state = loadedState(engine);
    if (engine.setupError !== null) {
      expect(state.catalogCache).toBeNull();
      return;
    }
    expect(state.outgrown).toBe(!new OwnQueries(state.db).tableWithinBounds(table));
    expect(state.catalogCache?.version).toBe(state.db.pragma('schema_version', { simple: true }));
    expect(state.catalogCache?.catalog).toEqual(readCatalog(state.db, 'dbbench'));
  } finally {
    engine.close();
  }
}

describe('SqliteEngine: a loaded table', () => {
  const dataDir = resolveDataDir();
  for (const split of Object.keys(DBBENCH_SPLITS)) {
    it(`knows its bounds and catalog as SQLite reads them, on every ${split} task`, () => {
      const tasks = loadDbBenchSplit(dataDir, split);
      expect(tasks.length).toBeGreaterThan(0);
      for (const task of tasks) expectLoadedStateMatchesReads(task.table);
    });
  }

  it('counts a cell in UTF-8 bytes as SQLite does, multi-byte characters and lone surrogates included', () => {
    const justOver = 'é'.repeat(BOUNDED_MAX_CELL_BYTES / 2) + 'x';
    const atLimit = '€'.repeat(Math.floor(BOUNDED_MAX_CELL_BYTES / 3)) + '\ud800';
    for (const cell of [justOver, atLimit, 'x'.repeat(BOUNDED_MAX_CELL_BYTES)]) {
      const table: DbTable = { name: 't', columns: ['a', 'b'], rows: [['1', cell], [2.5, null]] };
      expectLoadedStateMatchesReads(table);
    }
    const over = new SqliteEngine({ name: 't', columns: ['a'], rows: [[justOver]] });
    try {
      expect(loadedState(over).outgrown).toBe(true);
      expect(over.executeBounded('SELECT 1', 50)).toBe('not-bounded');
    } finally {
      over.close();
    }
  });

  it('is outgrown past the row limit, and not at it', () => {
    for (const count of [BOUNDED_MAX_ROWS, BOUNDED_MAX_ROWS + 1]) {
      const table: DbTable = { name: 'many', columns: ['n'], rows: Array.from({ length: count }, (_, i) => [String(i)]) };
      expectLoadedStateMatchesReads(table);
    }
  });

  it('leaves a table that could not be created to the reads', () => {
    expectLoadedStateMatchesReads({ name: 't', columns: ['a', 'A'], rows: [] });
  });
});
