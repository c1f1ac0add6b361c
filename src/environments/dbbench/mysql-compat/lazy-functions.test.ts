import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';

import { SqliteEngine } from '../sqlite-engine.js';
import { registerMysqlFunctions, type FunctionContext } from './functions.js';
import { LazyMysqlFunctions } from './lazy-functions.js';

const CTX: FunctionContext = { database: 'dbbench', connectionId: 8, rowCount: () => 0, foundRows: () => 0, tick: () => undefined };

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
    eager.close();
    lazy.close();
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
