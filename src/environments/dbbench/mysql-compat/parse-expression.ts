import type { CastTarget, Expr, OrderItem, Query, Span, WindowSpec } from './ast.js';
import { RESERVED_WORDS, SqlSyntaxError, TokenCursor } from './token-cursor.js';

/** Reserved words that still work as function names when followed by `(`. */
const RESERVED_FUNCTIONS = new Set([
  'IF', 'LEFT', 'RIGHT', 'REPLACE', 'REPEAT', 'INSERT', 'MOD', 'CHAR', 'DATABASE', 'SCHEMA', 'VALUES', 'DEFAULT',
  'CURRENT_DATE', 'CURRENT_TIME', 'CURRENT_TIMESTAMP', 'CURRENT_USER', 'LOCALTIME', 'LOCALTIMESTAMP', 'UTC_DATE',
  'UTC_TIME', 'UTC_TIMESTAMP', 'ROW_NUMBER', 'RANK', 'DENSE_RANK', 'CUME_DIST', 'PERCENT_RANK', 'NTILE', 'LAG', 'LEAD',
  'FIRST_VALUE', 'LAST_VALUE', 'NTH_VALUE', 'GROUPING', 'INTERVAL',
]);

/** Functions that MySQL only recognises with no space before `(` (the IGNORE_SPACE list). */
const NO_SPACE_FUNCTIONS = new Set([
  'ADDDATE', 'BIT_AND', 'BIT_OR', 'BIT_XOR', 'CAST', 'COUNT', 'CURDATE', 'CURTIME', 'DATE_ADD', 'DATE_SUB', 'EXTRACT',
  'GROUP_CONCAT', 'MAX', 'MID', 'MIN', 'NOW', 'POSITION', 'SESSION_USER', 'STD', 'STDDEV', 'STDDEV_POP', 'STDDEV_SAMP',
  'SUBDATE', 'SUBSTR', 'SUBSTRING', 'SUM', 'SYSDATE', 'SYSTEM_USER', 'TRIM', 'VARIANCE', 'VAR_POP', 'VAR_SAMP',
]);

/** Keyword-valued "functions" usable without parentheses. */
const NILADIC = new Set(['CURRENT_DATE', 'CURRENT_TIME', 'CURRENT_TIMESTAMP', 'CURRENT_USER', 'LOCALTIME', 'LOCALTIMESTAMP', 'UTC_DATE', 'UTC_TIME', 'UTC_TIMESTAMP']);

export const INTERVAL_UNITS = new Set([
  'MICROSECOND', 'SECOND', 'MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR', 'SECOND_MICROSECOND',
  'MINUTE_MICROSECOND', 'MINUTE_SECOND', 'HOUR_MICROSECOND', 'HOUR_SECOND', 'HOUR_MINUTE', 'DAY_MICROSECOND',
  'DAY_SECOND', 'DAY_MINUTE', 'DAY_HOUR', 'YEAR_MONTH',
]);

const COMPARISON_OPS = ['=', '<=>', '>=', '>', '<=', '<', '<>', '!='];

const CAST_TYPES = new Set(['SIGNED', 'UNSIGNED', 'DECIMAL', 'CHAR', 'BINARY', 'DATE', 'DATETIME', 'TIME', 'DOUBLE', 'FLOAT', 'JSON', 'YEAR']);

/**
 * Expression grammar of MySQL 8 (precedence from lowest: OR/||, XOR, AND/&&, NOT, comparison/IS,
 * BETWEEN/IN/LIKE/REGEXP, |, &, shifts, + -, * / DIV % MOD, ^, unary - ~ ! BINARY, COLLATE).
 */
export abstract class ExpressionParser extends TokenCursor {
  /** Parses a query (SELECT/WITH/parenthesised) at the cursor; provided by the statement parser. */
  protected abstract parseQuery(): Query;

  protected startsQuery(offset = 0): boolean {
    return this.isWordAt(offset, 'SELECT', 'WITH') || (this.peek(offset).kind === 'op' && this.peek(offset).value === '(' && this.startsQuery(offset + 1));
  }

  parseExpr(): Expr {
    let left = this.parseXor();
    for (;;) {
      const start = left.span.start;
      if (this.acceptWord('OR') || this.acceptOp('||')) {
        const right = this.parseXor();
        left = { kind: 'binary', op: 'OR', left, right, span: this.spanFrom(start) };
      } else return left;
    }
  }

  private parseXor(): Expr {
    let left = this.parseAnd();
    while (this.acceptWord('XOR')) {
      const right = this.parseAnd();
      left = { kind: 'binary', op: 'XOR', left, right, span: this.spanFrom(left.span.start) };
    }
    return left;
  }

  private parseAnd(): Expr {
    let left = this.parseNot();
    while (this.acceptWord('AND') || this.acceptOp('&&')) {
      const right = this.parseNot();
      left = { kind: 'binary', op: 'AND', left, right, span: this.spanFrom(left.span.start) };
    }
    return left;
  }

  private parseNot(): Expr {
    if (this.isWord('NOT')) {
      const start = this.next().start;
      const expr = this.parseNot();
      return { kind: 'unary', op: 'NOT', expr, span: this.spanFrom(start) };
    }
    return this.parseBooleanPrimary();
  }

  private parseBooleanPrimary(): Expr {
    let left = this.parsePredicate();
    for (;;) {
      const start = left.span.start;
      if (this.isWord('IS')) {
        this.next();
        const not = this.acceptWord('NOT');
        const what = this.peek();
        if (what.kind !== 'word' || !['NULL', 'TRUE', 'FALSE', 'UNKNOWN'].includes(what.upper)) throw this.error('expected NULL, TRUE, FALSE or UNKNOWN');
        this.next();
        left = { kind: 'is', expr: left, not, what: what.upper as 'NULL', span: this.spanFrom(start) };
        continue;
      }
      if (this.isOp(...COMPARISON_OPS)) {
        const op = this.next().value;
        if (this.isWord('ANY', 'SOME', 'ALL') && this.peek(1).kind === 'op' && this.peek(1).value === '(' && this.startsQuery(2)) {
          const quantifier = this.next().upper === 'ALL' ? 'ALL' : 'ANY';
          this.expectOp('(');
          const query = this.parseQuery();
          this.expectOp(')');
          left = { kind: 'quantified', op, expr: left, quantifier, query, span: this.spanFrom(start) };
          continue;
        }
        const right = this.parsePredicate();
        left = { kind: 'binary', op: op === '!=' ? '<>' : op, left, right, span: this.spanFrom(start) };
        continue;
      }
      return left;
    }
  }

  private parsePredicate(): Expr {
    const left = this.parseBitOr();
    const start = left.span.start;
    let not = false;
    if (this.isWord('NOT') && this.isWordAt(1, 'IN', 'BETWEEN', 'LIKE', 'REGEXP', 'RLIKE')) {
      this.next();
      not = true;
    }
    if (this.acceptWord('IN')) {
      this.expectOp('(');
      if (this.startsQuery()) {
        const query = this.parseQuery();
        this.expectOp(')');
        return { kind: 'in-query', expr: left, query, not, span: this.spanFrom(start) };
      }
      const list = [this.parseExpr()];
      while (this.acceptOp(',')) list.push(this.parseExpr());
      this.expectOp(')');
      return { kind: 'in-list', expr: left, list, not, span: this.spanFrom(start) };
    }
    if (this.acceptWord('BETWEEN')) {
      const low = this.parseBitOr();
      this.expectWord('AND');
      const high = this.parsePredicate();
      return { kind: 'between', expr: left, low, high, not, span: this.spanFrom(start) };
    }
    if (this.acceptWord('LIKE')) {
      const pattern = this.parseBitOr();
      const escape = this.acceptWord('ESCAPE') ? this.parseBitOr() : undefined;
      return { kind: 'like', expr: left, pattern, ...(escape ? { escape } : {}), not, span: this.spanFrom(start) };
    }
    if (this.acceptWord('REGEXP', 'RLIKE')) {
      const pattern = this.parseBitOr();
      return { kind: 'regexp', expr: left, pattern, not, span: this.spanFrom(start) };
    }
    if (not) throw this.error('expected IN, BETWEEN, LIKE or REGEXP');
    if (this.isWord('SOUNDS') || this.isWord('MEMBER')) throw this.unsupported(`${this.peek().upper} is not supported`);
    return left;
  }

  private binaryLevel(next: () => Expr, ops: string[], words: string[] = []): Expr {
    let left = next();
    for (;;) {
      let op: string | null = null;
      if (this.isOp(...ops)) op = this.next().value;
      else if (words.length > 0 && this.isWord(...words)) op = this.next().upper;
      if (op === null) return left;
      const right = next();
      left = { kind: 'binary', op: op === 'MOD' ? '%' : op, left, right, span: this.spanFrom(left.span.start) };
    }
  }

  private parseBitOr(): Expr {
    return this.binaryLevel(() => this.parseBitAnd(), ['|']);
  }

  private parseBitAnd(): Expr {
    return this.binaryLevel(() => this.parseShift(), ['&']);
  }

  private parseShift(): Expr {
    return this.binaryLevel(() => this.parseAdditive(), ['<<', '>>']);
  }

  private parseAdditive(): Expr {
    return this.binaryLevel(() => this.parseMultiplicative(), ['+', '-']);
  }

  private parseMultiplicative(): Expr {
    return this.binaryLevel(() => this.parseBitXor(), ['*', '/', '%'], ['DIV', 'MOD']);
  }

  private parseBitXor(): Expr {
    return this.binaryLevel(() => this.parseUnary(), ['^']);
  }

  private parseUnary(): Expr {
    const t = this.peek();
    if (t.kind === 'op' && ['-', '+', '~', '!'].includes(t.value)) {
      this.next();
      const expr = this.parseUnary();
      return { kind: 'unary', op: t.value as '-', expr, span: this.spanFrom(t.start) };
    }
    if (t.kind === 'word' && t.upper === 'BINARY' && !(this.peek(1).kind === 'op' && this.peek(1).value === '(' && this.peek(1).start === t.end)) {
      this.next();
      const expr = this.parseUnary();
      return { kind: 'unary', op: 'BINARY', expr, span: this.spanFrom(t.start) };
    }
    let expr = this.parsePrimary();
    while (this.acceptWord('COLLATE')) {
      const c = this.next();
      if (!['word', 'quoted', 'string'].includes(c.kind)) throw this.error('expected a collation name');
      expr = { kind: 'collate', expr, collation: c.value.toLowerCase(), span: this.spanFrom(expr.span.start) };
    }
    return expr;
  }

  private parsePrimary(): Expr {
    const t = this.peek();
    const start = t.start;
    switch (t.kind) {
      case 'number': {
        this.next();
        const type = t.numberKind === 'float' ? 'float' : t.numberKind === 'decimal' ? 'decimal' : 'int';
        return { kind: 'literal', type, value: t.value, span: this.spanFrom(start) };
      }
      case 'string': {
        let value = '';
        while (this.peek().kind === 'string') value += this.next().value;
        return { kind: 'literal', type: 'string', value, span: this.spanFrom(start) };
      }
      case 'hexstring':
        this.next();
        return { kind: 'literal', type: 'hex', value: t.value, span: this.spanFrom(start) };
      case 'variable':
        this.next();
        if (this.isOp(':=')) throw this.unsupported('variable assignment inside expressions is not supported');
        return { kind: 'variable', name: t.value, system: t.system === true, span: this.spanFrom(start) };
      case 'param':
        throw this.unsupported('placeholders are not supported');
      case 'op':
        if (t.value === '(') return this.parseParenthesised();
        throw this.error(`unexpected '${t.value}'`);
      case 'quoted':
        return this.parseColumnRef();
      case 'word':
        return this.parseWordPrimary();
      case 'eof':
        throw this.error('unexpected end of statement');
    }
  }

  private parseParenthesised(): Expr {
    const start = this.next().start;
    if (this.startsQuery()) {
      const query = this.parseQuery();
      this.expectOp(')');
      return { kind: 'subquery', query, span: this.spanFrom(start) };
    }
    const items = [this.parseExpr()];
    while (this.acceptOp(',')) items.push(this.parseExpr());
    this.expectOp(')');
    if (items.length === 1) return items[0]!;
    return { kind: 'row', items, span: this.spanFrom(start) };
  }

  private parseWordPrimary(): Expr {
    const t = this.peek();
    const start = t.start;
    const u = t.upper;
    const next = this.peek(1);
    const callFollows = next.kind === 'op' && next.value === '(';
    if (u === 'NULL') {
      this.next();
      return { kind: 'literal', type: 'null', value: 'NULL', span: this.spanFrom(start) };
    }
    if (u === 'TRUE' || u === 'FALSE') {
      this.next();
      return { kind: 'literal', type: 'bool', value: u === 'TRUE' ? '1' : '0', span: this.spanFrom(start) };
    }
    if (u === 'EXISTS' && callFollows) {
      this.next();
      this.expectOp('(');
      const query = this.parseQuery();
      this.expectOp(')');
      return { kind: 'exists', query, span: this.spanFrom(start) };
    }
    if (u === 'CASE') return this.parseCase();
    if ((u === 'CAST' || u === 'CONVERT') && callFollows) return this.parseCast(u);
    if (u === 'INTERVAL' && !callFollows) {
      this.next();
      const expr = this.parseExpr();
      const unit = this.peek();
      if (unit.kind !== 'word' || !INTERVAL_UNITS.has(unit.upper)) throw this.error('expected an interval unit');
      this.next();
      return { kind: 'interval', expr, unit: unit.upper, span: this.spanFrom(start) };
    }
    if ((u === 'DATE' || u === 'TIME' || u === 'TIMESTAMP') && next.kind === 'string') {
      this.next();
      const value = this.next().value;
      const lit: Expr = { kind: 'literal', type: 'string', value, span: this.spanFrom(start) };
      return { kind: 'cast', expr: lit, target: { type: u === 'TIMESTAMP' ? 'DATETIME' : u }, span: this.spanFrom(start) };
    }
    if (u === 'DEFAULT' && !callFollows) {
      this.next();
      return { kind: 'default', span: this.spanFrom(start) };
    }
    if (u === 'ROW' && callFollows) {
      this.next();
      return this.parseParenthesised();
    }
    if (u === 'MATCH') throw this.unsupported('MATCH … AGAINST is not supported');
    if (NILADIC.has(u) && !callFollows) {
      this.next();
      return { kind: 'call', name: u, args: [], distinct: false, star: false, span: this.spanFrom(start) };
    }
    if (callFollows && !(this.peek(2).kind === 'op' && this.peek(2).value === '.')) {
      if (RESERVED_WORDS.has(u) && !RESERVED_FUNCTIONS.has(u)) throw this.error(`reserved word ${u}`, true);
      if (NO_SPACE_FUNCTIONS.has(u) && next.start !== t.end) {
        // With a space MySQL reads the name as a stored-function call: `COUNT (*)` is a syntax error,
        // `SUM (x)` an unknown function.
        if (this.peek(2).kind === 'op' && this.peek(2).value === '*') {
          this.next();
          this.next();
          throw this.error(`${u} followed by a space is not a built-in function call`, true);
        }
        const call = this.parseCall();
        return call.kind === 'call' ? { ...call, written: t.value, storedFunction: true } : call;
      }
      const call = this.parseCall();
      return call.kind === 'call' ? { ...call, written: t.value } : call;
    }
    return this.parseColumnRef();
  }

  private parseColumnRef(): Expr {
    const start = this.peek().start;
    const parts = [this.parseName('column name').name];
    while (this.isOp('.') && parts.length < 3) {
      this.next();
      if (this.isOp('*')) {
        this.next();
        return { kind: 'star', table: parts[parts.length - 1]!, span: this.spanFrom(start) };
      }
      const t = this.peek();
      // After a qualifier any word is a name, reserved or not.
      if (t.kind === 'word' || t.kind === 'quoted') {
        this.next();
        parts.push(t.value);
      } else throw this.error('expected a column name');
    }
    const name = parts[parts.length - 1]!;
    const table = parts.length >= 2 ? parts[parts.length - 2] : undefined;
    return { kind: 'column', ...(table !== undefined ? { table } : {}), name, span: this.spanFrom(start) };
  }

  private parseCase(): Expr {
    const start = this.next().start;
    const operand = this.isWord('WHEN') ? undefined : this.parseExpr();
    const whens: { when: Expr; then: Expr }[] = [];
    while (this.acceptWord('WHEN')) {
      const when = this.parseExpr();
      this.expectWord('THEN');
      whens.push({ when, then: this.parseExpr() });
    }
    if (whens.length === 0) throw this.error('expected WHEN');
    const elseExpr = this.acceptWord('ELSE') ? this.parseExpr() : undefined;
    this.expectWord('END');
    return { kind: 'case', ...(operand ? { operand } : {}), whens, ...(elseExpr ? { else: elseExpr } : {}), span: this.spanFrom(start) };
  }

  protected parseCastTarget(): CastTarget {
    const t = this.peek();
    if (t.kind !== 'word') throw this.error('expected a type');
    this.next();
    // MySQL 8 accepts exactly these names; CAST(x AS INT), AS VARCHAR or AS TEXT are syntax errors there.
    let type = t.upper;
    if (type === 'SIGNED' || type === 'UNSIGNED') this.acceptWord('INTEGER', 'INT');
    if (type === 'NCHAR') type = 'CHAR';
    if (type === 'REAL') type = 'DOUBLE';
    if (type === 'DOUBLE') this.acceptWord('PRECISION');
    const target: CastTarget = { type };
    if (this.acceptOp('(')) {
      const p = this.next();
      if (p.kind !== 'number') throw this.error('expected a number');
      target.precision = Number(p.value);
      if (this.acceptOp(',')) {
        const s = this.next();
        if (s.kind !== 'number') throw this.error('expected a number');
        target.scale = Number(s.value);
      }
      this.expectOp(')');
    }
    // CHARACTER SET x / charset names after CHAR are accepted and ignored.
    if (this.acceptWord('CHARACTER', 'CHARSET')) {
      this.acceptWord('SET');
      this.next();
    }
    this.acceptWord('ARRAY');
    if (!CAST_TYPES.has(type)) throw new SqlSyntaxError(t.start, `unknown cast type ${type}`, true);
    return target;
  }

  private parseCast(u: string): Expr {
    const start = this.next().start;
    this.expectOp('(');
    const expr = this.parseExpr();
    if (u === 'CONVERT' && this.acceptWord('USING')) {
      this.next();
      this.expectOp(')');
      return { kind: 'cast', expr, target: { type: 'CHAR' }, span: this.spanFrom(start) };
    }
    if (u === 'CAST') this.expectWord('AS');
    else this.expectOp(',');
    const target = this.parseCastTarget();
    this.expectOp(')');
    return { kind: 'cast', expr, target, span: this.spanFrom(start) };
  }

  private parseCall(): Expr {
    const nameToken = this.next();
    const start = nameToken.start;
    const name = nameToken.upper;
    this.expectOp('(');
    const args: Expr[] = [];
    let distinct = false;
    let star = false;
    let orderBy: OrderItem[] | undefined;
    let separator: string | undefined;
    const literal = (value: string, at: Span): Expr => ({ kind: 'literal', type: 'string', value, span: at });
    if (name === 'TRIM') {
      let mode = 'BOTH';
      if (this.isWord('BOTH', 'LEADING', 'TRAILING')) mode = this.next().upper;
      let remove: Expr | undefined;
      let subject: Expr;
      if (this.acceptWord('FROM')) subject = this.parseExpr();
      else {
        const first = this.parseExpr();
        if (this.acceptWord('FROM')) {
          remove = first;
          subject = this.parseExpr();
        } else subject = first;
      }
      this.expectOp(')');
      const span = this.spanFrom(start);
      return { kind: 'call', name: 'TRIM', args: [subject, literal(mode, span), ...(remove ? [remove] : [])], distinct, star, span };
    }
    if ((name === 'SUBSTRING' || name === 'SUBSTR') && !this.isOp(')')) {
      args.push(this.parseExpr());
      if (this.acceptWord('FROM')) {
        args.push(this.parseExpr());
        if (this.acceptWord('FOR')) args.push(this.parseExpr());
        this.expectOp(')');
        return { kind: 'call', name: 'SUBSTRING', args, distinct, star, span: this.spanFrom(start) };
      }
      while (this.acceptOp(',')) args.push(this.parseExpr());
      this.expectOp(')');
      return { kind: 'call', name: 'SUBSTRING', args, distinct, star, span: this.spanFrom(start) };
    }
    if (name === 'POSITION') {
      const needle = this.parseBitOr();
      this.expectWord('IN');
      const hay = this.parseExpr();
      this.expectOp(')');
      return { kind: 'call', name: 'LOCATE', args: [needle, hay], distinct, star, span: this.spanFrom(start) };
    }
    if (name === 'EXTRACT') {
      const unit = this.next();
      if (unit.kind !== 'word' || !INTERVAL_UNITS.has(unit.upper)) throw this.error('expected a unit');
      this.expectWord('FROM');
      const from = this.parseExpr();
      this.expectOp(')');
      const span = this.spanFrom(start);
      return { kind: 'call', name: 'EXTRACT', args: [literal(unit.upper, span), from], distinct, star, span };
    }
    if (name === 'TIMESTAMPDIFF' || name === 'TIMESTAMPADD') {
      const unit = this.next();
      if (unit.kind !== 'word' || !INTERVAL_UNITS.has(unit.upper)) throw this.error('expected a unit');
      this.expectOp(',');
      const a = this.parseExpr();
      this.expectOp(',');
      const b = this.parseExpr();
      this.expectOp(')');
      const span = this.spanFrom(start);
      return { kind: 'call', name, args: [literal(unit.upper, span), a, b], distinct, star, span };
    }
    if (this.acceptOp(')')) return this.finishCall(name, args, distinct, star, start, orderBy, separator);
    if (this.acceptWord('DISTINCT', 'DISTINCTROW')) distinct = true;
    else this.acceptWord('ALL');
    if (this.isOp('*') && this.peek(1).kind === 'op' && this.peek(1).value === ')') {
      this.next();
      star = true;
    } else {
      args.push(this.parseExpr());
      while (this.acceptOp(',')) args.push(this.parseExpr());
    }
    if (name === 'GROUP_CONCAT') {
      if (this.acceptWord('ORDER')) {
        this.expectWord('BY');
        orderBy = this.parseOrderList();
      }
      if (this.acceptWord('SEPARATOR')) {
        const s = this.next();
        if (s.kind !== 'string') throw this.error('expected a string');
        separator = s.value;
      }
    }
    this.expectOp(')');
    return this.finishCall(name, args, distinct, star, start, orderBy, separator);
  }

  private finishCall(name: string, args: Expr[], distinct: boolean, star: boolean, start: number, orderBy?: OrderItem[], separator?: string): Expr {
    let over: WindowSpec | string | undefined;
    if (this.acceptWord('OVER')) {
      if (this.isName()) over = this.parseName('window name').name;
      else over = this.parseWindowSpec();
    }
    return {
      kind: 'call',
      name,
      args,
      distinct,
      star,
      ...(orderBy ? { orderBy } : {}),
      ...(separator !== undefined ? { separator } : {}),
      ...(over !== undefined ? { over } : {}),
      span: this.spanFrom(start),
    };
  }

  protected parseWindowSpec(): WindowSpec {
    this.expectOp('(');
    const spec: WindowSpec = { partitionBy: [], orderBy: [] };
    if (this.isName() && !this.isWord('PARTITION', 'ORDER', 'ROWS', 'RANGE', 'GROUPS')) spec.name = this.parseName('window name').name;
    if (this.acceptWord('PARTITION')) {
      this.expectWord('BY');
      spec.partitionBy.push(this.parseExpr());
      while (this.acceptOp(',')) spec.partitionBy.push(this.parseExpr());
    }
    if (this.acceptWord('ORDER')) {
      this.expectWord('BY');
      spec.orderBy = this.parseOrderList();
    }
    if (this.isWord('ROWS', 'RANGE', 'GROUPS')) {
      const from = this.peek().start;
      let depth = 0;
      while (!this.atEnd() && !(depth === 0 && this.isOp(')'))) {
        if (this.isOp('(')) depth++;
        if (this.isOp(')')) depth--;
        this.next();
      }
      spec.frame = this.sql.slice(from, this.peek().start).trim();
    }
    this.expectOp(')');
    return spec;
  }

  protected parseOrderList(): OrderItem[] {
    const items: OrderItem[] = [];
    do {
      const expr = this.parseExpr();
      let desc = false;
      if (this.acceptWord('DESC')) desc = true;
      else this.acceptWord('ASC');
      items.push({ expr, desc });
    } while (this.acceptOp(','));
    return items;
  }
}
