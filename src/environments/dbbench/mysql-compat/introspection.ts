import type { PyValue } from '../backend.js';
import type { Statement } from './ast.js';
import type { Catalog, CatalogTable } from './catalog.js';
import { mysqlErrors } from './errors.js';
import { like } from './udf/pattern-match.js';

/**
 * Answers the introspection statements agents send, in MySQL 8's row shapes as the Python connector
 * returns them: SHOW TABLES, SHOW [FULL] COLUMNS / DESCRIBE / DESC, SHOW CREATE TABLE, SHOW DATABASES,
 * SHOW INDEX, and harmless no-ops (USE of the current database, SET, transaction statements).
 */

const COLLATION = 'utf8mb4_0900_ai_ci';

function table(catalog: Catalog, name: string): CatalogTable {
  const t = catalog.tables.get(name);
  if (!t) throw mysqlErrors.noSuchTable(catalog.database, name);
  return t;
}

/** The column type as MySQL 8 prints it: lower case, no display width on integers. */
export function mysqlColumnType(declared: string): string {
  const d = (declared || 'text').toLowerCase().trim();
  return d.replace(/^(tinyint|smallint|mediumint|int|integer|bigint)\s*\(\d+\)/, '$1').replace(/^integer/, 'int');
}

function quoteName(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

function matches(pattern: string | undefined, value: string): boolean {
  return pattern === undefined || like(false, value, pattern) === 1;
}

/** SHOW CREATE TABLE text for a table of the episode database. */
export function showCreateTable(t: CatalogTable): string {
  const lines = t.columns.map((c) => {
    const type = mysqlColumnType(c.declared);
    const notNull = c.notNull ? ' NOT NULL' : '';
    const dflt = c.defaultValue !== null ? ` DEFAULT '${c.defaultValue.replace(/'/g, "''")}'` : c.notNull ? '' : ' DEFAULT NULL';
    const textDefault = /text|blob/.test(type) && c.defaultValue === null ? '' : dflt;
    return `  ${quoteName(c.name)} ${type}${notNull}${textDefault}`;
  });
  const pk = t.columns.filter((c) => c.primaryKey).map((c) => quoteName(c.name));
  if (pk.length > 0) lines.push(`  PRIMARY KEY (${pk.join(',')})`);
  return `CREATE TABLE ${quoteName(t.name)} (\n${lines.join(',\n')}\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=${COLLATION}`;
}

/**
 * Rows for an introspection statement, or null when the statement is not one. Throws a `MysqlError`
 * for the errors MySQL raises (unknown table or database).
 */
export function answerIntrospection(statement: Statement, catalog: Catalog, rowCount: (table: string) => number): PyValue[][] | null {
  switch (statement.kind) {
    case 'show-tables': {
      const names = [...catalog.tables.values()].filter((t) => matches(statement.like, t.name)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return names.map((t) => (statement.full ? [t.name, t.kind === 'view' ? 'VIEW' : 'BASE TABLE'] : [t.name]));
    }
    case 'show-columns': {
      const t = table(catalog, statement.table.name);
      return t.columns
        .filter((c) => matches(statement.like, c.name))
        .map((c) => {
          const type = mysqlColumnType(c.declared);
          const textual = /char|text|enum|set/.test(type);
          const nullable = c.notNull ? 'NO' : 'YES';
          const key = c.primaryKey ? 'PRI' : '';
          if (statement.full) {
            return [c.name, type, textual ? COLLATION : null, nullable, key, c.defaultValue, '', 'select,insert,update,references', ''];
          }
          return [c.name, type, nullable, key, c.defaultValue, ''];
        });
    }
    case 'show-create-table': {
      const t = table(catalog, statement.table.name);
      return [[t.name, showCreateTable(t)]];
    }
    case 'show-databases': {
      const names = ['information_schema', catalog.database, 'mysql', 'performance_schema', 'sys'].sort();
      return names.filter((n) => matches(statement.like, n)).map((n) => [n]);
    }
    case 'show-index':
      table(catalog, statement.table.name);
      return [];
    case 'show-table-status':
      return [...catalog.tables.values()]
        .filter((t) => matches(statement.like, t.name))
        .map((t) => [
          t.name,
          'InnoDB',
          { type: 'int', value: '10' },
          'Dynamic',
          { type: 'int', value: String(rowCount(t.name)) },
          { type: 'int', value: '0' },
          { type: 'int', value: '16384' },
          { type: 'int', value: '0' },
          { type: 'int', value: '0' },
          { type: 'int', value: '0' },
          null,
          null,
          null,
          null,
          COLLATION,
          null,
          '',
          '',
        ]);
    case 'show-other':
      return [];
    case 'use':
      if (statement.database !== catalog.database) throw mysqlErrors.unknownDatabase(statement.database);
      return [];
    case 'transaction':
      return [];
    default:
      return null;
  }
}

