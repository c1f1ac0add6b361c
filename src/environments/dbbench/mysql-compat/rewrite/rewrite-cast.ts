import type { CastTarget } from '../ast.js';
import { MysqlError } from '../errors.js';
import { DATE, DATETIME, decimal, DOUBLE, INT, STRING, TIME } from '../sql-types.js';
import type { Emitted } from './rewriter.js';

/** CAST/CONVERT to each MySQL target type. */
export function rewriteCast(x: Emitted, target: CastTarget): Emitted {
  switch (target.type) {
    case 'SIGNED':
    case 'YEAR':
      return { sql: `mysql_cast_signed(${x.sql})`, type: INT };
    case 'UNSIGNED':
      return { sql: `mysql_cast_unsigned(${x.sql})`, type: INT };
    case 'DECIMAL': {
      const precision = target.precision ?? 10;
      const scale = target.scale ?? 0;
      if (scale > precision) throw new MysqlError(1427, '42000', `For float(M,D), double(M,D) or decimal(M,D), M must be >= D (column '').`);
      return { sql: `mysql_cast_decimal(${x.sql}, ${precision}, ${scale})`, type: decimal(scale) };
    }
    case 'CHAR': {
      const arg = asText(x);
      return { sql: target.precision !== undefined ? `mysql_cast_char(${arg}, ${target.precision})` : `mysql_cast_char(${arg})`, type: STRING };
    }
    case 'DOUBLE':
    case 'FLOAT':
      return { sql: `mysql_cast_double(${x.sql})`, type: DOUBLE };
    case 'DATE':
      return { sql: `mysql_cast_date(${x.sql})`, type: DATE };
    case 'DATETIME':
      return { sql: `mysql_cast_datetime(${x.sql})`, type: DATETIME };
    case 'TIME':
      return { sql: `mysql_cast_time(${x.sql})`, type: TIME };
    case 'BINARY':
      return { sql: asText(x), type: STRING, binary: true };
    default:
      return { sql: asText(x), type: STRING };
  }
}

/** A decimal-typed value as MySQL would print it (keeps trailing zeros of the scale). */
export function asText(x: Emitted): string {
  return x.type.t === 'decimal' ? `mysql_text_dec(${x.sql}, ${x.type.scale})` : x.sql;
}
