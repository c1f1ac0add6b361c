import { existsSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';

import { ConfigError } from '../../episode/index.js';
import { pyJsonDumps, type PyJsonOut } from '../../python/python-json-dump.js';
import type { HeldoutCell } from './pooled-arithmetic.js';
import { HELDOUT_FLOAT_KEYS, POOLED_KEY, heldoutResultsSchema, type HeldoutEditorRecord, type HeldoutResultsFile } from './results-schema.js';

/** At most this many problems are named in one error message; the count of the rest is given. */
const MAX_LISTED_PROBLEMS = 12;

/**
 * Parses a held-out results object (the original's `results.json` shape) and checks that its counts add
 * up; throws a `ConfigError` naming the file and every problem found. `source` names it in messages.
 * The stored summaries are not checked here: see `heldoutSummaryMismatches`.
 */
export function parseHeldoutResults(json: unknown, source = 'results.json'): HeldoutResultsFile {
  const parsed = heldoutResultsSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`);
    throw problemsError(source, 'is not a held-out results file', problems);
  }
  const problems = checkHeldoutResults(parsed.data);
  if (problems.length > 0) throw problemsError(source, 'has inconsistent held-out counts', problems);
  return parsed.data;
}

/** Reads and parses a held-out results file (UTF-8 JSON). */
export function readHeldoutResults(file: string): HeldoutResultsFile {
  if (!existsSync(file)) throw new ConfigError({ message: `Held-out results file not found: ${file}.`, field: 'resultsFile' });
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new ConfigError({ message: `${file} is not valid JSON: ${(cause as Error).message}.`, field: 'resultsFile', cause });
  }
  return parseHeldoutResults(json, file);
}

/**
 * The file's text exactly as the original writes it (Python `json.dumps(indent=2)` plus a newline):
 * the shipped `results.json`, read and formatted again, gives back the same bytes. Per-seed maps follow
 * the order of `seeds`.
 */
export function formatHeldoutResults(results: HeldoutResultsFile): string {
  const bySeed = <T extends PyJsonOut>(record: Record<string, T>): Map<string, T> => {
    const ordered = new Map<string, T>();
    for (const seed of results.seeds) {
      const value = record[String(seed)];
      if (value !== undefined) ordered.set(String(seed), value);
    }
    return ordered;
  };
  const editors = new Map<string, PyJsonOut>();
  for (const [id, editor] of Object.entries(results.editors)) editors.set(id, { ...editor, per_seed: bySeed(editor.per_seed) });
  const ordered: PyJsonOut = { ...results, evidence_task_ids: bySeed(results.evidence_task_ids), editors };
  return `${pyJsonDumps(ordered, { indent: 2, floatKeys: HELDOUT_FLOAT_KEYS })}\n`;
}

/**
 * Writes the file whole or not at all (temporary file, then rename). Refuses results whose counts do
 * not add up, so a file this writes always reads back.
 */
export function writeHeldoutResults(file: string, results: HeldoutResultsFile): void {
  const problems = checkHeldoutResults(results);
  if (problems.length > 0) throw problemsError(file, 'would hold inconsistent held-out counts', problems);
  const text = formatHeldoutResults(results);
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch (cause) {
    if (existsSync(tmp)) unlinkSync(tmp);
    throw cause;
  }
}

/**
 * The parts of a results file that the count checks and the cell reader look at; a file still without
 * its summaries (`per_benchmark`) qualifies.
 */
export type HeldoutCountsView = Pick<HeldoutResultsFile, 'seeds' | 'held_out_tasks' | 'evidence_per_benchmark' | 'evidence_task_ids'> & {
  editors: Record<string, Pick<HeldoutEditorRecord, 'per_seed'> & { per_benchmark?: HeldoutEditorRecord['per_benchmark'] }>;
};

/** One editor's cells in the camelCase form the pooled arithmetic takes, seeds in `seeds` order. */
export function heldoutCells(results: HeldoutCountsView, editorId: string): HeldoutCell[] {
  const editor = results.editors[editorId];
  if (!editor) {
    throw new ConfigError({ message: `No editor '${editorId}' in the held-out results.`, field: 'editor', allowed: Object.keys(results.editors) });
  }
  return results.seeds.flatMap((seed) =>
    Object.entries(editor.per_seed[String(seed)] ?? {}).map(([bench, cell]) => ({
      seed,
      bench,
      tasks: cell.held_out.tasks,
      baselinePass: cell.held_out.baseline_pass,
      patchedPass: cell.held_out.patched_pass,
      rescued: cell.held_out.rescued_failures,
      regressed: cell.held_out.regressed_successes,
      valid: cell.valid,
    })),
  );
}

/** The benchmarks of a results file, in `held_out_tasks` order (without `pooled`). */
export function heldoutBenches(results: Pick<HeldoutResultsFile, 'held_out_tasks'>): string[] {
  return Object.keys(results.held_out_tasks).filter((key) => key !== POOLED_KEY);
}

/**
 * Every way the counts of a parsed file fail to add up: seeds, benchmarks and evidence ids that do not
 * match across sections, cell counts that contradict each other, and invalid patches scored as anything
 * but no intervention. An empty list means consistent.
 */
export function checkHeldoutResults(results: HeldoutCountsView): string[] {
  const problems: string[] = [];
  const benches = heldoutBenches(results);
  const seedKeys = results.seeds.map(String);
  const sameKeys = (where: string, actual: string[], expected: string[]) => {
    const missing = expected.filter((k) => !actual.includes(k));
    const extra = actual.filter((k) => !expected.includes(k));
    if (missing.length > 0 || extra.length > 0) {
      problems.push(`${where}: expected keys ${expected.join(', ')}${missing.length ? `; missing ${missing.join(', ')}` : ''}${extra.length ? `; unexpected ${extra.join(', ')}` : ''}`);
    }
  };

  if (new Set(seedKeys).size !== seedKeys.length) problems.push(`seeds: ${seedKeys.join(', ')} has duplicates`);
  if (!(POOLED_KEY in results.held_out_tasks)) problems.push(`held_out_tasks: no '${POOLED_KEY}' entry`);
  else {
    const sum = benches.reduce((total, b) => total + results.held_out_tasks[b]!, 0);
    if (results.held_out_tasks[POOLED_KEY] !== sum) problems.push(`held_out_tasks.${POOLED_KEY}: ${results.held_out_tasks[POOLED_KEY]} is not the sum over benchmarks (${sum})`);
  }

  sameKeys('evidence_task_ids', Object.keys(results.evidence_task_ids), seedKeys);
  for (const [seed, perBench] of Object.entries(results.evidence_task_ids)) {
    sameKeys(`evidence_task_ids.${seed}`, Object.keys(perBench), benches);
    for (const [bench, ids] of Object.entries(perBench)) {
      if (ids.length !== results.evidence_per_benchmark) problems.push(`evidence_task_ids.${seed}.${bench}: ${ids.length} ids, expected evidence_per_benchmark = ${results.evidence_per_benchmark}`);
      if (new Set(ids).size !== ids.length) problems.push(`evidence_task_ids.${seed}.${bench}: duplicate task ids`);
    }
  }

  for (const [id, editor] of Object.entries(results.editors)) {
    sameKeys(`editors.${id}.per_seed`, Object.keys(editor.per_seed), seedKeys);
    if (editor.per_benchmark) sameKeys(`editors.${id}.per_benchmark`, Object.keys(editor.per_benchmark), benches);
    for (const [seed, perBench] of Object.entries(editor.per_seed)) {
      sameKeys(`editors.${id}.per_seed.${seed}`, Object.keys(perBench), benches);
      for (const [bench, cell] of Object.entries(perBench)) {
        const where = `editors.${id}.per_seed.${seed}.${bench}`;
        const h = cell.held_out;
        const expectedTasks = results.held_out_tasks[bench];
        if (expectedTasks !== undefined && h.tasks !== expectedTasks) problems.push(`${where}: ${h.tasks} tasks, held_out_tasks.${bench} says ${expectedTasks}`);
        if (h.baseline_pass > h.tasks || h.patched_pass > h.tasks) problems.push(`${where}: more passes than tasks`);
        if (h.patched_pass - h.baseline_pass !== h.delta_pass) problems.push(`${where}: delta_pass ${h.delta_pass} is not patched_pass − baseline_pass (${h.patched_pass - h.baseline_pass})`);
        if (h.rescued_failures - h.regressed_successes !== h.delta_pass) problems.push(`${where}: rescued − regressed (${h.rescued_failures - h.regressed_successes}) is not delta_pass ${h.delta_pass}`);
        if (h.regressed_successes > h.baseline_pass) problems.push(`${where}: ${h.regressed_successes} regressed but only ${h.baseline_pass} baseline passes`);
        if (h.rescued_failures > h.tasks - h.baseline_pass) problems.push(`${where}: ${h.rescued_failures} rescued but only ${h.tasks - h.baseline_pass} baseline failures`);
        if (cell.valid && cell.validation_error !== null) problems.push(`${where}: valid but has a validation_error`);
        if (!cell.valid) {
          if (cell.validation_error === null) problems.push(`${where}: invalid without a validation_error`);
          if (h.delta_pass !== 0 || h.rescued_failures !== 0 || h.regressed_successes !== 0) problems.push(`${where}: an invalid patch is no intervention and must be scored Δ 0 with nothing rescued or regressed`);
        }
      }
    }
  }
  return problems;
}

function problemsError(source: string, what: string, problems: readonly string[]): ConfigError {
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS).map((p) => `  - ${p}`);
  const rest = problems.length > MAX_LISTED_PROBLEMS ? [`  … and ${problems.length - MAX_LISTED_PROBLEMS} more`] : [];
  return new ConfigError({ message: `${source} ${what}:\n${[...listed, ...rest].join('\n')}`, field: 'resultsFile' });
}
