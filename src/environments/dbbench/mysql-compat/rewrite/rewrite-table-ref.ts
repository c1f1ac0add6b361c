import type { TableRef } from '../ast.js';
import { mysqlErrors } from '../errors.js';
import { quoteIdent } from '../sql-quote.js';
import { informationSchema } from './information-schema.js';
import type { Rewriter } from './rewriter.js';
import type { Scope, Source } from './scope.js';

/**
 * One FROM item (table, CTE, information_schema view, derived table or join): registers its columns in the
 * scope, with MySQL's errors for unknown, duplicate and unaliased sources.
 */
export function rewriteTableRef(rw: Rewriter, ref: TableRef, scope: Scope): string {
  const addSource = (source: Source): void => {
    if (scope.sources.some((s) => s.qualifier === source.qualifier)) throw mysqlErrors.notUniqueAlias(source.qualifier);
    scope.sources.push(source);
  };
  switch (ref.kind) {
    case 'table': {
      if (ref.schema !== undefined && ref.schema.toLowerCase() === 'information_schema') {
        const view = informationSchema(ref.name, rw.ctx.catalog);
        if (!view) throw mysqlErrors.noSuchTable('information_schema', ref.name);
        const qualifier = ref.alias ?? ref.name;
        addSource({ qualifier, columns: view.columns, coalesced: new Set() });
        return `(${view.sql}) AS ${quoteIdent(qualifier)}`;
      }
      if (ref.schema !== undefined && ref.schema !== rw.database) throw mysqlErrors.noSuchTable(ref.schema, ref.name);
      const qualifier = ref.alias ?? ref.name;
      const cte = ref.schema === undefined ? scope.ctes.get(ref.name) : undefined;
      if (cte) {
        addSource({ qualifier, columns: cte.columns, coalesced: new Set() });
      } else {
        const table = rw.table(ref.name);
        addSource({ qualifier, columns: table.columns.map((c) => ({ name: c.name, type: c.type })), coalesced: new Set() });
      }
      return `${quoteIdent(ref.name)}${ref.alias !== undefined ? ` AS ${quoteIdent(ref.alias)}` : ''}`;
    }
    case 'derived': {
      if (ref.alias === undefined) throw mysqlErrors.derivedAlias();
      const inner = rw.withClause('field list', () => rw.query(ref.query, scope.parent, scope.ctes, { aliasItems: true }));
      const names = new Set<string>();
      for (const c of inner.columns) {
        if (names.has(c.name.toLowerCase())) throw mysqlErrors.duplicateColumn(c.name);
        names.add(c.name.toLowerCase());
      }
      addSource({ qualifier: ref.alias, columns: inner.columns, coalesced: new Set() });
      return `(${inner.sql}) AS ${quoteIdent(ref.alias)}`;
    }
    case 'join': {
      const left = rewriteTableRef(rw, ref.left, scope);
      const before = scope.sources.length;
      const right = rewriteTableRef(rw, ref.right, scope);
      const keyword = `${ref.natural ? 'NATURAL ' : ''}${ref.joinType === 'LEFT' ? 'LEFT JOIN' : ref.joinType === 'RIGHT' ? 'RIGHT JOIN' : ref.joinType === 'CROSS' ? 'CROSS JOIN' : 'JOIN'}`;
      let sql = `${left} ${keyword} ${right}`;
      const shared = (names: string[]): void => {
        for (const s of scope.sources) for (const n of names) s.coalesced.add(n.toLowerCase());
      };
      if (ref.on) sql += ` ON ${rw.expr(ref.on, scope).sql}`;
      else if (ref.using) {
        for (const name of ref.using) {
          const inLeft = scope.sources.slice(0, before).some((s) => s.columns.some((c) => c.name.toLowerCase() === name.toLowerCase()));
          const inRight = scope.sources.slice(before).some((s) => s.columns.some((c) => c.name.toLowerCase() === name.toLowerCase()));
          if (!inLeft || !inRight) throw mysqlErrors.unknownColumn(name, 'from clause');
        }
        shared(ref.using);
        sql += ` USING (${ref.using.map(quoteIdent).join(', ')})`;
      } else if (ref.natural) {
        const leftNames = new Set(scope.sources.slice(0, before).flatMap((s) => s.columns.map((c) => c.name.toLowerCase())));
        shared(scope.sources.slice(before).flatMap((s) => s.columns.map((c) => c.name)).filter((n) => leftNames.has(n.toLowerCase())));
      }
      return sql;
    }
  }
}
