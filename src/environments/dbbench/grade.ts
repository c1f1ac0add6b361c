import {
  evalPythonLiteral,
  isHashable,
  pyList,
  pyStr,
  pyStrip,
  pythonFloat,
  pythonFloatOfString,
  type PyObject,
} from './python-literal.js';
import { formatStoredHash } from './table-hash.js';

/**
 * The two DBBench grading rules (benchmarks.md §1.5):
 * - `v0.2`: the AgentBench v0.2 metric (`DBBench.metrics` in `src/server/tasks/dbbench/__init__.py`);
 * - `fc`: the current AgentBench `DBResultProcessor.compare_results` (`result_processor.py`).
 */
export type GradeRule = 'fc' | 'v0.2';

/** A grading decision with a short human-readable reason. */
export interface GradeVerdict {
  correct: boolean;
  reason: string;
}

const QUOTES = `'"`;

// ---------------------------------------------------------------------------------------------
// FC: result_processor.py

/** `_normalize_special_values`: trailing `%` removed, thousands commas removed, null-likes → `"0"`. */
export function normalizeFcValue(value: string): string {
  let s = pyStrip(value);
  if (s.endsWith('%')) return pyStrip(s.slice(0, -1));
  if (s.includes(',') && !s.startsWith('[') && !s.endsWith(']')) s = s.replace(/,/g, '');
  const special = new Set(['none', 'null', 'undefined', 'nan', 'inf', 'infinity', '-inf', '-infinity', '']);
  return special.has(s.toLowerCase()) ? '0' : s;
}

function cleanItem(item: PyObject): string {
  const inner = item.kind === 'tuple' && item.items.length === 1 ? item.items[0]! : item;
  return normalizeFcValue(pyStrip(pyStrip(pyStr(inner)), QUOTES));
}

/** `_clean_mysql_result`: a `[(v,), …]` string → its single-column values (not yet normalised), else null. */
function cleanMysqlResult(text: string): string[] | null {
  if (!(text.startsWith('[') && text.endsWith(']'))) return null;
  const parsed = evalPythonLiteral(text);
  if (parsed !== null && parsed.kind === 'list' && parsed.items.every((x) => x.kind === 'tuple')) {
    const values: string[] = [];
    for (const item of parsed.items) {
      if (item.kind === 'tuple' && item.items.length === 1) values.push(pyStrip(pyStrip(pyStr(item.items[0]!)), QUOTES));
    }
    return values;
  }
  const stripped = pyStrip(text, '[]');
  const opens = stripped.split('(').length - 1;
  if (opens === 1 && stripped.startsWith('(') && stripped.endsWith(',)')) {
    return [pyStrip(pyStrip(stripped.slice(1, -2)), QUOTES)];
  }
  return null;
}

/**
 * `_clean_answer` for the values FC sees: a list of strings (a committed answer or the label), a string
 * (a computed hash, or a stored `answer_md5`), or null (Python None). Returns null where Python would
 * produce None (an `eval`'d bracketed string that is not a list), which then grades as incorrect.
 */
export function cleanFcAnswer(answer: string | readonly string[] | null): string[] | null {
  if (answer === null) return ['0'];
  if (typeof answer !== 'string') return answer.map((item) => normalizeFcValue(pyStrip(pyStrip(item), QUOTES)));
  const mysql = cleanMysqlResult(answer);
  if (mysql !== null) return mysql.map(normalizeFcValue);
  const text = pyStrip(answer);
  if (!(text.startsWith('[') && text.endsWith(']'))) return [normalizeFcValue(pyStrip(pyStrip(text), QUOTES))];
  const parsed = evalPythonLiteral(text);
  if (parsed !== null) return parsed.kind === 'list' ? parsed.items.map(cleanItem) : null;
  // eval failed: split on commas outside quotes (either quote character toggles the same flag).
  const items: string[] = [];
  let current = '';
  let inQuotes = false;
  for (const ch of text.slice(1, -1)) {
    if (ch === '"' || ch === "'") inQuotes = !inQuotes;
    else if (ch === ',' && !inQuotes) {
      if (current) items.push(normalizeFcValue(pyStrip(pyStrip(current), QUOTES)));
      current = '';
    } else current += ch;
  }
  if (current) items.push(normalizeFcValue(pyStrip(pyStrip(current), QUOTES)));
  return items;
}

const FC_TOLERANCE = 1e-2;

function fcFloat(value: string): number | null {
  return pythonFloatOfString(value);
}

function fcFloatEqual(a: string, b: string): boolean {
  const x = fcFloat(a);
  const y = fcFloat(b);
  return x !== null && y !== null && Math.abs(x - y) <= FC_TOLERANCE;
}

function compareFc(answer: string[] | null, truth: string[] | null): GradeVerdict {
  if (answer === null || truth === null) return { correct: false, reason: 'answer could not be normalised' };
  if (answer.length === 1 && truth.length === 1) {
    const a = answer[0]!;
    const g = truth[0]!;
    if (a === '0' && g === '0') return { correct: true, reason: 'both null-like / zero' };
    if (fcFloat(a) !== null && fcFloat(g) !== null) {
      const ok = fcFloatEqual(a, g);
      return { correct: ok, reason: ok ? `numbers within 0.01 (${a} vs ${g})` : `numbers differ by more than 0.01 (${a} vs ${g})` };
    }
    const ok = a === g;
    return { correct: ok, reason: ok ? 'exact string match' : `string mismatch (${JSON.stringify(a)} vs ${JSON.stringify(g)})` };
  }
  if (answer.every((x) => fcFloat(x) !== null) && truth.every((x) => fcFloat(x) !== null)) {
    if (answer.length !== truth.length) return { correct: false, reason: `numeric lists differ in length (${answer.length} vs ${truth.length})` };
    // A multiset match, as AgentBench's `compare_results` (result_processor.py) marks each gold value it
    // matched: a repeated value needs as many matching values on the other side, `["1","1"]` is wrong
    // against `["1","2"]` and the other way round. Greedy in answer order, like the original.
    const used = truth.map(() => false);
    for (const a of answer) {
      const at = truth.findIndex((g, i) => !used[i] && fcFloatEqual(a, g));
      if (at < 0) return { correct: false, reason: `no unmatched gold value within 0.01 of ${a}` };
      used[at] = true;
    }
    return { correct: true, reason: 'numeric multiset match within 0.01' };
  }
  // Text (or mixed) lists: the original compares `set(answer) == set(gold)`, so repeats do not count here.
  const as = new Set(answer);
  const gs = new Set(truth);
  const ok = as.size === gs.size && [...as].every((x) => gs.has(x));
  return { correct: ok, reason: ok ? 'set match' : 'sets differ' };
}

// ---------------------------------------------------------------------------------------------
// v0.2: DBBench.metrics

function gradeV02List(answers: readonly PyObject[], label: readonly string[]): GradeVerdict {
  if (answers.length === 1 && label.length === 1) {
    const a = answers[0]!;
    const x = pythonFloat(a);
    const y = pythonFloatOfString(label[0]!);
    if (x !== null && y !== null) {
      const ok = x === y;
      return { correct: ok, reason: ok ? `float(answer) == float(label) (${x})` : `float mismatch (${x} vs ${y})` };
    }
    const ok = a.kind === 'str' && a.value === label[0];
    return { correct: ok, reason: ok ? 'exact string match' : `string mismatch (${JSON.stringify(pyStr(a))} vs ${JSON.stringify(label[0])})` };
  }
  if (!answers.every(isHashable)) return { correct: false, reason: 'answer holds unhashable items' };
  const truth = new Set(label);
  const seen = new Set<string>();
  for (const a of answers) {
    if (a.kind !== 'str' || !truth.has(a.value)) return { correct: false, reason: `answer item ${JSON.stringify(pyStr(a))} is not in the label set` };
    seen.add(a.value);
  }
  const ok = seen.size === truth.size;
  return { correct: ok, reason: ok ? 'set match' : 'answer set misses label items' };
}

/**
 * `list(eval(text))` as v0.2 does with the text after `Final Answer:`; a failed eval (or a value that is
 * not iterable) gives the one-element list of the raw text.
 */
export function parseV02Answer(text: string): PyObject[] {
  const value = evalPythonLiteral(text);
  const list = value === null ? null : pyList(value);
  return list ?? [{ kind: 'str', value: text }];
}

/** Grades a v0.2 text-protocol answer (the raw text after `Final Answer:`) against the label. */
export function gradeV02AnswerText(text: string, label: readonly string[]): GradeVerdict {
  return gradeV02List(parseV02Answer(text), label);
}

// ---------------------------------------------------------------------------------------------
// Public entry points

/**
 * Grades a committed query answer.
 *
 * - `fc`: `compare_results(answers, label)`: both lists normalised by `_clean_answer`, then one value each:
 *   float comparison with absolute tolerance 0.01 (else exact string equality); several values: a numeric
 *   multiset match with the same tolerance when every value on both sides is numeric, else set equality.
 * - `v0.2`: in the text protocol the agent writes `Final Answer: [...]` and the grader evaluates it with
 *   `list(eval(text))`. Here the agent committed a list of strings (FC tool call), which is taken to be that
 *   evaluated list, i.e. as if the agent had written `Final Answer: <repr(answers)>`. Then: one element
 *   each: `float(a) == float(b)` exactly, else exact case-sensitive string equality; otherwise Python set
 *   equality. Use {@link gradeV02AnswerText} for the raw text of the text protocol.
 */
export function gradeQueryAnswer(answers: readonly string[], label: readonly string[], rule: GradeRule): GradeVerdict {
  if (rule === 'fc') return compareFc(cleanFcAnswer(answers), cleanFcAnswer(label));
  return gradeV02List(
    answers.map((value) => ({ kind: 'str', value })),
    label,
  );
}

/**
 * Grades a mutation task from the table hash after the episode (`DbSession.tableHash()`; null for an
 * empty table) against the stored `answer_md5`.
 * - `fc`: both sides go through `_clean_answer` and are compared as lists (the stored `[('h',)]` becomes
 *   `['h']`; an empty table's `None` becomes `'0'`).
 * - `v0.2`: the exact string `str(result)` of the hash query, `[('h',)]`, must equal `answer_md5`.
 */
export function gradeMutation(actualHash: string | null, answerMd5: string, rule: GradeRule = 'fc'): GradeVerdict {
  if (rule === 'v0.2') {
    const actual = formatStoredHash(actualHash);
    const ok = actual === answerMd5;
    return { correct: ok, reason: ok ? 'table hash matches' : `table hash ${actual} differs from ${answerMd5}` };
  }
  const actual = cleanFcAnswer(actualHash ?? 'None');
  const expected = cleanFcAnswer(answerMd5);
  const ok = actual !== null && expected !== null && actual.length === expected.length && actual.every((x, i) => x === expected[i]);
  return {
    correct: ok,
    reason: ok ? 'table hash matches' : `table hash ${JSON.stringify(actual)} differs from ${JSON.stringify(expected)}`,
  };
}
