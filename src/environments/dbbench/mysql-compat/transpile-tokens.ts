import { quoteIdent, quoteString } from './sql-quote.js';
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
  if (first === 'RENAME') sql = sql.replace(/^RENAME\s+TABLE\s+(.+?)\s+TO\s+/i, 'ALTER TABLE $1 RENAME TO ');
  return sql;
}
