import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';

import { SqliteEngine } from '../sqlite-engine.js';
import { registerMysqlFunctions, type FunctionContext } from './functions.js';
import { LazyMysqlFunctions } from './lazy-functions.js';

/** The functions that read their connection's context (`registerContextMysqlFunctions`). */
const CONTEXT_FUNCTION_NAMES = ['mysql_database', 'mysql_tick', 'mysql_connection_id', 'mysql_row_count', 'mysql_found_rows'];

const CTX: FunctionContext = { database: 'dbbench', connectionId: 8, rowCount: () => 0, foundRows: () => 0, tick: () => undefined };

/** Every defined `mysql_*` function with what SQLite knows of it: argument count and flags (deterministic, …). */
function definedMysqlSignatures(db: Database.Database): string[] {
  return db.prepare("SELECT name || '/' || narg || '/' || type || '/' || flags FROM pragma_function_list WHERE name LIKE 'mysql\\_%' ESCAPE '\\' ORDER BY 1").pluck().all() as string[];
}

function definedMysqlFunctions(db: Database.Database): string[] {
  return (db.prepare("SELECT DISTINCT name FROM pragma_function_list WHERE name LIKE 'mysql\\_%' ESCAPE '\\' ORDER BY name").pluck().all() as string[]).filter(Boolean);
}

describe('LazyMysqlFunctions', () => {
  it('defines nothing until a statement names a function, then exactly the functions it names', () => {
    const db = new Database(':memory:');
    const functions = new LazyMysqlFunctions(db, CTX);
    expect(definedMysqlFunctions(db)).toEqual([]);
    functions.defineNamedIn("SELECT mysql_upper('a'), MYSQL_CONCAT('x', 'y'), 'mysql_' FROM t");
    expect(definedMysqlFunctions(db)).toEqual(['mysql_concat', 'mysql_upper']);
    expect(db.prepare("SELECT mysql_upper('abc')").pluck().get()).toBe('ABC');
    db.close();
  });

  it('defines the same set of functions as registering them all at once', () => {
    const eager = new Database(':memory:');
    registerMysqlFunctions(eager, CTX);
    const lazy = new Database(':memory:');
    const functions = new LazyMysqlFunctions(lazy, CTX);
    expect(functions.defineAll()).toBe(true);
    expect(functions.defineAll()).toBe(false);
    const all = definedMysqlFunctions(eager);
    expect(all.length).toBeGreaterThan(80);
    expect(definedMysqlFunctions(lazy)).toEqual(all);
    expect(definedMysqlSignatures(lazy)).toEqual(definedMysqlSignatures(eager));
    // SQLITE_DETERMINISTIC (0x800): every function but these may be factored out of a query by SQLite.
    const varying = eager.prepare("SELECT DISTINCT name FROM pragma_function_list WHERE name LIKE 'mysql\\_%' ESCAPE '\\' AND type = 's' AND (flags & 2048) = 0 ORDER BY name").pluck().all();
    expect(varying).toEqual(['mysql_curdate', 'mysql_curtime', 'mysql_found_rows', 'mysql_now', 'mysql_rand', 'mysql_row_count', 'mysql_tick', 'mysql_unix_timestamp']);
    eager.close();
    lazy.close();
  });

  it('shares the definitions between connections, yet each connection reads its own context', () => {
    const ticks = [0, 0];
    const contexts: FunctionContext[] = [0, 1].map((i) => ({
      database: `db${i}`, connectionId: 10 + i, rowCount: () => 100 + i, foundRows: () => 200 + i, tick: () => void (ticks[i]! += 1),
    }));
    const dbs = contexts.map(() => new Database(':memory:'));
    const lazies = dbs.map((db, i) => new LazyMysqlFunctions(db, contexts[i]!));
    const sql = `SELECT ${CONTEXT_FUNCTION_NAMES.map((n) => `${n}()`).join(', ')}, mysql_upper('x')`;
    for (const lazy of lazies) lazy.defineNamedIn(sql);
    const rows = dbs.map((db) => db.prepare(sql).raw(true).safeIntegers(true).get());
    expect(rows).toEqual([
      ['db0', 1n, 10n, 100n, 200n, 'X'],
      ['db1', 1n, 11n, 101n, 201n, 'X'],
    ]);
    expect(ticks).toEqual([1, 1]);
    for (const db of dbs) db.close();
  });

  it('a view saved in an image still works in an engine rebuilt from it, though no statement there names its function', () => {
    const table = { name: 'people', columns: ['name'], rows: [['ada'], ['alan']] };
    const first = new SqliteEngine(table);
    expect(first.execute('CREATE VIEW shout AS SELECT UPPER(`name`) AS loud FROM `people`').kind).toBe('rows');
    const image = first.serialize();
    first.close();
    const again = new SqliteEngine(table, { image });
    expect(again.execute('SELECT loud FROM shout ORDER BY loud')).toEqual({ kind: 'rows', rows: [['ADA'], ['ALAN']] });
    again.close();
  });

  it('a statement that reaches a function it does not name is prepared again with all functions defined', () => {
    const source = new Database(':memory:');
    registerMysqlFunctions(source, CTX);
    source.exec("CREATE TABLE t (x TEXT); INSERT INTO t VALUES ('ab'); CREATE VIEW v AS SELECT mysql_upper(x) AS u FROM t");
    const db = new Database(source.serialize());
    source.close();
    const functions = new LazyMysqlFunctions(db, CTX);
    functions.defineNamedIn('SELECT u FROM v');
    expect(() => db.prepare('SELECT u FROM v')).toThrow(/no such function/);
    expect(functions.defineAll()).toBe(true);
    expect(db.prepare('SELECT u FROM v').pluck().get()).toBe('AB');
    db.close();
  });
});
