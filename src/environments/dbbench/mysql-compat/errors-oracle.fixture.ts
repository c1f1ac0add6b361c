/**
 * The regex-only `mapSqliteError` as it was before its patterns were made linear, kept as the oracle of
 * `errors.test.ts` (quadratic on long agent identifiers; tests only).
 */
import { fromUdfMessage, MysqlError, mysqlErrors, syntaxError } from './errors.js';

export function mapSqliteErrorByRegex(message: string, sql: string, database: string): MysqlError {
  const udf = fromUdfMessage(message);
  if (udf) return udf;
  let m = /no such table: (?:main\.)?(.+)$/.exec(message);
  if (m) return mysqlErrors.noSuchTable(database, m[1]!);
  m = /no such column: (.+)$/.exec(message);
  if (m) return mysqlErrors.unknownColumn(m[1]!.replace(/^"|"$/g, ''), 'field list');
  m = /ambiguous column name: (.+)$/.exec(message);
  if (m) return mysqlErrors.ambiguousColumn(m[1]!, 'field list');
  m = /no such function: (.+)$/.exec(message);
  if (m) return mysqlErrors.functionMissing(database, m[1]!);
  m = /wrong number of arguments to function (\w+)\(\)/.exec(message);
  if (m) return mysqlErrors.paramCount(m[1]!.toLowerCase());
  m = /table (?:"?)(.+?)(?:"?) already exists/.exec(message);
  if (m) return mysqlErrors.tableExists(m[1]!);
  m = /duplicate column name: (.+)$/.exec(message);
  if (m) return mysqlErrors.duplicateColumn(m[1]!);
  m = /sub-select returns (\d+) columns - expected 1/.exec(message);
  if (m) return mysqlErrors.operandColumns(1);
  if (/misuse of (aggregate|window) function/.test(message)) return mysqlErrors.invalidGroupFunction();
  m = /has (\d+) columns but (\d+) values were supplied|(\d+) values for (\d+) columns/.exec(message);
  if (m) return mysqlErrors.columnCount(1);
  m = /near "((?:[^"]|"")*)": syntax error/.exec(message);
  if (m) {
    const token = m[1]!.replace(/""/g, '"');
    const at = sql.indexOf(token);
    return syntaxError(sql, at >= 0 ? at : 0);
  }
  if (/incomplete input/.test(message)) return syntaxError(sql, sql.length);
  m = /UNIQUE constraint failed: (.+)$/.exec(message);
  if (m) return new MysqlError(1062, '23000', `Duplicate entry for key '${m[1]}'`);
  if (/NOT NULL constraint failed: (?:\w+\.)?(.+)$/.test(message)) {
    const col = /NOT NULL constraint failed: (?:[^.]+\.)?(.+)$/.exec(message)![1]!;
    return new MysqlError(1048, '23000', `Column '${col}' cannot be null`);
  }
  return new MysqlError(1105, 'HY000', message);
}
