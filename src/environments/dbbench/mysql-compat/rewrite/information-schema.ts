import type { Catalog } from '../catalog.js';
import { quoteIdent, quoteString } from '../sql-quote.js';
import { INT, STRING } from '../sql-types.js';
import { lastLineTerminator } from '../../../../python/text-scan.js';
import type { OutColumn } from './scope.js';

/**
 * `type.replace(/\(.*$/, '')`: cut at the first `(` after which no line ends (the regex tries every `(` and
 * runs to the end from each).
 */
export function beforeParenthesis(type: string): string {
  const at = type.indexOf('(', lastLineTerminator(type) + 1);
  return at < 0 ? type : type.slice(0, at);
}

/** information_schema.TABLES / COLUMNS / SCHEMATA for the episode database, as inline SELECTs. */
export function informationSchema(name: string, catalog: Catalog): { sql: string; columns: OutColumn[] } | null {
  const rowsToSql = (columns: OutColumn[], rows: (string | number | null)[][]): string => {
    const value = (v: string | number | null): string => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : quoteString(v));
    if (rows.length === 0) return `SELECT ${columns.map((c) => `NULL AS ${quoteIdent(c.name)}`).join(', ')} WHERE 0`;
    return rows.map((r) => `SELECT ${r.map((v, i) => `${value(v)} AS ${quoteIdent(columns[i]!.name)}`).join(', ')}`).join(' UNION ALL ');
  };
  const s = (n: string): OutColumn => ({ name: n, type: STRING });
  const i = (n: string): OutColumn => ({ name: n, type: INT });
  const tables = [...catalog.tables.values()];
  switch (name.toUpperCase()) {
    case 'TABLES': {
      const columns = [s('TABLE_CATALOG'), s('TABLE_SCHEMA'), s('TABLE_NAME'), s('TABLE_TYPE'), s('ENGINE'), i('VERSION'), s('ROW_FORMAT'), i('TABLE_ROWS'), s('TABLE_COLLATION'), s('TABLE_COMMENT')];
      const rows = tables.map((t) => ['def', catalog.database, t.name, t.kind === 'view' ? 'VIEW' : 'BASE TABLE', t.kind === 'view' ? null : 'InnoDB', 10, 'Dynamic', null, 'utf8mb4_0900_ai_ci', '']);
      return { sql: rowsToSql(columns, rows), columns };
    }
    case 'COLUMNS': {
      const columns = [
        s('TABLE_CATALOG'), s('TABLE_SCHEMA'), s('TABLE_NAME'), s('COLUMN_NAME'), i('ORDINAL_POSITION'), s('COLUMN_DEFAULT'), s('IS_NULLABLE'),
        s('DATA_TYPE'), i('CHARACTER_MAXIMUM_LENGTH'), i('NUMERIC_PRECISION'), i('NUMERIC_SCALE'), s('CHARACTER_SET_NAME'), s('COLLATION_NAME'),
        s('COLUMN_TYPE'), s('COLUMN_KEY'), s('EXTRA'), s('COLUMN_COMMENT'),
      ];
      const rows = tables.flatMap((t) =>
        t.columns.map((c, k) => {
          const columnType = (c.declared || 'text').toLowerCase();
          const dataType = beforeParenthesis(columnType).trim();
          const textual = /char|text/.test(dataType);
          return [
            'def', catalog.database, t.name, c.name, k + 1, c.defaultValue, c.notNull ? 'NO' : 'YES', dataType,
            textual ? (dataType === 'text' ? 65535 : Number(/\((\d+)\)/.exec(columnType)?.[1] ?? 255)) : null, null, null,
            textual ? 'utf8mb4' : null, textual ? 'utf8mb4_0900_ai_ci' : null, columnType, c.primaryKey ? 'PRI' : '', '', '',
          ];
        }),
      );
      return { sql: rowsToSql(columns, rows), columns };
    }
    case 'SCHEMATA': {
      const columns = [s('CATALOG_NAME'), s('SCHEMA_NAME'), s('DEFAULT_CHARACTER_SET_NAME'), s('DEFAULT_COLLATION_NAME'), s('SQL_PATH')];
      const names = ['information_schema', catalog.database, 'mysql', 'performance_schema', 'sys'].sort();
      return { sql: rowsToSql(columns, names.map((n) => ['def', n, 'utf8mb4', 'utf8mb4_0900_ai_ci', null])), columns };
    }
    default:
      return null;
  }
}
