/** One DBBench record as shipped in `dev.jsonl` / `standard.jsonl` (AgentBench format). */
export interface DbTable {
  name: string;
  columns: string[];
  rows: unknown[][];
}

export type DbTaskKind = 'query' | 'mutation';

export interface DbBenchTask {
  index: number;
  description: string;
  addDescription: string;
  evidence?: string;
  /** First element of the record's `type`, e.g. `counting`, `INSERT`. */
  type: string;
  kind: DbTaskKind;
  /** Query tasks: gold answers. Mutation tasks: the gold SQL in `label[0]` (reference only). */
  label: string[];
  /** Mutation tasks: the stored hash as written in the file, e.g. `[('03b2…',)]`. */
  answerMd5?: string;
  table: DbTable;
  source?: string;
}
