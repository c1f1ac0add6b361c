import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ConfigError } from '../../episode/index.js';
import type { DbBenchTask, DbTaskKind } from './dbbench-task.js';

/** The shipped splits and their files under `<dataDir>/dbbench/`. */
export const DBBENCH_SPLITS = {
  dev: 'dev.jsonl',
  standard: 'standard.jsonl',
  'standard.v0.2': 'standard.v0.2.jsonl',
} as const;

export type DbBenchSplit = keyof typeof DBBENCH_SPLITS;

const MUTATION_TYPES = new Set(['INSERT', 'UPDATE', 'DELETE']);

export function dbBenchSplitPath(dataDir: string, split: string): string {
  if (!(split in DBBENCH_SPLITS)) {
    throw new ConfigError({ message: `Unknown DBBench split '${split}'.`, field: 'split', allowed: Object.keys(DBBENCH_SPLITS) });
  }
  return path.join(dataDir, 'dbbench', DBBENCH_SPLITS[split as DbBenchSplit]);
}

/**
 * A DBBench task file that cannot be used: unreadable, or a line that is not a task. It names the file and
 * (for a bad line) the line, and concerns that file only: the splits of other files still load.
 */
export class DbBenchTaskFileError extends ConfigError {
  readonly file: string;
  /** 1-based; undefined when the file as a whole could not be read. */
  readonly line: number | undefined;
  constructor(options: { file: string; line?: number; message: string; cause?: unknown }) {
    super({ message: options.message, field: 'data', ...(options.cause !== undefined ? { cause: options.cause } : {}) });
    this.file = options.file;
    this.line = options.line;
  }
}

/** Reads a task file in the shipped AgentBench format. Any malformed line is a DbBenchTaskFileError naming file:line. */
export function loadDbBenchFile(file: string): DbBenchTask[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    throw new DbBenchTaskFileError({ file, message: `Cannot read DBBench task file ${file}: ${(cause as Error).message}`, cause });
  }
  const tasks: DbBenchTask[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    const where = `${file}:${i + 1}`;
    let record: unknown;
    try {
      record = parseJsonKeepingFloats(line);
    } catch (cause) {
      throw new DbBenchTaskFileError({ file, line: i + 1, message: `${where}: not valid JSON (${(cause as Error).message}).`, cause });
    }
    try {
      tasks.push(parseDbBenchRecord(record, tasks.length, where));
    } catch (cause) {
      if (!(cause instanceof ConfigError)) throw cause;
      throw new DbBenchTaskFileError({ file, line: i + 1, message: cause.message, cause });
    }
  }
  return tasks;
}

export function loadDbBenchSplit(dataDir: string, split: string): DbBenchTask[] {
  return loadDbBenchFile(dbBenchSplitPath(dataDir, split));
}

/**
 * Loads several splits where each stands alone: a split whose file is unreadable or has a bad line is
 * reported in `unreadable` (with its typed error) and the others still load. For readers that only need
 * to know the tasks, such as the simulated target, which must not fail on a file the run does not play.
 */
export function loadReadableDbBenchSplits<S extends string>(dataDir: string, splits: readonly S[]): { loaded: { split: S; tasks: DbBenchTask[] }[]; unreadable: { split: S; error: DbBenchTaskFileError }[] } {
  const loaded: { split: S; tasks: DbBenchTask[] }[] = [];
  const unreadable: { split: S; error: DbBenchTaskFileError }[] = [];
  for (const split of splits) {
    try {
      loaded.push({ split, tasks: loadDbBenchSplit(dataDir, split) });
    } catch (error) {
      if (!(error instanceof DbBenchTaskFileError)) throw error;
      unreadable.push({ split, error });
    }
  }
  return { loaded, unreadable };
}

const FLOAT_MARK = '\u0000float:';

/**
 * JSON.parse that keeps the difference Python sees between `82562.0` (a float, stored as '82562.0') and
 * `82562` (an int): number tokens with a fraction or exponent become `{ type: 'float', value }` cells.
 */
export function parseJsonKeepingFloats(text: string): unknown {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (ch === '-' || (ch >= '0' && ch <= '9')) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 64));
      const token = m ? m[0] : ch;
      out += m && (m[1] !== undefined || m[2] !== undefined) ? JSON.stringify(FLOAT_MARK + token) : token;
      i += token.length;
    } else {
      out += ch;
      i++;
    }
  }
  return JSON.parse(out, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(FLOAT_MARK) ? { type: 'float', value: Number(value.slice(FLOAT_MARK.length)) } : value,
  );
}

function fail(where: string, what: string): never {
  throw new ConfigError({ message: `${where}: ${what}`, field: 'data' });
}

export function parseDbBenchRecord(record: unknown, index: number, where: string): DbBenchTask {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) fail(where, 'record must be a JSON object');
  const r = record as Record<string, unknown>;
  if (typeof r.description !== 'string') fail(where, "field 'description' must be a string");
  const typeField = r.type;
  const type = Array.isArray(typeField) ? typeField[0] : typeField;
  if (typeof type !== 'string') fail(where, "field 'type' must be a string or a one-element list of strings");
  const labelField = r.label;
  const label = Array.isArray(labelField) ? labelField.map((x) => String(x)) : labelField === undefined ? [] : [String(labelField)];
  const tableField = r.table as Record<string, unknown> | undefined;
  if (!tableField || typeof tableField.table_name !== 'string') fail(where, "field 'table.table_name' must be a string");
  const info = tableField.table_info as Record<string, unknown> | undefined;
  if (!info || !Array.isArray(info.columns) || !Array.isArray(info.rows)) {
    fail(where, "field 'table.table_info' must hold 'columns' and 'rows' lists");
  }
  const columns = (info.columns as unknown[]).map((c, ci) => {
    const name = typeof c === 'object' && c !== null ? (c as { name?: unknown }).name : c;
    if (typeof name !== 'string') fail(where, `column ${ci} has no string 'name'`);
    return name;
  });
  // A row whose cell count differs from the columns is kept: loading it fails in the database as it does
  // in AgentBench, and that one task ends as an environment error instead of the whole file being refused.
  const rows = (info.rows as unknown[]).map((row, ri) => {
    if (!Array.isArray(row)) fail(where, `row ${ri} must be a list of cells`);
    return row as unknown[];
  });
  const kind: DbTaskKind = MUTATION_TYPES.has(type.toUpperCase()) ? 'mutation' : 'query';
  const task: DbBenchTask = {
    index,
    description: r.description,
    addDescription: typeof r.add_description === 'string' ? r.add_description : '',
    type,
    kind,
    label,
    table: { name: tableField.table_name, columns, rows },
  };
  if (typeof r.evidence === 'string' && r.evidence !== '') task.evidence = r.evidence;
  if (typeof r.answer_md5 === 'string') task.answerMd5 = r.answer_md5;
  if (typeof r.source === 'string') task.source = r.source;
  if (kind === 'mutation' && task.answerMd5 === undefined) fail(where, "mutation task has no 'answer_md5'");
  return task;
}
