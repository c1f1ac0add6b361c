import type { Assignment, Cte, Expr, Limit, OrderItem, Query, SelectCore, SelectItem, SetBody, Span, Statement, TableRef, WindowSpec } from './ast.js';
import { ExpressionParser } from './parse-expression.js';
import { RESERVED_WORDS, SqlSyntaxError, UnsupportedSyntax } from './token-cursor.js';
import type { Token } from './tokenize.js';

/** What parsing one agent statement gave. */
export type ParseResult =
  | { kind: 'statement'; statement: Statement }
  /** DDL and other statements passed to SQLite after token-level rewriting only. */
  | { kind: 'ddl'; verb: string }
  | { kind: 'syntax-error'; at: number; certain: boolean; message: string }
  | { kind: 'unsupported'; at: number; message: string };

class StatementParser extends ExpressionParser {
  parseStatement(): Statement | { ddl: string } {
    const t = this.peek();
    if (t.kind === 'op' && t.value === '(') return this.finish({ kind: 'query', query: this.parseQuery() });
    if (t.kind !== 'word') throw this.error('expected a statement', true);
    switch (t.upper) {
      case 'SELECT':
      case 'WITH':
        return this.finish({ kind: 'query', query: this.parseQuery() });
      case 'INSERT':
      case 'REPLACE':
        return this.finish(this.parseInsert());
      case 'UPDATE':
        return this.finish(this.parseUpdate());
      case 'DELETE':
        return this.finish(this.parseDelete());
      case 'SHOW':
        return this.finish(this.parseShow());
      case 'DESCRIBE':
      case 'DESC':
      case 'EXPLAIN':
        return this.finish(this.parseDescribe());
      case 'USE': {
        this.next();
        return this.finish({ kind: 'use', database: this.parseName('database name').name });
      }
      case 'SET':
        return this.finish(this.parseSet());
      case 'BEGIN':
      case 'COMMIT':
      case 'ROLLBACK':
      case 'START': {
        this.next();
        while (!this.atEnd() && !this.isOp(';')) this.next();
        return this.finish({ kind: 'transaction', verb: t.upper });
      }
      case 'CREATE':
      case 'DROP':
      case 'ALTER':
      case 'TRUNCATE':
      case 'RENAME':
        return { ddl: t.upper };
      default:
        throw this.error(`unknown statement ${t.upper}`, true);
    }
  }

  /** A statement must be followed by at most one `;`; a second statement is rejected as MySQL does. */
  private finish(statement: Statement): Statement {
    this.acceptOp(';');
    if (!this.atEnd()) throw this.error('unexpected text after the statement (only one statement per call)', true);
    return statement;
  }

  // ---------------------------------------------------------------------------------------------
  // Queries

  protected parseQuery(): Query {
    const start = this.peek().start;
    let withClause: Query['with'];
    if (this.acceptWord('WITH')) {
      const recursive = this.acceptWord('RECURSIVE');
      const ctes: Cte[] = [];
      do {
        const name = this.parseName('CTE name').name;
        let columns: string[] | undefined;
        if (this.acceptOp('(')) {
          columns = [this.parseName('column name').name];
          while (this.acceptOp(',')) columns.push(this.parseName('column name').name);
          this.expectOp(')');
        }
        this.expectWord('AS');
        this.expectOp('(');
        const query = this.parseQuery();
        this.expectOp(')');
        ctes.push({ name, ...(columns ? { columns } : {}), query });
      } while (this.acceptOp(','));
      withClause = { recursive, ctes };
    }
    let body = this.parseSetBody();
    const orderBy = this.acceptOrderBy();
    const limit = this.acceptLimit();
    this.skipLockingClause();
    if (body.kind === 'select' && !body.limit && body.orderBy.length === 0) {
      body = { ...body, orderBy, ...(limit ? { limit } : {}) };
      return { ...(withClause ? { with: withClause } : {}), body, orderBy: [], span: this.spanFrom(start) };
    }
    return { ...(withClause ? { with: withClause } : {}), body, orderBy, ...(limit ? { limit } : {}), span: this.spanFrom(start) };
  }

  private skipLockingClause(): void {
    if (this.isWord('FOR') && this.isWordAt(1, 'UPDATE', 'SHARE')) {
      this.next();
      this.next();
      if (this.acceptWord('OF')) {
        this.parseName();
        while (this.acceptOp(',')) this.parseName();
      }
      this.acceptWord('NOWAIT');
      if (this.acceptWord('SKIP')) this.expectWord('LOCKED');
    } else if (this.isWord('LOCK') && this.isWordAt(1, 'IN')) {
      this.next();
      this.next();
      this.expectWord('SHARE');
      this.expectWord('MODE');
    }
  }

  private parseSetBody(): SetBody {
    let left = this.parseIntersectTerm();
    while (this.isWord('UNION', 'EXCEPT')) {
      const op = this.next().upper;
      const all = this.acceptWord('ALL');
      if (!all) this.acceptWord('DISTINCT');
      const right = this.parseIntersectTerm();
      left = { kind: 'compound', op: `${op}${all ? ' ALL' : ''}` as 'UNION', left, right };
    }
    return left;
  }

  private parseIntersectTerm(): SetBody {
    let left = this.parseSetTerm();
    while (this.isWord('INTERSECT')) {
      this.next();
      const all = this.acceptWord('ALL');
      if (!all) this.acceptWord('DISTINCT');
      const right = this.parseSetTerm();
      left = { kind: 'compound', op: all ? 'INTERSECT ALL' : 'INTERSECT', left, right };
    }
    return left;
  }

  private parseSetTerm(): SetBody {
    if (this.isOp('(')) {
      this.next();
      const query = this.parseQuery();
      this.expectOp(')');
      return { kind: 'paren', query };
    }
    if (this.isWord('VALUES', 'TABLE')) throw this.unsupported(`${this.peek().upper} statements are not supported`);
    return this.parseSelectCore();
  }

  private parseSelectCore(): SelectCore {
    const start = this.expectWord('SELECT').start;
    let distinct = false;
    for (;;) {
      if (this.acceptWord('DISTINCT', 'DISTINCTROW')) distinct = true;
      else if (!this.acceptWord('ALL', 'HIGH_PRIORITY', 'STRAIGHT_JOIN', 'SQL_SMALL_RESULT', 'SQL_BIG_RESULT', 'SQL_BUFFER_RESULT', 'SQL_NO_CACHE', 'SQL_CACHE', 'SQL_CALC_FOUND_ROWS')) break;
    }
    const items = [this.parseSelectItem()];
    while (this.acceptOp(',')) items.push(this.parseSelectItem());
    if (this.isWord('INTO')) throw this.unsupported('SELECT … INTO is not supported');
    let from: TableRef[] = [];
    if (this.acceptWord('FROM')) {
      if (this.acceptWord('DUAL')) from = [];
      else from = this.parseTableRefs();
    }
    const where = this.acceptWord('WHERE') ? this.parseExpr() : undefined;
    const groupBy: Expr[] = [];
    let rollup = false;
    if (this.acceptWord('GROUP')) {
      this.expectWord('BY');
      do groupBy.push(this.parseExpr());
      while (this.acceptOp(','));
      if (this.isWord('WITH') && this.isWordAt(1, 'ROLLUP')) {
        this.next();
        this.next();
        rollup = true;
      }
    }
    const having = this.acceptWord('HAVING') ? this.parseExpr() : undefined;
    const windows: { name: string; spec: WindowSpec }[] = [];
    if (this.acceptWord('WINDOW')) {
      do {
        const name = this.parseName('window name').name;
        this.expectWord('AS');
        windows.push({ name, spec: this.parseWindowSpec() });
      } while (this.acceptOp(','));
    }
    return {
      kind: 'select',
      distinct,
      items,
      from,
      ...(where ? { where } : {}),
      groupBy,
      rollup,
      ...(having ? { having } : {}),
      windows,
      orderBy: [],
      span: this.spanFrom(start),
    };
  }

  private parseSelectItem(): SelectItem {
    if (this.isOp('*')) {
      const t = this.next();
      return { expr: { kind: 'star', span: { start: t.start, end: t.end } }, text: '*' };
    }
    const expr = this.parseExpr();
    const text = this.textOf(expr.span);
    let alias: string | undefined;
    if (this.acceptWord('AS')) alias = this.parseAlias(true);
    else if (this.isName() || this.peek().kind === 'string') alias = this.parseAlias(false);
    return { expr, ...(alias !== undefined ? { alias } : {}), text };
  }

  private parseAlias(afterAs: boolean): string {
    const t = this.peek();
    if (t.kind === 'string') {
      this.next();
      return t.value;
    }
    if (!afterAs && t.kind === 'word' && RESERVED_WORDS.has(t.upper)) throw this.error('expected an alias');
    return this.parseName('alias').name;
  }

  private acceptOrderBy(): OrderItem[] {
    if (!this.isWord('ORDER')) return [];
    this.next();
    this.expectWord('BY');
    return this.parseOrderList();
  }

  private parseLimitValue(): Expr {
    const t = this.peek();
    if (t.kind !== 'number' || t.numberKind !== 'int') throw this.error('LIMIT takes integer literals', true);
    this.next();
    return { kind: 'literal', type: 'int', value: t.value, span: { start: t.start, end: t.end } };
  }

  private acceptLimit(): Limit | undefined {
    if (!this.acceptWord('LIMIT')) return undefined;
    const first = this.parseLimitValue();
    if (this.acceptOp(',')) return { count: this.parseLimitValue(), offset: first };
    if (this.acceptWord('OFFSET')) return { count: first, offset: this.parseLimitValue() };
    return { count: first };
  }

  // ---------------------------------------------------------------------------------------------
  // FROM

  private parseTableRefs(): TableRef[] {
    const refs = [this.parseJoinedTable()];
    while (this.acceptOp(',')) refs.push(this.parseJoinedTable());
    return refs;
  }

  private parseJoinedTable(): TableRef {
    let left = this.parseTableFactor();
    for (;;) {
      const start = this.peek().start;
      let joinType: 'INNER' | 'LEFT' | 'RIGHT' | 'CROSS' | 'STRAIGHT' | null = null;
      let natural = false;
      if (this.acceptWord('NATURAL')) {
        natural = true;
        joinType = 'INNER';
        if (this.isWord('LEFT', 'RIGHT')) {
          joinType = this.next().upper as 'LEFT' | 'RIGHT';
          this.acceptWord('OUTER');
        } else this.acceptWord('INNER');
        this.expectWord('JOIN');
      } else if (this.isWord('JOIN')) {
        this.next();
        joinType = 'INNER';
      } else if (this.isWord('INNER', 'CROSS') && this.isWordAt(1, 'JOIN')) {
        joinType = this.next().upper as 'INNER' | 'CROSS';
        this.next();
      } else if (this.isWord('STRAIGHT_JOIN')) {
        this.next();
        joinType = 'STRAIGHT';
      } else if (this.isWord('LEFT', 'RIGHT')) {
        joinType = this.next().upper as 'LEFT' | 'RIGHT';
        this.acceptWord('OUTER');
        this.expectWord('JOIN');
      }
      if (joinType === null) return left;
      const right = this.parseTableFactor();
      let on: Expr | undefined;
      let using: string[] | undefined;
      if (!natural) {
        if (this.acceptWord('ON')) on = this.parseExpr();
        else if (this.acceptWord('USING')) {
          this.expectOp('(');
          using = [this.parseName('column name').name];
          while (this.acceptOp(',')) using.push(this.parseName('column name').name);
          this.expectOp(')');
        } else if (joinType === 'LEFT' || joinType === 'RIGHT') throw this.error('expected ON or USING');
      }
      left = {
        kind: 'join',
        joinType,
        natural,
        left,
        right,
        ...(on ? { on } : {}),
        ...(using ? { using } : {}),
        span: { start: Math.min(start, left.span.start), end: this.spanFrom(start).end },
      };
    }
  }

  private parseTableFactor(): TableRef {
    const start = this.peek().start;
    if (this.isOp('(')) {
      if (this.startsQuery(1)) {
        this.next();
        const query = this.parseQuery();
        this.expectOp(')');
        const alias = this.parseTableAlias();
        if (this.isOp('(')) throw this.unsupported('derived table column lists are not supported');
        return { kind: 'derived', query, ...(alias !== undefined ? { alias } : {}), span: this.spanFrom(start) };
      }
      this.next();
      const refs = this.parseTableRefs();
      this.expectOp(')');
      if (refs.length !== 1) throw this.unsupported('parenthesised comma joins are not supported');
      return refs[0]!;
    }
    if (this.isWord('LATERAL')) throw this.unsupported('LATERAL derived tables are not supported');
    const first = this.parseName('table name');
    let name = first.name;
    let schema: string | undefined;
    if (this.isOp('.')) {
      this.next();
      schema = name;
      const t = this.next();
      if (t.kind !== 'word' && t.kind !== 'quoted') throw this.error('expected a table name');
      name = t.value;
    }
    const nameSpan = this.spanFrom(first.span.start);
    if (this.isWord('PARTITION')) throw this.unsupported('PARTITION selection is not supported');
    const alias = this.parseTableAlias();
    this.skipIndexHints();
    return { kind: 'table', name, ...(schema !== undefined ? { schema } : {}), ...(alias !== undefined ? { alias } : {}), span: nameSpan };
  }

  private parseTableAlias(): string | undefined {
    if (this.acceptWord('AS')) return this.parseAlias(true);
    if (this.isName() && !this.isWord('NATURAL', 'STRAIGHT_JOIN', 'USE', 'IGNORE', 'FORCE', 'INNER', 'CROSS', 'LEFT', 'RIGHT', 'JOIN')) {
      return this.parseName('alias').name;
    }
    if (this.peek().kind === 'string') return this.next().value;
    return undefined;
  }

  private skipIndexHints(): void {
    while (this.isWord('USE', 'IGNORE', 'FORCE') && this.isWordAt(1, 'INDEX', 'KEY')) {
      this.next();
      this.next();
      if (this.acceptWord('FOR')) {
        if (this.acceptWord('ORDER', 'GROUP')) this.expectWord('BY');
        else this.expectWord('JOIN');
      }
      this.expectOp('(');
      while (!this.atEnd() && !this.isOp(')')) this.next();
      this.expectOp(')');
      this.acceptOp(',');
    }
  }

  // ---------------------------------------------------------------------------------------------
  // DML

  private parseSimpleTableName(): { name: string; span: Span } {
    const first = this.parseName('table name');
    if (this.isOp('.')) {
      this.next();
      const t = this.next();
      if (t.kind !== 'word' && t.kind !== 'quoted') throw this.error('expected a table name');
      return { name: t.value, span: { start: first.span.start, end: t.end } };
    }
    return first;
  }

  private parseAssignments(): Assignment[] {
    const list: Assignment[] = [];
    do {
      const start = this.peek().start;
      const parts = [this.parseName('column name').name];
      while (this.acceptOp('.')) {
        const t = this.next();
        if (t.kind !== 'word' && t.kind !== 'quoted') throw this.error('expected a column name');
        parts.push(t.value);
      }
      const span = this.spanFrom(start);
      this.expectOp('=');
      const value = this.parseExpr();
      const name = parts[parts.length - 1]!;
      const table = parts.length >= 2 ? parts[parts.length - 2] : undefined;
      list.push({ column: { ...(table !== undefined ? { table } : {}), name, span }, value });
    } while (this.acceptOp(','));
    return list;
  }

  private parseInsert(): Statement {
    const replace = this.next().upper === 'REPLACE';
    this.acceptWord('LOW_PRIORITY', 'DELAYED', 'HIGH_PRIORITY');
    const ignore = this.acceptWord('IGNORE');
    this.acceptWord('INTO');
    const table = this.parseSimpleTableName();
    let columns: { name: string; span: Span }[] | undefined;
    if (this.isOp('(') && !this.startsQuery(1)) {
      this.next();
      columns = [];
      if (!this.isOp(')')) {
        do columns.push(this.parseColumnTarget());
        while (this.acceptOp(','));
      }
      this.expectOp(')');
    }
    let source: Extract<Statement, { kind: 'insert' }>['source'];
    if (this.acceptWord('VALUES', 'VALUE')) {
      const rows: Expr[][] = [];
      do {
        this.acceptWord('ROW');
        this.expectOp('(');
        const row: Expr[] = [];
        if (!this.isOp(')')) {
          do row.push(this.parseExpr());
          while (this.acceptOp(','));
        }
        this.expectOp(')');
        rows.push(row);
      } while (this.acceptOp(','));
      source = { kind: 'values', rows };
    } else if (this.acceptWord('SET')) {
      if (columns) throw this.error('unexpected SET', true);
      source = { kind: 'set', assignments: this.parseAssignments() };
    } else if (this.startsQuery()) {
      source = { kind: 'query', query: this.parseQuery() };
    } else throw this.error('expected VALUES, SET or SELECT');
    if (this.acceptWord('AS')) this.parseName('alias');
    if (this.acceptWord('ON')) {
      this.expectWord('DUPLICATE');
      this.expectWord('KEY');
      this.expectWord('UPDATE');
      // Tables here have no keys, so the clause can never fire; it is parsed and dropped.
      this.parseAssignments();
    }
    return { kind: 'insert', replace, ignore, table, ...(columns ? { columns } : {}), source };
  }

  private parseColumnTarget(): { name: string; span: Span } {
    const first = this.parseName('column name');
    let last = first;
    while (this.acceptOp('.')) {
      const t = this.next();
      if (t.kind !== 'word' && t.kind !== 'quoted') throw this.error('expected a column name');
      last = { name: t.value, span: { start: t.start, end: t.end } };
    }
    return last;
  }

  private parseUpdate(): Statement {
    this.next();
    this.acceptWord('LOW_PRIORITY');
    this.acceptWord('IGNORE');
    const refs = this.parseTableRefs();
    if (refs.length !== 1 || refs[0]!.kind !== 'table') throw this.unsupported('multi-table UPDATE is not supported');
    this.expectWord('SET');
    const assignments = this.parseAssignments();
    const where = this.acceptWord('WHERE') ? this.parseExpr() : undefined;
    const orderBy = this.acceptOrderBy();
    const limit = this.acceptWord('LIMIT') ? this.parseLimitValue() : undefined;
    return { kind: 'update', table: refs[0]!, assignments, ...(where ? { where } : {}), orderBy, ...(limit ? { limit } : {}) };
  }

  private parseDelete(): Statement {
    this.next();
    this.acceptWord('LOW_PRIORITY');
    this.acceptWord('QUICK');
    this.acceptWord('IGNORE');
    if (!this.isWord('FROM')) throw this.unsupported('multi-table DELETE is not supported');
    this.next();
    const table = this.parseSimpleTableName();
    let alias: string | undefined;
    if (this.acceptWord('AS')) alias = this.parseName('alias').name;
    else if (this.isName() && !this.isWord('WHERE', 'ORDER', 'LIMIT', 'USING')) alias = this.parseName('alias').name;
    if (this.isWord('USING') || this.isOp(',') || this.isWord('JOIN', 'INNER', 'LEFT')) throw this.unsupported('multi-table DELETE is not supported');
    const where = this.acceptWord('WHERE') ? this.parseExpr() : undefined;
    const orderBy = this.acceptOrderBy();
    const limit = this.acceptWord('LIMIT') ? this.parseLimitValue() : undefined;
    return { kind: 'delete', table: { ...table, ...(alias !== undefined ? { alias } : {}) }, ...(where ? { where } : {}), orderBy, ...(limit ? { limit } : {}) };
  }

  // ---------------------------------------------------------------------------------------------
  // Introspection and session statements

  private acceptLikePattern(): string | undefined {
    if (!this.acceptWord('LIKE')) return undefined;
    const t = this.next();
    if (t.kind !== 'string') throw this.error('expected a string');
    return t.value;
  }

  private skipFromDatabase(): void {
    if (this.acceptWord('FROM', 'IN')) this.parseName('database name');
  }

  private parseShow(): Statement {
    this.next();
    const full = this.acceptWord('FULL');
    if (this.acceptWord('TABLES')) {
      this.skipFromDatabase();
      const like = this.acceptLikePattern();
      const where = like === undefined && this.acceptWord('WHERE') ? this.parseExpr() : undefined;
      return { kind: 'show-tables', full, ...(like !== undefined ? { like } : {}), ...(where ? { where } : {}) };
    }
    if (this.acceptWord('COLUMNS', 'FIELDS')) {
      if (!this.acceptWord('FROM', 'IN')) throw this.error('expected FROM');
      const table = this.parseSimpleTableName();
      this.skipFromDatabase();
      const like = this.acceptLikePattern();
      return { kind: 'show-columns', table, full, ...(like !== undefined ? { like } : {}) };
    }
    if (full) throw this.error('expected TABLES or COLUMNS', true);
    if (this.acceptWord('CREATE')) {
      if (!this.acceptWord('TABLE')) throw this.unsupported('only SHOW CREATE TABLE is supported');
      return { kind: 'show-create-table', table: this.parseSimpleTableName() };
    }
    if (this.acceptWord('DATABASES', 'SCHEMAS')) {
      const like = this.acceptLikePattern();
      return { kind: 'show-databases', ...(like !== undefined ? { like } : {}) };
    }
    if (this.acceptWord('INDEX', 'INDEXES', 'KEYS')) {
      if (!this.acceptWord('FROM', 'IN')) throw this.error('expected FROM');
      const table = this.parseSimpleTableName();
      this.skipFromDatabase();
      return { kind: 'show-index', table };
    }
    if (this.isWord('TABLE') && this.isWordAt(1, 'STATUS')) {
      this.next();
      this.next();
      this.skipFromDatabase();
      const like = this.acceptLikePattern();
      return { kind: 'show-table-status', ...(like !== undefined ? { like } : {}) };
    }
    const what = this.peek();
    if (what.kind !== 'word') throw this.error('expected what to show', true);
    while (!this.atEnd() && !this.isOp(';')) this.next();
    return { kind: 'show-other', what: what.upper };
  }

  private parseDescribe(): Statement {
    this.next();
    if (this.isWord('FORMAT') || this.isWord('ANALYZE') || this.startsQuery() || this.isWord('INSERT', 'UPDATE', 'DELETE', 'REPLACE')) {
      const inner = this.parseStatement();
      if ('ddl' in inner) throw this.error('cannot explain this statement', true);
      return { kind: 'explain', statement: inner };
    }
    const table = this.parseSimpleTableName();
    let like: string | undefined;
    if (this.peek().kind === 'string') like = this.next().value;
    else if (this.isName()) like = this.parseName('column name').name;
    return { kind: 'show-columns', table, full: false, ...(like !== undefined ? { like } : {}) };
  }

  private parseSet(): Statement {
    this.next();
    const assignments: { name: string; system: boolean; value: Expr }[] = [];
    do {
      const t = this.peek();
      if (t.kind === 'variable') {
        this.next();
        if (!this.acceptOp('=') && !this.acceptOp(':=')) throw this.error("expected '='");
        assignments.push({ name: t.value, system: t.system === true, value: this.parseExpr() });
        continue;
      }
      // SET NAMES …, SET SESSION x = …, SET autocommit = … : accepted, no effect.
      while (!this.atEnd() && !this.isOp(';') && !this.isOp(',')) this.next();
    } while (this.acceptOp(','));
    return { kind: 'set-variables', assignments };
  }
}

/** Parses one agent statement (the tokens of the whole text). */
export function parseMysqlStatement(tokens: readonly Token[], sql: string): ParseResult {
  const parser = new StatementParser(tokens, sql);
  try {
    const result = parser.parseStatement();
    if ('ddl' in result) return { kind: 'ddl', verb: result.ddl };
    return { kind: 'statement', statement: result };
  } catch (error) {
    if (error instanceof SqlSyntaxError) return { kind: 'syntax-error', at: error.at, certain: error.certain, message: error.message };
    if (error instanceof UnsupportedSyntax) return { kind: 'unsupported', at: error.at, message: error.message };
    throw error;
  }
}
