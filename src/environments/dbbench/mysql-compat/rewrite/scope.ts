import type { SqlType } from '../sql-types.js';

/** A result column of a query or table source, with its MySQL type. */
export interface OutColumn {
  name: string;
  type: SqlType;
}

/** A table, view, CTE or derived table in a FROM clause; `coalesced` lists columns merged by USING/NATURAL. */
export interface Source {
  qualifier: string;
  columns: OutColumn[];
  coalesced: Set<string>;
}

export interface CteInfo {
  columns: OutColumn[];
}

/** Name resolution for one SELECT: its sources, its select-list aliases, and the enclosing query's scope. */
export class Scope {
  readonly sources: Source[] = [];
  readonly aliases = new Map<string, { name: string; sql: string; type: SqlType }>();
  itemCount = 0;
  constructor(
    readonly parent: Scope | null,
    readonly ctes: Map<string, CteInfo>,
  ) {}
}
