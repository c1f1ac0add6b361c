import type { Span } from './ast.js';
import type { Token } from './tokenize.js';

/**
 * MySQL 8.0 reserved words: unquoted, they cannot name a table, column or alias (`SELECT Rank FROM t` is a
 * syntax error in MySQL 8). Non-reserved keywords such as YEAR, DATE, NAME or STATUS are fine.
 */
export const RESERVED_WORDS = new Set(
  (
    'ACCESSIBLE ADD ALL ALTER ANALYZE AND AS ASC ASENSITIVE BEFORE BETWEEN BIGINT BINARY BLOB BOTH BY CALL CASCADE CASE ' +
    'CHANGE CHAR CHARACTER CHECK COLLATE COLUMN CONDITION CONSTRAINT CONTINUE CONVERT CREATE CROSS CUBE CUME_DIST ' +
    'CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP CURRENT_USER CURSOR DATABASE DATABASES DAY_HOUR DAY_MICROSECOND ' +
    'DAY_MINUTE DAY_SECOND DEC DECIMAL DECLARE DEFAULT DELAYED DELETE DENSE_RANK DESC DESCRIBE DETERMINISTIC DISTINCT ' +
    'DISTINCTROW DIV DOUBLE DROP DUAL EACH ELSE ELSEIF EMPTY ENCLOSED ESCAPED EXCEPT EXISTS EXIT EXPLAIN FALSE FETCH ' +
    'FIRST_VALUE FLOAT FLOAT4 FLOAT8 FOR FORCE FOREIGN FROM FULLTEXT FUNCTION GENERATED GET GRANT GROUP GROUPING GROUPS ' +
    'HAVING HIGH_PRIORITY HOUR_MICROSECOND HOUR_MINUTE HOUR_SECOND IF IGNORE IN INDEX INFILE INNER INOUT INSENSITIVE ' +
    'INSERT INT INT1 INT2 INT3 INT4 INT8 INTEGER INTERSECT INTERVAL INTO IO_AFTER_GTIDS IO_BEFORE_GTIDS IS ITERATE JOIN ' +
    'JSON_TABLE KEY KEYS KILL LAG LAST_VALUE LATERAL LEAD LEADING LEAVE LEFT LIKE LIMIT LINEAR LINES LOAD LOCALTIME ' +
    'LOCALTIMESTAMP LOCK LONG LONGBLOB LONGTEXT LOOP LOW_PRIORITY MASTER_BIND MASTER_SSL_VERIFY_SERVER_CERT MATCH ' +
    'MAXVALUE MEDIUMBLOB MEDIUMINT MEDIUMTEXT MIDDLEINT MINUTE_MICROSECOND MINUTE_SECOND MOD MODIFIES NATURAL NOT ' +
    'NO_WRITE_TO_BINLOG NTH_VALUE NTILE NULL NUMERIC OF ON OPTIMIZE OPTIMIZER_COSTS OPTION OPTIONALLY OR ORDER OUT ' +
    'OUTER OUTFILE OVER PARTITION PERCENT_RANK PRECISION PRIMARY PROCEDURE PURGE RANGE RANK READ READS READ_WRITE REAL ' +
    'RECURSIVE REFERENCES REGEXP RELEASE RENAME REPEAT REPLACE REQUIRE RESIGNAL RESTRICT RETURN REVOKE RIGHT RLIKE ROW ' +
    'ROWS ROW_NUMBER SCHEMA SCHEMAS SECOND_MICROSECOND SELECT SENSITIVE SEPARATOR SET SHOW SIGNAL SMALLINT SPATIAL ' +
    'SPECIFIC SQL SQLEXCEPTION SQLSTATE SQLWARNING SQL_BIG_RESULT SQL_CALC_FOUND_ROWS SQL_SMALL_RESULT SSL STARTING ' +
    'STORED STRAIGHT_JOIN SYSTEM TABLE TERMINATED THEN TINYBLOB TINYINT TINYTEXT TO TRAILING TRIGGER TRUE UNDO UNION ' +
    'UNIQUE UNLOCK UNSIGNED UPDATE USAGE USE USING UTC_DATE UTC_TIME UTC_TIMESTAMP VALUES VARBINARY VARCHAR ' +
    'VARCHARACTER VARYING VIRTUAL WHEN WHERE WHILE WINDOW WITH WRITE XOR YEAR_MONTH ZEROFILL'
  ).split(' '),
);

/** A syntax error at a token: MySQL quotes the statement from that token on (`near '…'`). */
export class SqlSyntaxError extends Error {
  constructor(
    readonly at: number,
    message: string,
    /** True when MySQL certainly rejects this too (e.g. a reserved word used as a name). */
    readonly certain = false,
  ) {
    super(message);
  }
}

/** A parse that hit MySQL syntax this layer does not model; the caller may fall back to plain SQLite. */
export class UnsupportedSyntax extends Error {
  constructor(
    readonly at: number,
    message: string,
  ) {
    super(message);
  }
}

/** Cursor over a token list with the small helpers recursive-descent parsing needs. */
export class TokenCursor {
  protected pos = 0;

  constructor(
    protected readonly tokens: readonly Token[],
    protected readonly sql: string,
  ) {}

  protected peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)]!;
  }

  protected next(): Token {
    const token = this.peek();
    if (this.pos < this.tokens.length - 1) this.pos++;
    return token;
  }

  protected atEnd(): boolean {
    return this.peek().kind === 'eof';
  }

  /** True when the current token is the keyword (an unquoted word, compared upper-case). */
  protected isWord(...words: string[]): boolean {
    const t = this.peek();
    return t.kind === 'word' && words.includes(t.upper);
  }

  protected isWordAt(offset: number, ...words: string[]): boolean {
    const t = this.peek(offset);
    return t.kind === 'word' && words.includes(t.upper);
  }

  protected isOp(...ops: string[]): boolean {
    const t = this.peek();
    return t.kind === 'op' && ops.includes(t.value);
  }

  protected acceptWord(...words: string[]): boolean {
    if (!this.isWord(...words)) return false;
    this.next();
    return true;
  }

  protected acceptOp(...ops: string[]): boolean {
    if (!this.isOp(...ops)) return false;
    this.next();
    return true;
  }

  protected expectWord(word: string): Token {
    if (!this.isWord(word)) throw this.error(`expected ${word}`);
    return this.next();
  }

  protected expectOp(op: string): Token {
    if (!this.isOp(op)) throw this.error(`expected '${op}'`);
    return this.next();
  }

  protected error(message: string, certain = false): SqlSyntaxError {
    return new SqlSyntaxError(this.peek().start, message, certain);
  }

  protected unsupported(message: string): UnsupportedSyntax {
    return new UnsupportedSyntax(this.peek().start, message);
  }

  protected spanFrom(start: number): Span {
    const prev = this.tokens[Math.max(0, this.pos - 1)]!;
    return { start, end: Math.max(start, prev.end) };
  }

  protected textOf(span: Span): string {
    return this.sql.slice(span.start, span.end);
  }

  /** A name: backtick-quoted, or an unquoted word that is not reserved. Double-quoted text is a string in MySQL. */
  protected isName(offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'quoted' || (t.kind === 'word' && !RESERVED_WORDS.has(t.upper));
  }

  protected parseName(what = 'identifier'): { name: string; span: Span } {
    const t = this.peek();
    if (t.kind === 'quoted') {
      this.next();
      return { name: t.value, span: { start: t.start, end: t.end } };
    }
    if (t.kind === 'word') {
      if (RESERVED_WORDS.has(t.upper)) throw this.error(`reserved word ${t.upper} used as ${what}`, true);
      this.next();
      return { name: t.value, span: { start: t.start, end: t.end } };
    }
    throw this.error(`expected ${what}`);
  }
}
