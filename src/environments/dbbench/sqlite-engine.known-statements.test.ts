import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import type { SqlOutcome } from './backend.js';
import type { DbTable } from './dbbench-task.js';
import { loadDbBenchSplit } from './load-tasks.js';
import { SqliteEngine } from './sqlite-engine.js';

function tick(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

/** Repeats of reads between writes, user variables, columns added and dropped, and errors, on one table. */
function sessionOn(table: DbTable): string[] {
  const t = tick(table.name);
  const c = tick(table.columns[0]!);
  const first = String(table.rows[0]?.[0] ?? '').replace(/'/g, "''");
  const readSome = `SELECT * FROM ${t} LIMIT 3`;
  const count = `SELECT COUNT(*) FROM ${t}`;
  const byVariable = `SELECT COUNT(*) FROM ${t} WHERE ${c} = @v`;
  const extra = `SELECT \`extra\` FROM ${t} LIMIT 1`;
  return [
    readSome, count, readSome,
    `UPDATE ${t} SET ${c} = 'z' WHERE ${c} = '${first}'`,
    readSome, count,
    "SET @v = 'z'", byVariable, byVariable,
    "SET @v = 'no such value'", byVariable,
    `ALTER TABLE ${t} ADD COLUMN \`extra\` TEXT`, readSome, extra, extra,
    `ALTER TABLE ${t} DROP COLUMN \`extra\``, extra, readSome,
    `INSERT INTO ${t} (${c}) VALUES ('added')`, count, count,
    `SELECT \`no_such_column\` FROM ${t}`, `SELECT \`no_such_column\` FROM ${t}`,
    'SELECT ROW_COUNT()', 'SELECT ROW_COUNT()', 'SELECT FOUND_ROWS()',
    `DELETE FROM ${t} WHERE ${c} = 'added'`, count, readSome,
  ];
}

function play(table: DbTable, statements: readonly string[], knownStatements: number | undefined, bounded: boolean): (SqlOutcome | 'not-bounded')[] {
  const engine = new SqliteEngine(table, { knownStatements });
  try {
    return statements.map((sql) => (bounded ? engine.executeBounded(sql, 1_000) : engine.execute(sql)));
  } finally {
    engine.close();
  }
}

function known(engine: SqliteEngine): Map<string, unknown> {
  return (engine as unknown as { knownStatements: Map<string, unknown> }).knownStatements;
}

describe('SqliteEngine: statements kept for an exact repeat', () => {
  const tasks = loadDbBenchSplit(resolveDataDir(), 'dev').filter((task) => task.table.columns.length > 0 && task.table.rows.length > 0);

  it('answer every statement of a session as an engine that keeps none, on real dev tables, both ways of running', () => {
    expect(tasks.length).toBeGreaterThan(40);
    for (const task of tasks.slice(0, 20)) {
      const statements = sessionOn(task.table);
      for (const bounded of [false, true]) {
        expect(play(task.table, statements, undefined, bounded), `task ${task.index}, bounded ${bounded}`).toEqual(play(task.table, statements, 0, bounded));
      }
    }
  });

  it('follow the user variables and the schema, and run again each time', () => {
    const engine = new SqliteEngine({ name: 't', columns: ['a'], rows: [['x'], ['y']] });
    try {
      const rows = (sql: string): unknown => {
        const outcome = engine.execute(sql);
        return outcome.kind === 'rows' ? outcome.rows : outcome;
      };
      engine.execute('SET @v = 1');
      expect(rows('SELECT @v')).toEqual([[{ type: 'int', value: '1' }]]);
      engine.execute("SET @v = 'two'");
      expect(rows('SELECT @v')).toEqual([['two']]);
      expect(rows('SELECT * FROM t')).toEqual([['x'], ['y']]);
      engine.execute('ALTER TABLE t ADD COLUMN b TEXT');
      expect(rows('SELECT * FROM t')).toEqual([['x', null], ['y', null]]);
      engine.execute("INSERT INTO t VALUES ('z', 'w')");
      expect(rows('SELECT * FROM t')).toEqual([['x', null], ['y', null], ['z', 'w']]);
      expect(known(engine).has('SELECT * FROM t')).toBe(true);
    } finally {
      engine.close();
    }
  });

  it('still notice a repeated write that grows the table past what bounded statements may read', () => {
    const rows = Array.from({ length: 3_000 }, (_, i) => [String(i)]);
    const engine = new SqliteEngine({ name: 't', columns: ['a'], rows });
    try {
      const double = 'INSERT INTO t SELECT * FROM t';
      expect(engine.executeBounded(double, 1_000)).toEqual({ kind: 'rows', rows: [] });
      expect(engine.executeBounded('SELECT COUNT(*) FROM t', 1_000)).toEqual({ kind: 'rows', rows: [[{ type: 'int', value: '6000' }]] });
      expect(known(engine).has(double)).toBe(true);
      expect(engine.executeBounded(double, 1_000)).toEqual({ kind: 'rows', rows: [] });
      expect(engine.executeBounded('SELECT COUNT(*) FROM t', 1_000)).toBe('not-bounded');
    } finally {
      engine.close();
    }
  });

  it('keeps at most the configured number, and none at 0', () => {
    const engine = new SqliteEngine({ name: 't', columns: ['a'], rows: [['x']] }, { knownStatements: 2 });
    const none = new SqliteEngine({ name: 't', columns: ['a'], rows: [['x']] }, { knownStatements: 0 });
    try {
      for (const sql of ['SELECT 1', 'SELECT 2', 'SELECT 3', 'SELECT 2']) {
        engine.execute(sql);
        none.execute(sql);
      }
      expect([...known(engine).keys()]).toEqual(['SELECT 3', 'SELECT 2']);
      expect(known(none).size).toBe(0);
      engine.execute('SELECT a FROM missing_table');
      expect(known(engine).has('SELECT a FROM missing_table')).toBe(false);
    } finally {
      engine.close();
      none.close();
    }
  });
});
