import { tokenizeMysql } from './tokenize.js';

/**
 * MySQL errors in the shape the Python connector prints them: `NNNN (SQLSTATE): text`, e.g.
 * `1146 (42S02): Table 'db.t' doesn't exist`.
 */
export class MysqlError extends Error {
  constructor(
    readonly errno: number,
    readonly sqlState: string,
    readonly text: string,
  ) {
    super(`${errno} (${sqlState}): ${text}`);
    this.name = 'MysqlError';
  }
}

/** Marker prefix for MySQL errors raised inside user-defined SQL functions (they cross SQLite as messages). */
const UDF_MARK = '\u0001mysql\u0001';

/** Throws from inside a UDF so the engine can report the MySQL error instead of SQLite's wrapper text. */
export function udfError(errno: number, sqlState: string, text: string): Error {
  return new Error(`${UDF_MARK}${errno}\u0001${sqlState}\u0001${text}`);
}

/** ER_SUBQUERY_NO_1_ROW raised from inside a UDF (the aggregate that guards a scalar subquery). */
export function singleRowError(): Error {
  const e = mysqlErrors.subqueryRows();
  return udfError(e.errno, e.sqlState, e.text);
}

export function fromUdfMessage(message: string): MysqlError | null {
  const at = message.indexOf(UDF_MARK);
  if (at < 0) return null;
  const [errno, state, text] = message.slice(at + UDF_MARK.length).split('\u0001') as [string, string, string];
  return new MysqlError(Number(errno), state, text);
}

/** ER_PARSE_ERROR: MySQL quotes up to 80 characters of the statement from the offending token. */
export function syntaxError(sql: string, at: number): MysqlError {
  const near = Array.from(sql.slice(at)).slice(0, 80).join('');
  const line = sql.slice(0, at).split('\n').length;
  return new MysqlError(
    1064,
    '42000',
    `You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '${near}' at line ${line}`,
  );
}

export const mysqlErrors = {
  noSuchTable: (db: string, table: string) => new MysqlError(1146, '42S02', `Table '${db}.${table}' doesn't exist`),
  unknownColumn: (name: string, clause: string) => new MysqlError(1054, '42S22', `Unknown column '${name}' in '${clause}'`),
  ambiguousColumn: (name: string, clause: string) => new MysqlError(1052, '23000', `Column '${name}' in ${clause} is ambiguous`),
  unknownTable: (name: string, clause: string) => new MysqlError(1109, '42S02', `Unknown table '${name}' in ${clause}`),
  columnCount: (row: number) => new MysqlError(1136, '21S01', `Column count doesn't match value count at row ${row}`),
  columnTwice: (name: string) => new MysqlError(1110, '42000', `Column '${name}' specified twice`),
  operandColumns: (n: number) => new MysqlError(1241, '21000', `Operand should contain ${n} column(s)`),
  subqueryRows: () => new MysqlError(1242, '21000', 'Subquery returns more than 1 row'),
  derivedAlias: () => new MysqlError(1248, '42000', 'Every derived table must have its own alias'),
  notUniqueAlias: (alias: string) => new MysqlError(1066, '42000', `Not unique table/alias: '${alias}'`),
  limitInSubquery: () => new MysqlError(1235, '42000', "This version of MySQL doesn't yet support 'LIMIT & IN/ALL/ANY/SOME subquery'"),
  invalidGroupFunction: () => new MysqlError(1111, 'HY000', 'Invalid use of group function'),
  functionMissing: (db: string, name: string) => new MysqlError(1305, '42000', `FUNCTION ${db}.${name} does not exist`),
  paramCount: (name: string) => new MysqlError(1582, '42000', `Incorrect parameter count in the call to native function '${name}'`),
  tableExists: (name: string) => new MysqlError(1050, '42S01', `Table '${name}' already exists`),
  unknownDatabase: (name: string) => new MysqlError(1049, '42000', `Unknown database '${name}'`),
  duplicateColumn: (name: string) => new MysqlError(1060, '42S21', `Duplicate column name '${name}'`),
  unsupported: (what: string) => new MysqlError(1235, '42000', `This version of MySQL doesn't yet support '${what}'`),
  regexp: () => new MysqlError(3685, 'HY000', 'Illegal argument to a regular expression.'),
  tableFull: (name: string) => new MysqlError(1114, 'HY000', `The table '${name}' is full`),
};

function lastLine(text: string): string {
  let at = text.length;
  while (at > 0 && !isLineBreak(text.charCodeAt(at - 1))) at--;
  return at === 0 ? text : text.slice(at);
}

function isLineBreak(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
}

/**
 * `/table (?:"?)(.+?)(?:"?) already exists/.exec(text)`, line by line and each line cut after its last
 * ` already exists`: a match never spans a line break, and on one line the first `table ` that can match does,
 * so no start rescans the line (the single regex does, for every `table ` of a line without the phrase).
 */
function tableAlreadyExists(text: string): RegExpExecArray | null {
  let start = 0;
  while (start <= text.length) {
    let end = start;
    while (end < text.length && !isLineBreak(text.charCodeAt(end))) end++;
    const line = text.slice(start, end);
    const cut = line.lastIndexOf(' already exists');
    if (cut >= 0) {
      const m = /table (?:"?)(.+?)(?:"?) already exists/.exec(line.slice(0, cut + ' already exists'.length));
      if (m) return m;
    }
    start = end + 1;
  }
  return null;
}

/**
 * The table a statement writes to, for ER_RECORD_FILE_FULL: the name after `CREATE [TEMPORARY] TABLE
 * [IF NOT EXISTS]`, `INSERT/REPLACE [IGNORE] [INTO]` or `UPDATE [IGNORE]`. Anything else (a sort or a
 * temporary result grew too large) is named as MySQL names its internal temporary tables.
 */
export function writtenTable(sql: string): string {
  const lexed = tokenizeMysql(sql);
  const fallback = '/tmp/#sql_tmp';
  if (!Array.isArray(lexed)) return fallback;
  const words = lexed.filter((t) => t.kind !== 'eof');
  let i = 0;
  const is = (...names: string[]): boolean => words[i]?.kind === 'word' && names.includes(words[i]!.upper);
  if (is('CREATE')) {
    i++;
    if (is('TEMPORARY')) i++;
    if (!is('TABLE')) return fallback;
    i++;
    if (is('IF')) i += 3;
  } else if (is('INSERT', 'REPLACE', 'UPDATE')) {
    i++;
    while (is('LOW_PRIORITY', 'DELAYED', 'HIGH_PRIORITY', 'IGNORE', 'INTO')) i++;
  } else {
    return fallback;
  }
  let name = words[i];
  // `db.table`: MySQL names the table alone.
  if (words[i + 1]?.kind === 'op' && words[i + 1]!.value === '.' && words[i + 2]) name = words[i + 2];
  return name && (name.kind === 'word' || name.kind === 'quoted') ? name.value : fallback;
}

/**
 * Translates an SQLite error message into the nearest MySQL error. `sql` is the agent's statement, used to
 * place syntax errors. Unknown messages become a generic syntax error at the start of the statement.
 */
export function mapSqliteError(message: string, sql: string, database: string): MysqlError {
  const udf = fromUdfMessage(message);
  if (udf) return udf;
  // The message quotes the agent's identifiers, so it is untrusted text of any length. Every pattern ending in
  // `(.+)$` can only match on the last line (`.` stops at line breaks, `$` is the end of the text), so it runs
  // there: on the whole text each earlier occurrence of its prefix rescans its line (quadratic).
  const last = lastLine(message);
  let m = /no such table: (?:main\.)?(.+)$/.exec(last);
  if (m) return mysqlErrors.noSuchTable(database, m[1]!);
  m = /no such column: (.+)$/.exec(last);
  if (m) return mysqlErrors.unknownColumn(m[1]!.replace(/^"|"$/g, ''), 'field list');
  m = /ambiguous column name: (.+)$/.exec(last);
  if (m) return mysqlErrors.ambiguousColumn(m[1]!, 'field list');
  m = /no such function: (.+)$/.exec(last);
  if (m) return mysqlErrors.functionMissing(database, m[1]!);
  m = /wrong number of arguments to function (\w+)\(\)/.exec(message);
  if (m) return mysqlErrors.paramCount(m[1]!.toLowerCase());
  m = tableAlreadyExists(message);
  if (m) return mysqlErrors.tableExists(m[1]!);
  m = /duplicate column name: (.+)$/.exec(last);
  if (m) return mysqlErrors.duplicateColumn(m[1]!);
  m = /sub-select returns (\d+) columns - expected 1/.exec(message);
  if (m) return mysqlErrors.operandColumns(1);
  if (/misuse of (aggregate|window) function/.test(message)) return mysqlErrors.invalidGroupFunction();
  m = /has (\d+) columns but (\d+) values were supplied|(?<!\d)(\d+) values for (\d+) columns/.exec(message);
  if (m) return mysqlErrors.columnCount(1);
  m = /near "((?:[^"]|"")*)": syntax error/.exec(message);
  if (m) {
    const token = m[1]!.replace(/""/g, '"');
    const at = sql.indexOf(token);
    return syntaxError(sql, at >= 0 ? at : 0);
  }
  if (/incomplete input/.test(message)) return syntaxError(sql, sql.length);
  if (message.includes('database or disk is full')) return mysqlErrors.tableFull(writtenTable(sql));
  m = /UNIQUE constraint failed: (.+)$/.exec(last);
  if (m) return new MysqlError(1062, '23000', `Duplicate entry for key '${m[1]}'`);
  if (/NOT NULL constraint failed: (?:\w+\.)?(.+)$/.test(last)) {
    const col = /NOT NULL constraint failed: (?:[^.]+\.)?(.+)$/.exec(last)![1]!;
    return new MysqlError(1048, '23000', `Column '${col}' cannot be null`);
  }
  return new MysqlError(1105, 'HY000', message);
}
