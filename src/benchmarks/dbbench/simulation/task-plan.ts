import type { DbBenchTask } from '../../../environments/dbbench/dbbench-task.js';
import { cellText, isNoneLike, plausibleWrongAnswer, spoilAnswer } from './answer-values.js';
import type { DbBenchFault, DbBenchSimSettings } from './fault-profile.js';
import { simChance, simIndex } from './sim-rng.js';
import {
  applyValueEdit,
  findValueEdits,
  quoteIdent,
  renderTableRef,
  restyleTableRef,
  sqlString,
  tableNeedsQuoting,
  type TableRefStyle,
  type ValueEdit,
} from './sql-text.js';
import type { IndexedDbBenchTask } from './task-index.js';
import { trimBothOf } from '../../../python/text-scan.js';

/**
 * What the simulated target intends for one task, fixed once per episode from keyed draws: which
 * failure modes show, whether it inspects the table first, and the texts of its statements and answers.
 * Re-deriving it on every request gives the same plan.
 */
export interface TaskPlan {
  taskKey: string;
  task: DbBenchTask;
  mutation: boolean;
  /** Failure modes drawn for this episode that can show on this task. */
  faults: ReadonlySet<DbBenchFault>;
  /** Inspection before the main statement: a `SELECT * … LIMIT 5`, a `DESCRIBE`, or none. */
  inspect: 'select' | 'describe' | undefined;
  /** SQL texts, given the table reference as the target writes it at that moment. */
  inspectSql(ref: string): string;
  verifySql(ref: string): string;
  /** A SELECT naming a column the table does not have (the error the give_up mode reacts to). */
  probeSql(ref: string): string;
  /** Query tasks: a sensible SELECT for the answer. Mutation tasks: the gold statement, optionally spoiled. */
  mainSql(options: { style: TableRefStyle; spoiled: boolean }): string;
  /** The spoiled value of the gold statement (mutation tasks with case_format). */
  valueEdit: ValueEdit | undefined;
  /** Answers: the gold label, its spoiled form, a plausible wrong guess, and the give-up answer. */
  goldAnswers: string[];
  spoiledAnswers: string[] | undefined;
  guessAnswers: string[];
  giveUpAnswers: string[];
}

/** Probability that a fault-free episode looks at the table before its main statement. */
export const INSPECT_RATE = 0.5;

export function buildTaskPlan(entry: IndexedDbBenchTask, settings: DbBenchSimSettings): TaskPlan {
  const { task, key } = entry;
  const draw = (name: string, rate: number): boolean => simChance(settings.seed, key, name, rate);
  const pick = (name: string) => (n: number) => simIndex(settings.seed, key, name, n);
  const mutation = task.kind === 'mutation';
  const table = task.table.name;
  const gold = mutation ? (task.label[0] ?? '') : '';

  const drawn = new Set<DbBenchFault>();
  for (const fault of ['backticks', 'early_commit', 'case_format', 'give_up', 'repeat'] as const) {
    if (draw(`fault:${fault}`, settings.faults[fault])) drawn.add(fault);
  }

  // backticks shows only where a bare table name breaks the statement.
  if (drawn.has('backticks') && (!tableNeedsQuoting(table) || (mutation && restyleTableRef(gold, table, 'bare') === undefined))) {
    drawn.delete('backticks');
  }

  let valueEdit: ValueEdit | undefined;
  let spoiledAnswers: string[] | undefined;
  if (mutation) {
    const edits = findValueEdits(gold, task.table.columns).filter((edit) => edit.column !== undefined);
    if (edits.length > 0) valueEdit = edits[pick('value-edit')(edits.length)];
  } else {
    spoiledAnswers = spoilAnswer(task.label);
  }
  if (drawn.has('case_format') && valueEdit === undefined && spoiledAnswers === undefined) drawn.delete('case_format');

  let inspect: TaskPlan['inspect'];
  if (drawn.has('repeat') && mutation) inspect = 'select';
  else if (draw('inspect', INSPECT_RATE)) inspect = draw('inspect-describe', 0.5) ? 'describe' : 'select';

  const goldAnswers = mutation ? [] : [...task.label];
  const guessAnswers = mutation ? [] : plausibleWrongAnswer(task.label, task.table.rows, pick('guess'));
  const giveUpAnswers =
    mutation || (!isNoneLike(task.label) && draw('give-up-empty', 0.5)) ? [] : plausibleWrongAnswer(task.label, task.table.rows, pick('give-up-guess'));

  const answerSelect = mutation ? undefined : buildAnswerSelect(task);
  const probeColumn = guessColumnName(task.table.columns);

  return {
    taskKey: key,
    task,
    mutation,
    faults: drawn,
    inspect,
    inspectSql: (ref) => (inspect === 'describe' ? `DESCRIBE ${ref}` : `SELECT * FROM ${ref} LIMIT 5`),
    verifySql: (ref) => `SELECT * FROM ${ref} LIMIT 10`,
    probeSql: (ref) => `SELECT ${probeColumn} FROM ${ref} LIMIT 5`,
    mainSql({ style, spoiled }) {
      if (answerSelect) return answerSelect(renderTableRef(table, style));
      const sql = spoiled && valueEdit ? applyValueEdit(gold, valueEdit) : gold;
      return restyleTableRef(sql, table, style) ?? sql;
    },
    valueEdit,
    goldAnswers,
    spoiledAnswers,
    guessAnswers,
    giveUpAnswers,
  };
}

function usableColumn(name: string): boolean {
  return name.trim() !== '' && !/[\\`\n]/.test(name);
}

function usableValue(value: unknown): string | undefined {
  const text = cellText(value);
  return text !== undefined && text.trim().length >= 3 && text.length <= 80 && !/['\\\n]/.test(text) ? text : undefined;
}

/**
 * A sensible SELECT for a query task: where the gold value sits in the table, select its column for the
 * row the question names; otherwise an aggregate, a count or a plain select over the column the question
 * mentions. The result is not graded; the statement only has to run and look like a model's.
 */
function buildAnswerSelect(task: DbBenchTask): (ref: string) => string {
  const { columns, rows } = task.table;
  const question = task.description.toLowerCase();
  const gold = task.label[0] ?? '';

  const mentionedCell = (row: readonly unknown[], skip: number): { column: string; value: string } | undefined => {
    let best: { column: string; value: string } | undefined;
    row.forEach((cell, c) => {
      const column = columns[c];
      const value = usableValue(cell);
      if (c === skip || column === undefined || !usableColumn(column) || value === undefined) return;
      if (!question.includes(value.toLowerCase())) return;
      if (!best || value.length > best.value.length) best = { column, value };
    });
    return best;
  };
  const where = (key: { column: string; value: string } | undefined): string =>
    key ? ` WHERE ${quoteIdent(key.column)} = ${sqlString(key.value)}` : '';

  for (const row of rows) {
    const c = row.findIndex((cell) => cellText(cell) === gold);
    const column = columns[c];
    if (c < 0 || column === undefined || !usableColumn(column)) continue;
    const key = mentionedCell(row, c);
    return (ref) => `SELECT ${quoteIdent(column)} FROM ${ref}${where(key)}`;
  }

  let mentionedColumn: string | undefined;
  for (const column of columns) {
    if (usableColumn(column) && question.includes(column.toLowerCase()) && (mentionedColumn === undefined || column.length > mentionedColumn.length)) {
      mentionedColumn = column;
    }
  }
  let key: { column: string; value: string } | undefined;
  for (const row of rows) {
    const found = mentionedCell(row, mentionedColumn === undefined ? -1 : columns.indexOf(mentionedColumn));
    if (found && (!key || found.value.length > key.value.length)) key = found;
  }
  const aggregate = /^aggregation-(SUM|MIN|MAX|AVG)$/i.exec(task.type)?.[1]?.toUpperCase();
  if (aggregate && mentionedColumn) return (ref) => `SELECT ${aggregate}(${quoteIdent(mentionedColumn)}) FROM ${ref}${where(key)}`;
  if (task.type.toLowerCase() === 'counting') return (ref) => `SELECT COUNT(*) FROM ${ref}${where(key)}`;
  return (ref) => `SELECT ${mentionedColumn ? quoteIdent(mentionedColumn) : '*'} FROM ${ref}${where(key)}`;
}

/** A column name a careless model might guess: a spaced header written snake_case, else `name` or `id`. */
function guessColumnName(columns: readonly string[]): string {
  const existing = new Set(columns.map((c) => c.toLowerCase()));
  const spaced = columns.find((c) => /\s/.test(c.trim()) && usableColumn(c));
  let guess = trimBothOf(spaced?.trim().replace(/[^A-Za-z0-9_]+/g, '_') ?? '', '_');
  if (guess === '' || existing.has(guess.toLowerCase())) guess = existing.has('name') ? 'id' : 'name';
  if (/^\d/.test(guess)) guess = `col_${guess}`;
  while (existing.has(guess.toLowerCase())) guess = `${guess}_id`;
  return guess;
}
