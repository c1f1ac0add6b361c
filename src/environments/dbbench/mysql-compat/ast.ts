/** The parsed form of the MySQL subset the compatibility layer understands. */

/** Source offsets, so error messages can quote the original text. */
export interface Span {
  start: number;
  end: number;
}

export type LiteralType = 'int' | 'decimal' | 'float' | 'string' | 'null' | 'bool' | 'hex';

export type Expr =
  | { kind: 'literal'; type: LiteralType; value: string; span: Span }
  | { kind: 'column'; table?: string; name: string; span: Span }
  | { kind: 'star'; table?: string; span: Span }
  | { kind: 'unary'; op: '-' | '+' | '~' | '!' | 'NOT' | 'BINARY'; expr: Expr; span: Span }
  | { kind: 'binary'; op: string; left: Expr; right: Expr; span: Span }
  | { kind: 'is'; expr: Expr; not: boolean; what: 'NULL' | 'TRUE' | 'FALSE' | 'UNKNOWN'; span: Span }
  | { kind: 'between'; expr: Expr; low: Expr; high: Expr; not: boolean; span: Span }
  | { kind: 'in-list'; expr: Expr; list: Expr[]; not: boolean; span: Span }
  | { kind: 'in-query'; expr: Expr; query: Query; not: boolean; span: Span }
  | { kind: 'like'; expr: Expr; pattern: Expr; escape?: Expr; not: boolean; span: Span }
  | { kind: 'regexp'; expr: Expr; pattern: Expr; not: boolean; span: Span }
  | { kind: 'exists'; query: Query; span: Span }
  | { kind: 'subquery'; query: Query; span: Span }
  | { kind: 'quantified'; op: string; expr: Expr; quantifier: 'ANY' | 'ALL'; query: Query; span: Span }
  | {
      kind: 'call';
      name: string;
      args: Expr[];
      distinct: boolean;
      star: boolean;
      orderBy?: OrderItem[];
      separator?: string;
      over?: WindowSpec | string;
      /** The name as the agent wrote it (MySQL quotes it that way in error messages). */
      written?: string;
      /** A built-in name written with a space before `(`, which MySQL resolves as a stored function. */
      storedFunction?: boolean;
      span: Span;
    }
  | { kind: 'cast'; expr: Expr; target: CastTarget; span: Span }
  | { kind: 'case'; operand?: Expr; whens: { when: Expr; then: Expr }[]; else?: Expr; span: Span }
  | { kind: 'interval'; expr: Expr; unit: string; span: Span }
  | { kind: 'collate'; expr: Expr; collation: string; span: Span }
  | { kind: 'row'; items: Expr[]; span: Span }
  | { kind: 'variable'; name: string; system: boolean; span: Span }
  | { kind: 'default'; span: Span };

export interface CastTarget {
  /** SIGNED, UNSIGNED, DECIMAL, CHAR, DATE, DATETIME, TIME, DOUBLE, FLOAT, BINARY, JSON, YEAR. */
  type: string;
  precision?: number;
  scale?: number;
}

export interface WindowSpec {
  name?: string;
  partitionBy: Expr[];
  orderBy: OrderItem[];
  /** The frame clause, kept as source text (it is emitted unchanged). */
  frame?: string;
}

export interface OrderItem {
  expr: Expr;
  desc: boolean;
}

export interface SelectItem {
  expr: Expr;
  alias?: string;
  /** The item's source text, which MySQL uses as the column name when there is no alias. */
  text: string;
}

export type TableRef =
  | { kind: 'table'; name: string; schema?: string; alias?: string; span: Span }
  | { kind: 'derived'; query: Query; alias?: string; span: Span }
  | { kind: 'join'; joinType: 'INNER' | 'LEFT' | 'RIGHT' | 'CROSS' | 'STRAIGHT'; natural: boolean; left: TableRef; right: TableRef; on?: Expr; using?: string[]; span: Span };

export interface SelectCore {
  kind: 'select';
  distinct: boolean;
  items: SelectItem[];
  from: TableRef[];
  where?: Expr;
  groupBy: Expr[];
  rollup: boolean;
  having?: Expr;
  windows: { name: string; spec: WindowSpec }[];
  orderBy: OrderItem[];
  limit?: Limit;
  span: Span;
}

export interface Limit {
  count: Expr;
  offset?: Expr;
}

export type SetBody =
  | SelectCore
  | { kind: 'compound'; op: 'UNION' | 'UNION ALL' | 'INTERSECT' | 'INTERSECT ALL' | 'EXCEPT' | 'EXCEPT ALL'; left: SetBody; right: SetBody }
  | { kind: 'paren'; query: Query };

export interface Cte {
  name: string;
  columns?: string[];
  query: Query;
}

export interface Query {
  with?: { recursive: boolean; ctes: Cte[] };
  body: SetBody;
  /** ORDER BY / LIMIT that apply to a compound or parenthesised body. */
  orderBy: OrderItem[];
  limit?: Limit;
  span: Span;
}

export interface Assignment {
  column: { table?: string; name: string; span: Span };
  value: Expr;
}

export type Statement =
  | { kind: 'query'; query: Query }
  | {
      kind: 'insert';
      replace: boolean;
      ignore: boolean;
      table: { name: string; span: Span };
      columns?: { name: string; span: Span }[];
      source: { kind: 'values'; rows: Expr[][] } | { kind: 'set'; assignments: Assignment[] } | { kind: 'query'; query: Query };
    }
  | { kind: 'update'; table: TableRef; assignments: Assignment[]; where?: Expr; orderBy: OrderItem[]; limit?: Expr }
  | { kind: 'delete'; table: { name: string; alias?: string; span: Span }; where?: Expr; orderBy: OrderItem[]; limit?: Expr }
  | { kind: 'show-tables'; full: boolean; like?: string; where?: Expr }
  | { kind: 'show-columns'; table: { name: string; span: Span }; full: boolean; like?: string }
  | { kind: 'show-create-table'; table: { name: string; span: Span } }
  | { kind: 'show-databases'; like?: string }
  | { kind: 'show-index'; table: { name: string; span: Span } }
  | { kind: 'show-table-status'; like?: string }
  | { kind: 'show-other'; what: string }
  | { kind: 'use'; database: string }
  | { kind: 'set-variables'; assignments: { name: string; system: boolean; value: Expr }[] }
  | { kind: 'transaction'; verb: string }
  | { kind: 'explain'; statement: Statement };
