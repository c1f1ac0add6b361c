import type Database from 'better-sqlite3';

import { typeFromDeclared, type SqlType } from './sql-types.js';

/** One column as the compatibility layer sees it. */
export interface CatalogColumn {
  name: string;
  /** The declared type as written in CREATE TABLE (`TEXT` for every DBBench column). */
  declared: string;
  type: SqlType;
  /** Whether SQLite gives the column TEXT affinity (numbers written to it are stored as text). */
  textual: boolean;
  notNull: boolean;
  defaultValue: string | null;
  primaryKey: boolean;
}

export interface CatalogTable {
  name: string;
  kind: 'table' | 'view';
  columns: CatalogColumn[];
}

/** The tables of the episode database, keyed by exact name (MySQL table names are case-sensitive on Linux). */
export interface Catalog {
  database: string;
  tables: Map<string, CatalogTable>;
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function unquoteDefault(text: string | null): string | null {
  if (text === null) return null;
  const m = /^'(.*)'$/s.exec(text);
  if (m) return m[1]!.replace(/''/g, "'");
  if (/^null$/i.test(text)) return null;
  return text;
}

/** Reads the current schema from SQLite. */
export function readCatalog(db: Database.Database, database: string): Catalog {
  const tables = new Map<string, CatalogTable>();
  const rows = db
    .prepare("SELECT name, type FROM main.sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
    .all() as { name: string; type: 'table' | 'view' }[];
  for (const row of rows) {
    const info = db.prepare(`PRAGMA main.table_info(${quoteIdent(row.name)})`).all() as {
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
    }[];
    tables.set(row.name, {
      name: row.name,
      kind: row.type,
      columns: info.map((c) => {
        const declared = c.type;
        const affinityText = declared === '' || /CHAR|CLOB|TEXT/i.test(declared);
        return {
          name: c.name,
          declared,
          type: typeFromDeclared(declared),
          textual: affinityText && !/INT/i.test(declared),
          notNull: c.notnull === 1,
          defaultValue: unquoteDefault(c.dflt_value),
          primaryKey: c.pk > 0,
        };
      }),
    });
  }
  return { database, tables };
}

/**
 * The catalog {@link readCatalog} reads right after the engine created the task table (`TEXT COLLATE
 * NOCASE` columns, no keys, no defaults), built without asking SQLite.
 */
export function loadedTableCatalog(database: string, name: string, columns: readonly string[]): Catalog {
  const type = typeFromDeclared('TEXT');
  const table: CatalogTable = {
    name,
    kind: 'table',
    columns: columns.map((column) => ({ name: column, declared: 'TEXT', type, textual: true, notNull: false, defaultValue: null, primaryKey: false })),
  };
  return { database, tables: new Map([[name, table]]) };
}
