import { quoteIdent, quoteString } from './sql-quote.js';
import { isJsLineTerminatorCode, isJsSpaceCode } from '../../../python/text-scan.js';
import type { Token } from './tokenize.js';

/**
 * Token-level MySQL → SQLite translation for statements the rewriter does not model (DDL, and syntax it
 * reports as unsupported): backticks become double quotes, `"text"` becomes a string, backslash escapes
 * are already resolved by the lexer, digit-leading names are quoted, `||`/`&&` become OR/AND, and MySQL
 * table options SQLite cannot parse are dropped. Semantics (collation, numeric comparison) stay SQLite's.
 */
export function transpileTokens(tokens: readonly Token[]): string {
  const out: string[] = [];
  const list = tokens.filter((t) => t.kind !== 'eof');
  // Keep the agent's spacing (SQLite records declared types such as `VARCHAR(20)` verbatim).
  let lastEnd = -1;
  const push = (text: string, t: Token): void => {
    out.push(lastEnd >= 0 && t.start > lastEnd ? ` ${text}` : text);
    lastEnd = t.end;
  };
  let depth = 0;
  const isCreateTable = list[0]?.upper === 'CREATE' && list.some((t) => t.upper === 'TABLE');
  for (let i = 0; i < list.length; i++) {
    const t = list[i]!;
    switch (t.kind) {
      case 'quoted':
        push(quoteIdent(t.value), t);
        break;
      case 'string':
        push(quoteString(t.value), t);
        break;
      case 'hexstring':
        push(`X'${t.value.length % 2 === 1 ? `0${t.value}` : t.value}'`, t);
        break;
      case 'variable':
      case 'param':
        push('NULL', t);
        break;
      case 'op':
        if (t.value === '(') depth++;
        if (t.value === ')') depth--;
        push(t.value === '||' ? 'OR' : t.value === '&&' ? 'AND' : t.value === '<=>' ? 'IS' : t.value, t);
        break;
      case 'number':
        push(t.value, t);
        break;
      case 'word': {
        if (/^\d/.test(t.value)) {
          push(quoteIdent(t.value), t);
          break;
        }
        if (isCreateTable && ['AUTO_INCREMENT', 'UNSIGNED', 'ZEROFILL', 'SIGNED'].includes(t.upper)) break;
        if (isCreateTable && (t.upper === 'CHARACTER' || t.upper === 'CHARSET' || t.upper === 'COLLATE' || t.upper === 'COMMENT' || t.upper === 'ENGINE')) {
          // Skip `CHARACTER SET x`, `COLLATE x`, `COMMENT 'x'`, `ENGINE=x` (optionally with `=`).
          if (t.upper === 'CHARACTER' && list[i + 1]?.upper === 'SET') i++;
          if (list[i + 1]?.value === '=') i++;
          i++;
          break;
        }
        if (isCreateTable && depth === 0 && t.upper === 'DEFAULT' && ['CHARSET', 'CHARACTER', 'COLLATE'].includes(list[i + 1]?.upper ?? '')) break;
        push(t.value, t);
        break;
      }
      default:
        push(t.value, t);
    }
  }
  let sql = out.join('');
  const first = list[0]?.upper;
  if (first === 'TRUNCATE') sql = sql.replace(/^TRUNCATE\s+(?:TABLE\s+)?/i, 'DELETE FROM ');
  if (first === 'RENAME') sql = renameAsAlter(sql);
  return sql;
}

/**
 * `sql.replace(/^RENAME\s+TABLE\s+(.+?)\s+TO\s+/i, 'ALTER TABLE $1 RENAME TO ')` as a forward scan. The
 * lazy name ends at the first whitespace run followed by `TO` and whitespace, within its line; the regex
 * measures every whitespace run again from each of its positions, which is quadratic in a long run.
 */
export function renameAsAlter(sql: string): string {
  const space = (at: number): number => {
    while (at < sql.length && isJsSpaceCode(sql.charCodeAt(at))) at++;
    return at;
  };
  let at = 'RENAME'.length;
  if (!/^RENAME/i.test(sql) || !isJsSpaceCode(sql.charCodeAt(at))) return sql;
  at = space(at);
  if (!/^TABLE$/i.test(sql.slice(at, at + 5)) || !isJsSpaceCode(sql.charCodeAt(at + 5))) return sql;
  const nameStart = space(at + 5);
  // The name takes at least one character; the greedy whitespace before it leaves it a non-space first.
  if (nameStart >= sql.length) return sql;
  let i = nameStart + 1;
  while (i < sql.length) {
    const code = sql.charCodeAt(i);
    if (isJsSpaceCode(code)) {
      const runEnd = space(i);
      if (/^TO$/i.test(sql.slice(runEnd, runEnd + 2)) && isJsSpaceCode(sql.charCodeAt(runEnd + 2))) {
        return `ALTER TABLE ${sql.slice(nameStart, i)} RENAME TO ${sql.slice(space(runEnd + 2))}`;
      }
      // A line end inside the run ends the name's line: no later `TO` can close it.
      for (let k = i; k < runEnd; k++) if (isJsLineTerminatorCode(sql.charCodeAt(k))) return sql;
      i = runEnd;
    } else {
      i++;
    }
  }
  return sql;
}
