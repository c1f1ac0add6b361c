/**
 * A MySQL lexer: the token rules of MySQL 8 with the default sql_mode (no ANSI_QUOTES, backslash escapes
 * on), so `"text"` is a string, `` `name` `` an identifier, `'a\nb'` holds a newline, `1952_x` is an
 * identifier and `1e5` a number.
 */

export type TokenKind =
  | 'word' // an unquoted identifier or keyword
  | 'quoted' // a backtick-quoted identifier
  | 'string' // '…' or "…" (value unescaped)
  | 'hexstring' // X'…' or 0x… (value = the hex digits)
  | 'number' // integer, decimal or float literal (value = source text)
  | 'op' // operators and punctuation
  | 'variable' // @name or @@name (value without the @s)
  | 'param' // ?
  | 'eof';

export interface Token {
  kind: TokenKind;
  /** Unescaped value for strings and quoted names; the text for everything else. */
  value: string;
  /** For `word`: the upper-cased text, for keyword checks. */
  upper: string;
  start: number;
  end: number;
  /** For numbers: `int`, `decimal` (has a point) or `float` (has an exponent). */
  numberKind?: 'int' | 'decimal' | 'float';
  /** For strings: the quote character. */
  quote?: "'" | '"';
  /** For variables: true for `@@system` variables. */
  system?: boolean;
}

export interface LexError {
  kind: 'lex-error';
  /** Offset where the unparseable text starts (MySQL reports the rest of the statement from here). */
  at: number;
  message: string;
}

const OPERATORS = ['<=>', '->>', '<=', '>=', '<>', '!=', '<<', '>>', '||', '&&', ':=', '->', '=', '<', '>', '+', '-', '*', '/', '%', '(', ')', ',', '.', ';', '!', '~', '^', '&', '|', '{', '}'];

function isIdentChar(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  return /[A-Za-z0-9_$]/.test(ch) || ch.charCodeAt(0) >= 0x80;
}

const SIMPLE_ESCAPES: Record<string, string> = { '0': '\u0000', "'": "'", '"': '"', b: '\b', n: '\n', r: '\r', t: '\t', Z: '\u001a', '\\': '\\' };

/** Reads a quoted string starting at `start` (the quote). Returns the value and the end offset. */
function readString(sql: string, start: number, quote: string): { value: string; end: number } | null {
  let value = '';
  let i = start + 1;
  while (i < sql.length) {
    const ch = sql[i]!;
    if (ch === '\\') {
      const next = sql[i + 1];
      if (next === undefined) return null;
      // \% and \_ keep their backslash so LIKE can see the escape.
      if (next === '%' || next === '_') value += `\\${next}`;
      else value += SIMPLE_ESCAPES[next] ?? next;
      i += 2;
      continue;
    }
    if (ch === quote) {
      if (sql[i + 1] === quote) {
        value += quote;
        i += 2;
        continue;
      }
      return { value, end: i + 1 };
    }
    value += ch;
    i++;
  }
  return null;
}

/** Splits one SQL text into tokens, or reports where lexing failed (e.g. an unterminated string). */
export function tokenizeMysql(sql: string): Token[] | LexError {
  const tokens: Token[] = [];
  const push = (kind: TokenKind, value: string, start: number, end: number, extra: Partial<Token> = {}): void => {
    tokens.push({ kind, value, upper: kind === 'word' ? value.toUpperCase() : value, start, end, ...extra });
  };
  let i = 0;
  let versionedCommentDepth = 0;
  while (i < sql.length) {
    const ch = sql[i]!;
    const rest = sql.slice(i, i + 3);
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '#' || (rest.startsWith('--') && (i + 2 >= sql.length || /\s/.test(sql[i + 2]!) || sql.charCodeAt(i + 2) < 0x20))) {
      while (i < sql.length && sql[i] !== '\n') i++;
      continue;
    }
    if (rest.startsWith('/*')) {
      if (sql[i + 2] === '!' || sql[i + 2] === '+') {
        // /*! … */ is executed by MySQL; optimizer hints /*+ … */ are ignored.
        if (sql[i + 2] === '!') {
          i += 3;
          while (/\d/.test(sql[i] ?? '')) i++;
          versionedCommentDepth++;
          continue;
        }
      }
      const close = sql.indexOf('*/', i + 2);
      if (close < 0) return { kind: 'lex-error', at: i, message: 'unterminated comment' };
      i = close + 2;
      continue;
    }
    if (versionedCommentDepth > 0 && rest.startsWith('*/')) {
      versionedCommentDepth--;
      i += 2;
      continue;
    }
    if (ch === "'" || ch === '"') {
      const s = readString(sql, i, ch);
      if (!s) return { kind: 'lex-error', at: i, message: 'unterminated string' };
      push('string', s.value, i, s.end, { quote: ch });
      i = s.end;
      continue;
    }
    if (ch === '`') {
      let value = '';
      let j = i + 1;
      for (;;) {
        if (j >= sql.length) return { kind: 'lex-error', at: i, message: 'unterminated quoted identifier' };
        if (sql[j] === '`') {
          if (sql[j + 1] === '`') {
            value += '`';
            j += 2;
            continue;
          }
          break;
        }
        value += sql[j];
        j++;
      }
      push('quoted', value, i, j + 1);
      i = j + 1;
      continue;
    }
    // X'hex' and B'bits' literals, N'…' and _charset'…' introducers.
    if ((ch === 'x' || ch === 'X') && sql[i + 1] === "'") {
      const close = sql.indexOf("'", i + 2);
      if (close < 0) return { kind: 'lex-error', at: i, message: 'unterminated hex literal' };
      push('hexstring', sql.slice(i + 2, close), i, close + 1);
      i = close + 1;
      continue;
    }
    if ((ch === 'n' || ch === 'N') && sql[i + 1] === "'") {
      const s = readString(sql, i + 1, "'");
      if (!s) return { kind: 'lex-error', at: i, message: 'unterminated string' };
      push('string', s.value, i, s.end, { quote: "'" });
      i = s.end;
      continue;
    }
    if (ch === '_') {
      const m = /^_[A-Za-z0-9]+(?=['"])/.exec(sql.slice(i));
      if (m) {
        const q = sql[i + m[0].length]!;
        const s = readString(sql, i + m[0].length, q);
        if (!s) return { kind: 'lex-error', at: i, message: 'unterminated string' };
        push('string', s.value, i, s.end, { quote: q as "'" | '"' });
        i = s.end;
        continue;
      }
    }
    if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(sql[i + 1] ?? '') && !isIdentChar(sql[i - 1]) && sql[i - 1] !== '`')) {
      const tail = sql.slice(i);
      const hex = /^0x[0-9a-fA-F]+/.exec(tail);
      if (hex && !isIdentChar(tail[hex[0].length])) {
        push('hexstring', hex[0].slice(2), i, i + hex[0].length);
        i += hex[0].length;
        continue;
      }
      const num = /^(?:\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(tail);
      const numText = num?.[0] ?? '';
      if (num && !isIdentChar(tail[numText.length])) {
        const numberKind = num[2] ? 'float' : num[1] !== undefined || numText.startsWith('.') ? 'decimal' : 'int';
        push('number', numText, i, i + numText.length, { numberKind });
        i += numText.length;
        continue;
      }
      // A name that starts with digits, such as 1952_British_Grand_Prix_0.
      let j = i;
      while (isIdentChar(sql[j])) j++;
      push('word', sql.slice(i, j), i, j);
      i = j;
      continue;
    }
    if (isIdentChar(ch)) {
      let j = i;
      while (isIdentChar(sql[j])) j++;
      push('word', sql.slice(i, j), i, j);
      i = j;
      continue;
    }
    if (ch === '@') {
      const system = sql[i + 1] === '@';
      let j = i + (system ? 2 : 1);
      if (sql[j] === '`' || sql[j] === "'" || sql[j] === '"') {
        const q = sql[j]!;
        const close = sql.indexOf(q, j + 1);
        if (close < 0) return { kind: 'lex-error', at: i, message: 'unterminated variable name' };
        push('variable', sql.slice(j + 1, close), i, close + 1, { system });
        i = close + 1;
        continue;
      }
      while (isIdentChar(sql[j]) || sql[j] === '.') j++;
      push('variable', sql.slice(i + (system ? 2 : 1), j), i, j, { system });
      i = j;
      continue;
    }
    if (ch === '?') {
      push('param', '?', i, i + 1);
      i++;
      continue;
    }
    const op = OPERATORS.find((o) => sql.startsWith(o, i));
    if (op) {
      push('op', op, i, i + op.length);
      i += op.length;
      continue;
    }
    return { kind: 'lex-error', at: i, message: `unexpected character ${JSON.stringify(ch)}` };
  }
  push('eof', '', sql.length, sql.length);
  return tokens;
}
