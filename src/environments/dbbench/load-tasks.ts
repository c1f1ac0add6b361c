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

/** Reads a task file in the shipped AgentBench format. Any malformed line is a ConfigError naming it. */
export function loadDbBenchFile(file: string): DbBenchTask[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    throw new ConfigError({ message: `Cannot read DBBench task file ${file}: ${(cause as Error).message}`, field: 'data', cause });
  }
  const tasks: DbBenchTask[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    let record: unknown;
    try {
      record = parseJsonKeepingFloats(line);
    } catch (cause) {
      throw new ConfigError({ message: `${file}:${i + 1}: not valid JSON (${(cause as Error).message}).`, field: 'data', cause });
    }
    tasks.push(parseDbBenchRecord(record, tasks.length, `${file}:${i + 1}`));
  }
  return tasks;
}

export function loadDbBenchSplit(dataDir: string, split: string): DbBenchTask[] {
  return loadDbBenchFile(dbBenchSplitPath(dataDir, split));
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
