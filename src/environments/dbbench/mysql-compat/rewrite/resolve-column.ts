import type { Expr } from '../ast.js';
import { mysqlErrors } from '../errors.js';
import { quoteIdent } from '../sql-quote.js';
import type { Emitted, Rewriter } from './rewriter.js';
import type { Scope } from './scope.js';

/**
 * A column reference resolved as MySQL does: select-list aliases in ORDER BY (and GROUP BY/HAVING when no
 * column matches), then the sources of this query and the enclosing ones, with errors 1052 and 1054.
 */
export function resolveColumn(rw: Rewriter, e: Extract<Expr, { kind: 'column' }>, scope: Scope): Emitted {
  const lname = e.name.toLowerCase();
  const display = e.table !== undefined ? `${e.table}.${e.name}` : e.name;
  if (e.table === undefined && rw.clause === 'order clause') {
    const alias = scope.aliases.get(lname);
    if (alias) return { sql: quoteIdent(alias.name), type: alias.type };
  }
  for (let s: Scope | null = scope; s; s = s.parent) {
    if (e.table !== undefined) {
      const source = s.sources.find((x) => x.qualifier === e.table);
      if (source) {
        const col = source.columns.find((c) => c.name.toLowerCase() === lname);
        if (!col) throw mysqlErrors.unknownColumn(display, rw.clause);
        return { sql: `${quoteIdent(e.table)}.${quoteIdent(col.name)}`, type: col.type };
      }
      continue;
    }
    const hits = s.sources.filter((src) => src.columns.some((c) => c.name.toLowerCase() === lname));
    if (hits.length > 1 && !hits.every((h) => h.coalesced.has(lname))) throw mysqlErrors.ambiguousColumn(e.name, rw.clause);
    if (hits.length >= 1) {
      // Always qualified: rewrites wrap operands in subqueries whose own columns could capture a bare name.
      const col = hits[0]!.columns.find((c) => c.name.toLowerCase() === lname)!;
      return { sql: `${quoteIdent(hits[0]!.qualifier)}.${quoteIdent(col.name)}`, type: col.type };
    }
    if (s === scope && (rw.clause === 'group statement' || rw.clause === 'having clause')) {
      const alias = scope.aliases.get(lname);
      if (alias) return { sql: rw.clause === 'having clause' ? quoteIdent(alias.name) : alias.sql, type: alias.type };
    }
  }
  throw mysqlErrors.unknownColumn(display, rw.clause);
}
