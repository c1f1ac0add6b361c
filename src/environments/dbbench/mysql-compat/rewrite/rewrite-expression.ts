import type { Expr } from '../ast.js';
import { MysqlError } from '../errors.js';
import { literalScale } from '../mysql-values.js';
import { quoteString } from '../sql-quote.js';
import { aggregateTypes, arithmeticType, decimal, DOUBLE, INT, isExact, NULL_TYPE, scaleOf, STRING, UNKNOWN, type SqlType } from '../sql-types.js';
import { resolveColumn } from './resolve-column.js';
import { rewriteCall, rewriteDateAdd } from './rewrite-call.js';
import { rewriteCast } from './rewrite-cast.js';
import { rewriteInQuery, rewriteQuantified, rewriteScalarSubquery } from './rewrite-subquery.js';
import type { Emitted, Rewriter } from './rewriter.js';
import type { Scope } from './scope.js';

/**
 * Expressions: comparisons, LIKE, IN and BETWEEN go through the collation-aware `mysql_*` functions, text
 * is compared with numbers numerically, and every value gets the MySQL type it would have.
 */
export function rewriteExpression(rw: Rewriter, e: Expr, scope: Scope): Emitted {
  switch (e.kind) {
    case 'literal':
      return literal(e);
    case 'column':
      return resolveColumn(rw, e, scope);
    case 'star':
      throw new MysqlError(1064, '42000', 'unexpected *');
    case 'default':
      return { sql: 'NULL', type: NULL_TYPE };
    case 'variable':
      return rewriteVariable(rw, e.name, e.system);
    case 'unary':
      return rewriteUnary(rw, e, scope);
    case 'binary':
      return rewriteBinary(rw, e, scope);
    case 'is': {
      const x = rw.expr(e.expr, scope);
      const what = e.what === 'UNKNOWN' ? 'NULL' : e.what;
      return { sql: `(${x.sql} IS ${e.not ? 'NOT ' : ''}${what})`, type: INT };
    }
    case 'between': {
      const [x, lo, hi] = rw.exprs([e.expr, e.low, e.high], scope) as [Emitted, Emitted, Emitted];
      const temporal = [x, lo, hi].some((v) => isTemporal(v.type));
      const sql = `${temporal ? 'mysql_between_date' : 'mysql_between'}(${x.sql}, ${lo.sql}, ${hi.sql})`;
      return { sql: e.not ? `(NOT ${sql})` : sql, type: INT };
    }
    case 'in-list': {
      const x = rw.expr(e.expr, scope);
      const list = rw.exprs(e.list, scope);
      let sql: string;
      if (e.expr.kind === 'row') sql = `(${x.sql} IN (${list.map((l) => l.sql).join(', ')}))`;
      else sql = `${x.binary || list.some((l) => l.binary) ? 'mysql_in_bin' : 'mysql_in'}(${[x, ...list].map((l) => l.sql).join(', ')})`;
      return { sql: e.not ? `(NOT ${sql})` : sql, type: INT };
    }
    case 'in-query':
      return rewriteInQuery(rw, e, scope);
    case 'like': {
      const x = rw.expr(e.expr, scope);
      const p = rw.expr(e.pattern, scope);
      const args = [x.sql, p.sql];
      if (e.escape) args.push(rw.expr(e.escape, scope).sql);
      const sql = `${x.binary || p.binary ? 'mysql_like_bin' : 'mysql_like'}(${args.join(', ')})`;
      return { sql: e.not ? `(NOT ${sql})` : sql, type: INT };
    }
    case 'regexp': {
      const x = rw.expr(e.expr, scope);
      const p = rw.expr(e.pattern, scope);
      const sql = `${x.binary || p.binary ? 'mysql_regexp_bin' : 'mysql_regexp'}(${x.sql}, ${p.sql})`;
      return { sql: e.not ? `(NOT ${sql})` : sql, type: INT };
    }
    case 'exists': {
      const inner = rw.query(e.query, scope, scope.ctes, { aliasItems: true });
      return { sql: `EXISTS (${inner.sql})`, type: INT };
    }
    case 'subquery':
      return rewriteScalarSubquery(rw, e.query, scope);
    case 'quantified':
      return rewriteQuantified(rw, e, scope);
    case 'call':
      return rewriteCall(rw, e, scope);
    case 'cast':
      return rewriteCast(rw.expr(e.expr, scope), e.target);
    case 'case':
      return rewriteCase(rw, e, scope);
    case 'interval':
      throw new MysqlError(1064, '42000', 'INTERVAL outside date arithmetic');
    case 'collate': {
      const x = rw.expr(e.expr, scope);
      const binary = /_bin$|^binary$|_cs$/.test(e.collation);
      return { ...x, binary };
    }
    case 'row': {
      const items = rw.exprs(e.items, scope);
      return { sql: `(${items.map((i) => i.sql).join(', ')})`, type: UNKNOWN };
    }
  }
}

function rewriteVariable(rw: Rewriter, name: string, system: boolean): Emitted {
  if (system) {
    const n = name.toLowerCase().replace(/^(session|global|local)\./, '');
    const known: Record<string, string> = { version: '8.0.36', version_comment: 'MySQL Community Server - GPL', sql_mode: '', autocommit: '1', character_set_client: 'utf8mb4', collation_connection: 'utf8mb4_0900_ai_ci', group_concat_max_len: '1024', max_allowed_packet: '67108864' };
    const value = known[n];
    if (value === undefined) throw new MysqlError(1193, 'HY000', `Unknown system variable '${n}'`);
    return /^\d+$/.test(value) ? { sql: value, type: INT } : { sql: quoteString(value), type: STRING };
  }
  const value = rw.ctx.variables.get(name.toLowerCase()) ?? null;
  if (value === null) return { sql: 'NULL', type: NULL_TYPE };
  if (typeof value === 'bigint') return { sql: value.toString(), type: INT };
  if (typeof value === 'number') return { sql: Number.isFinite(value) ? String(value) : 'NULL', type: DOUBLE };
  if (typeof value === 'string') return { sql: quoteString(value), type: STRING };
  return { sql: `X'${value.toString('hex')}'`, type: STRING };
}

function rewriteUnary(rw: Rewriter, e: Extract<Expr, { kind: 'unary' }>, scope: Scope): Emitted {
  const x = rw.expr(e.expr, scope);
  switch (e.op) {
    case '-': {
      if (e.expr.kind === 'literal' && (e.expr.type === 'int' || e.expr.type === 'decimal' || e.expr.type === 'float')) {
        return { sql: `(-${x.sql})`, type: x.type };
      }
      return { sql: `(- ${x.sql})`, type: isExact(x.type) ? x.type : x.type.t === 'unknown' ? UNKNOWN : DOUBLE };
    }
    case '+':
      return x;
    case '~':
      return { sql: `(~ mysql_cast_signed(${x.sql}))`, type: INT };
    case '!':
    case 'NOT':
      return { sql: `(NOT ${x.sql})`, type: INT };
    case 'BINARY':
      return { ...x, type: STRING, binary: true };
  }
}

function rewriteBinary(rw: Rewriter, e: Extract<Expr, { kind: 'binary' }>, scope: Scope): Emitted {
  const op = e.op;
  if ((op === '+' || op === '-') && (e.right.kind === 'interval' || (op === '+' && e.left.kind === 'interval'))) {
    const interval = (e.right.kind === 'interval' ? e.right : e.left) as Extract<Expr, { kind: 'interval' }>;
    const base = e.right.kind === 'interval' ? e.left : e.right;
    return rewriteDateAdd(rw.expr(base, scope), rw.expr(interval.expr, scope), interval.unit, op === '-' ? -1 : 1);
  }
  const left = rw.expr(e.left, scope);
  const right = rw.expr(e.right, scope);
  const binaryFlag = left.binary || right.binary ? ', 1' : '';
  switch (op) {
    case 'AND':
    case 'OR':
      return { sql: `(${left.sql} ${op} ${right.sql})`, type: INT };
    case 'XOR':
      return { sql: `mysql_xor(${left.sql}, ${right.sql})`, type: INT };
    case '=':
    case '<>':
    case '<':
    case '>':
    case '<=':
    case '>=':
      if (e.left.kind === 'row' || e.right.kind === 'row') return { sql: `(${left.sql} ${op} ${right.sql})`, type: INT };
      // A DATE/DATETIME operand makes MySQL compare both sides as temporal values.
      if (isTemporal(left.type) || isTemporal(right.type)) return { sql: `(mysql_cmp_date(${left.sql}, ${right.sql}) ${op} 0)`, type: INT };
      return { sql: `(mysql_cmp(${left.sql}, ${right.sql}${binaryFlag}) ${op} 0)`, type: INT };
    case '<=>':
      return { sql: `mysql_nullsafe_eq(${left.sql}, ${right.sql}${binaryFlag})`, type: INT };
    case '+':
    case '-':
    case '*':
      return { sql: `(${left.sql} ${op} ${right.sql})`, type: arithmeticType(left.type, right.type, op) };
    case '/': {
      if (isExact(left.type) && isExact(right.type)) {
        const scale = Math.min(30, scaleOf(left.type) + 4);
        return { sql: `mysql_div_dec(${left.sql}, ${right.sql}, ${scale})`, type: decimal(scale) };
      }
      const type = left.type.t === 'unknown' || right.type.t === 'unknown' ? UNKNOWN : DOUBLE;
      return { sql: `mysql_div(${left.sql}, ${right.sql})`, type };
    }
    case 'DIV':
      return { sql: `mysql_intdiv(${left.sql}, ${right.sql})`, type: INT };
    case '%':
      return { sql: `mysql_mod(${left.sql}, ${right.sql})`, type: arithmeticType(left.type, right.type, '%') };
    case '^':
      return { sql: `mysql_bitxor(${left.sql}, ${right.sql})`, type: INT };
    case '&':
    case '|':
    case '<<':
    case '>>':
      return { sql: `(mysql_cast_signed(${left.sql}) ${op} mysql_cast_signed(${right.sql}))`, type: INT };
    default:
      throw new MysqlError(1064, '42000', `operator ${op}`);
  }
}

function rewriteCase(rw: Rewriter, e: Extract<Expr, { kind: 'case' }>, scope: Scope): Emitted {
  const operand = e.operand ? rw.expr(e.operand, scope) : null;
  const types: SqlType[] = [];
  const parts = e.whens.map((w) => {
    const when = rw.expr(w.when, scope);
    const then = rw.expr(w.then, scope);
    types.push(then.type);
    const cond = operand ? `mysql_cmp(${operand.sql}, ${when.sql}) = 0` : when.sql;
    return `WHEN ${cond} THEN ${then.sql}`;
  });
  let sql = `(CASE ${parts.join(' ')}`;
  if (e.else) {
    const other = rw.expr(e.else, scope);
    types.push(other.type);
    sql += ` ELSE ${other.sql}`;
  } else types.push(NULL_TYPE);
  return { sql: `${sql} END)`, type: aggregateTypes(types) };
}

function literal(e: Extract<Expr, { kind: 'literal' }>): Emitted {
  switch (e.type) {
    case 'int':
      return { sql: e.value, type: INT };
    case 'decimal':
      return { sql: e.value, type: decimal(literalScale(e.value)) };
    case 'float':
      return { sql: e.value, type: DOUBLE };
    case 'string':
      return { sql: quoteString(e.value), type: STRING };
    case 'null':
      return { sql: 'NULL', type: NULL_TYPE };
    case 'bool':
      return { sql: e.value, type: INT };
    case 'hex':
      return { sql: `X'${e.value.length % 2 === 1 ? `0${e.value}` : e.value}'`, type: STRING };
  }
}

function isTemporal(type: SqlType): boolean {
  return type.t === 'date' || type.t === 'datetime';
}
