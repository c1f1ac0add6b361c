/**
 * Small, MySQL-flavoured SQL text helpers for the simulated target: quoting, rewriting the table
 * reference of a statement, and finding the value literals of a gold INSERT/UPDATE whose case or format
 * can be spoiled. This is not a parser; it scans tokens well enough for the shipped DBBench statements.
 */
import { trimEndOf } from '../../../python/text-scan.js';

/** How the target writes the table name: correctly, or one of the unquoted mistakes. */
export type TableRefStyle = 'backtick' | 'bare' | 'underscored';

export function quoteIdent(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

/** A MySQL string literal. Values with backslashes are avoided by callers (escape rules differ by engine). */
export function sqlString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** True if the name only works backtick-quoted: it holds a space or another non-identifier character. */
export function tableNeedsQuoting(name: string): boolean {
  return /[^A-Za-z0-9_$]/.test(name);
}

export function renderTableRef(name: string, style: TableRefStyle): string {
  switch (style) {
    case 'backtick':
      return quoteIdent(name);
    case 'bare':
      return name;
    case 'underscored':
      return name.replace(/[^A-Za-z0-9_$]+/g, '_');
  }
}

/**
 * The statement with its backtick-quoted table reference written in another style, or undefined if the
 * statement does not quote the table that way (then the quoting mistake cannot be shown on it).
 */
export function restyleTableRef(sql: string, tableName: string, style: TableRefStyle): string | undefined {
  const quoted = quoteIdent(tableName);
  if (!sql.includes(quoted)) return undefined;
  return style === 'backtick' ? sql : sql.split(quoted).join(renderTableRef(tableName, style));
}

export type SqlToken =
  | { kind: 'string'; start: number; end: number; raw: string; value: string | undefined }
  | { kind: 'ident'; start: number; end: number; name: string }
  | { kind: 'word'; start: number; end: number; text: string }
  | { kind: 'punct'; start: number; end: number; text: string };

/**
 * Splits SQL into tokens. String literals use MySQL rules ('' and backslash escapes); `value` is the
 * literal's text when it holds no backslash, otherwise undefined (such literals are never edited).
 */
export function tokenizeSql(sql: string): SqlToken[] {
  const tokens: SqlToken[] = [];
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i] ?? '';
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === "'" || ch === '"') {
      const start = i;
      let j = i + 1;
      let hasBackslash = false;
      let value = '';
      while (j < sql.length) {
        const c = sql[j] ?? '';
        if (c === '\\') {
          hasBackslash = true;
          value += sql.slice(j, j + 2);
          j += 2;
          continue;
        }
        if (c === ch) {
          if (sql[j + 1] === ch) {
            value += ch;
            j += 2;
            continue;
          }
          break;
        }
        value += c;
        j++;
      }
      const end = Math.min(j + 1, sql.length);
      tokens.push({ kind: 'string', start, end, raw: sql.slice(start, end), value: hasBackslash ? undefined : value });
      i = end;
      continue;
    }
    if (ch === '`') {
      const start = i;
      let j = i + 1;
      let name = '';
      while (j < sql.length) {
        const c = sql[j] ?? '';
        if (c === '`') {
          if (sql[j + 1] === '`') {
            name += '`';
            j += 2;
            continue;
          }
          break;
        }
        name += c;
        j++;
      }
      const end = Math.min(j + 1, sql.length);
      tokens.push({ kind: 'ident', start, end, name });
      i = end;
      continue;
    }
    const word = /^[A-Za-z0-9_$.+-]+/.exec(sql.slice(i));
    if (word && /[A-Za-z0-9_$]/.test(word[0])) {
      tokens.push({ kind: 'word', start: i, end: i + word[0].length, text: word[0] });
      i += word[0].length;
      continue;
    }
    tokens.push({ kind: 'punct', start: i, end: i + 1, text: ch });
    i++;
  }
  return tokens;
}

export type ValueEditHow = 'lowercase' | 'capitalize' | 'trailing_zeros' | 'thousands';

/** One way to spoil a value literal of a gold statement, with the column it goes into when known. */
export interface ValueEdit {
  start: number;
  end: number;
  original: string;
  altered: string;
  how: ValueEditHow;
  column: string | undefined;
  /** SQL conditions (besides the spoiled column) that single out the rows the statement wrote. */
  rowConditions: string[];
}

/** The spoiled variants a careless writer could produce for one value. */
export function spoilValue(value: string): { altered: string; how: ValueEditHow }[] {
  const out: { altered: string; how: ValueEditHow }[] = [];
  if (/[A-Z]/.test(value) && value.toLowerCase() !== value) {
    out.push({ altered: value.toLowerCase(), how: 'lowercase' });
  } else {
    const first = value.search(/[a-z]/);
    if (first >= 0) out.push({ altered: value.slice(0, first) + value.charAt(first).toUpperCase() + value.slice(first + 1), how: 'capitalize' });
  }
  if (/^[+-]?\d+\.\d*0$/.test(value)) out.push({ altered: trimEndOf(value, '0').replace(/\.$/, ''), how: 'trailing_zeros' });
  if (/^\d{1,3}(,\d{3})+$/.test(value)) out.push({ altered: value.replace(/,/g, ''), how: 'thousands' });
  return out;
}

function identText(token: SqlToken | undefined): string | undefined {
  if (token?.kind === 'ident') return token.name;
  if (token?.kind === 'word') return token.text;
  return undefined;
}

function isWord(token: SqlToken | undefined, word: string): boolean {
  return token?.kind === 'word' && token.text.toUpperCase() === word;
}

/** The text of a one-token value as a string-comparison literal, if it is a plain string or integer. */
function literalCondition(column: string, token: SqlToken | undefined): string | undefined {
  if (token?.kind === 'string' && token.value !== undefined && !token.raw.startsWith('"')) return `${quoteIdent(column)} = ${sqlString(token.value)}`;
  if (token?.kind === 'word' && /^[+-]?\d+$/.test(token.text)) return `${quoteIdent(column)} = ${sqlString(token.text)}`;
  return undefined;
}

interface Assignment {
  column: string | undefined;
  tokens: SqlToken[];
}

/**
 * Every value literal of an INSERT (in VALUES) or UPDATE (in SET) that can be spoiled, with the spoiled
 * text. WHERE literals are never touched: on MySQL they match case-insensitively anyway.
 */
export function findValueEdits(sql: string, tableColumns: readonly string[]): ValueEdit[] {
  const tokens = tokenizeSql(sql);
  const firstWord = tokens.find((t): t is Extract<SqlToken, { kind: 'word' }> => t.kind === 'word');
  const verb = firstWord?.text.toUpperCase() ?? '';
  const groups: { assignments: Assignment[]; extra: string[] }[] = [];

  if (verb === 'INSERT') {
    const valuesAt = tokens.findIndex((t) => isWord(t, 'VALUES') || isWord(t, 'VALUE'));
    if (valuesAt < 0) return [];
    const columns: string[] = [];
    const open = tokens.findIndex((t, i) => i < valuesAt && t.kind === 'punct' && t.text === '(');
    if (open >= 0) {
      for (let i = open + 1; i < valuesAt; i++) {
        const token = tokens[i];
        if (token?.kind === 'punct' && token.text === ')') break;
        const name = identText(token);
        if (name !== undefined) columns.push(name);
      }
    }
    const names = columns.length > 0 ? columns : [...tableColumns];
    let depth = 0;
    let tuple: Assignment[] = [];
    for (let i = valuesAt + 1; i < tokens.length; i++) {
      const token = tokens[i];
      if (token === undefined) continue;
      if (token.kind === 'punct' && token.text === '(') {
        depth++;
        if (depth === 1) tuple = [{ column: names[0], tokens: [] }];
        else tuple.at(-1)?.tokens.push(token);
      } else if (token.kind === 'punct' && token.text === ')') {
        depth--;
        if (depth === 0) groups.push({ assignments: tuple, extra: [] });
        else tuple.at(-1)?.tokens.push(token);
      } else if (token.kind === 'punct' && token.text === ',' && depth === 1) {
        tuple.push({ column: names[tuple.length], tokens: [] });
      } else if (depth >= 1) {
        tuple.at(-1)?.tokens.push(token);
      }
    }
  } else if (verb === 'UPDATE') {
    const setAt = tokens.findIndex((t) => isWord(t, 'SET'));
    if (setAt < 0) return [];
    const whereAt = tokens.findIndex((t, i) => i > setAt && isWord(t, 'WHERE'));
    const setEnd = whereAt < 0 ? tokens.length : whereAt;
    const assignments: Assignment[] = [];
    let current: Assignment | undefined;
    for (let i = setAt + 1; i < setEnd; i++) {
      const token = tokens[i];
      if (token === undefined) continue;
      const next = tokens[i + 1];
      if (current === undefined || (token.kind === 'punct' && token.text === ',')) {
        const startAt = token.kind === 'punct' && token.text === ',' ? i + 1 : i;
        const nameToken = tokens[startAt];
        const eq = tokens[startAt + 1];
        current = { column: eq?.kind === 'punct' && eq.text === '=' ? identText(nameToken) : undefined, tokens: [] };
        assignments.push(current);
        i = eq?.kind === 'punct' && eq.text === '=' ? startAt + 1 : startAt;
        continue;
      }
      if (next !== undefined || token.kind !== 'punct' || token.text !== ';') current.tokens.push(token);
    }
    const extra: string[] = [];
    const whereToken = whereAt < 0 ? undefined : tokens[whereAt];
    if (whereToken !== undefined) {
      const whereText = sql.slice(whereToken.end).trim().replace(/;\s*$/, '').trim();
      const setColumns = new Set(assignments.flatMap((a) => (a.column === undefined ? [] : [a.column.toLowerCase()])));
      const whereNames = tokens.slice(whereAt + 1).flatMap((t) => (t.kind === 'ident' ? [t.name.toLowerCase()] : t.kind === 'word' ? [t.text.toLowerCase()] : []));
      if (whereText !== '' && !whereNames.some((name) => setColumns.has(name))) extra.push(`(${whereText})`);
    }
    groups.push({ assignments, extra });
  } else {
    return [];
  }

  const edits: ValueEdit[] = [];
  for (const { assignments, extra } of groups) {
    assignments.forEach((assignment, a) => {
      const token = assignment.tokens.length === 1 ? assignment.tokens[0] : undefined;
      if (token?.kind !== 'string' || token.value === undefined || token.raw.startsWith('"')) return;
      const others = assignments.flatMap((other, o) => {
        if (o === a || other.column === undefined || other.tokens.length !== 1) return [];
        const condition = literalCondition(other.column, other.tokens[0]);
        return condition === undefined ? [] : [condition];
      });
      for (const { altered, how } of spoilValue(token.value)) {
        edits.push({ start: token.start, end: token.end, original: token.value, altered, how, column: assignment.column, rowConditions: [...others, ...extra] });
      }
    });
  }
  return edits;
}

export function applyValueEdit(sql: string, edit: ValueEdit): string {
  return sql.slice(0, edit.start) + sqlString(edit.altered) + sql.slice(edit.end);
}

/**
 * The statement that repairs a spoiled value already written: set it back on the rows the spoiled
 * statement wrote (the spoiled value plus the statement's other values, or its WHERE clause).
 */
export function repairStatement(tableRef: string, edit: ValueEdit): string | undefined {
  if (edit.column === undefined) return undefined;
  const column = quoteIdent(edit.column);
  const where = [`${column} = ${sqlString(edit.altered)}`, ...edit.rowConditions].join(' AND ');
  return `UPDATE ${tableRef} SET ${column} = ${sqlString(edit.original)} WHERE ${where}`;
}
