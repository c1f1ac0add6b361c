import type { DbBenchTask } from './dbbench-task.js';

/** How the last SQL result looked, in the original's vocabulary (`''` when it was a usable result). */
export type SqlErrorKind = 'unknown_col' | 'syntax' | 'empty' | 'null_agg' | '';

const MUTATION_RE = /^\s*(insert|update|delete|replace)\b/i;
const INTROSPECTION_RE = /^\s*(describe|desc|show\s+(full\s+)?columns\s+from|show\s+fields\s+from)\s+(`[^`]+`|\S+)/i;

/** Lower-cased, whitespace-collapsed SQL without a trailing semicolon: what "the same query" means. */
export function normalizeSql(sql: string): string {
  // The trailing `;`/space run is cut by a scan: `/[;\s]+$/` retries every start of a long run that ends
  // before the end of the statement (quadratic on agent SQL).
  const text = sql.trim();
  let end = text.length;
  while (end > 0 && (text[end - 1] === ';' || /\s/.test(text[end - 1]!))) end--;
  return text.slice(0, end).replace(/\s+/g, ' ').toLowerCase();
}

/** Classifies a result text the agent saw (protocol.md §4.4 error kinds). */
export function classifySqlResult(text: string): { kind: SqlErrorKind; isError: boolean } {
  const t = text.trim();
  const isError = /^Error\b/.test(t) || /^\d{4} \([0-9A-Z]{5}\)/.test(t);
  if (isError) {
    if (/unknown column|no such column|1054/i.test(t)) return { kind: 'unknown_col', isError };
    if (/syntax|1064|near "/i.test(t)) return { kind: 'syntax', isError };
    return { kind: '', isError };
  }
  if (t === '[]' || t === '' || t === 'No response from database.') return { kind: 'empty', isError: false };
  if (/^\[\((None,?\s*)+\)\]$/.test(t)) return { kind: 'null_agg', isError: false };
  return { kind: '', isError: false };
}

/** Splits the Python repr of a row list into rows of cell texts (best effort; not an oracle). */
export function parseRowsText(text: string): string[][] | undefined {
  const t = text.trim();
  if (!t.startsWith('[') || !t.endsWith(']')) return undefined;
  const rows: string[][] = [];
  const re = /\(((?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[^()'"])*)\)/g;
  for (const m of t.slice(1, -1).matchAll(re)) {
    const cells: string[] = [];
    const cellRe = /'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|([^,\s][^,]*)/g;
    for (const c of m[1]!.matchAll(cellRe)) {
      const raw = c[1] ?? c[2] ?? (c[3] ?? '').trim();
      cells.push(raw.replace(/\\(.)/g, '$1'));
    }
    rows.push(cells);
  }
  return rows;
}

/**
 * The observable state of one DBBench episode, from which the hook `ctx` is built. It holds nothing the
 * agent has not seen: no label, no gold SQL, no stored hash.
 */
export class DbBenchEpisodeState {
  sqlCount = 0;
  lastSql = '';
  lastResult = '';
  lastErrorKind: SqlErrorKind = '';
  lastErrorText = '';
  lastResultWasError = false;
  errorStreak = 0;
  emptyStreak = 0;
  textOnlyStreak = 0;
  loopStreak = 0;
  mutationAttempted = false;
  #candidate: { answer: string[]; shape: string; implausible: boolean } = { answer: [], shape: '', implausible: false };
  /**
   * Results of successful SELECTs not yet read into the candidate, oldest first. The candidate is the
   * newest of them that parses to rows (or the one before them all); it is read only when asked for, so
   * an episode whose state nobody reads (no hooks) never parses its results back from the text.
   */
  #unreadCandidates: string[] = [];
  readonly sqlHistory: string[] = [];
  readonly sqlHistoryRaw: string[] = [];
  readonly discoveredColumns: Record<string, string[]> = {};

  constructor(readonly task: DbBenchTask) {}

  noteTextOnlyTurn(): void {
    this.textOnlyStreak++;
  }

  resetTextOnlyStreak(): void {
    this.textOnlyStreak = 0;
  }

  updateAfterSql(sql: string, response: string): void {
    const normalized = normalizeSql(sql);
    this.loopStreak = this.sqlHistory.length > 0 && this.sqlHistory[this.sqlHistory.length - 1] === normalized ? this.loopStreak + 1 : 0;
    this.sqlCount++;
    this.lastSql = sql;
    this.lastResult = response;
    this.sqlHistory.push(normalized);
    this.sqlHistoryRaw.push(sql);
    if (MUTATION_RE.test(sql)) this.mutationAttempted = true;
    const { kind, isError } = classifySqlResult(response);
    this.lastErrorKind = kind;
    this.lastResultWasError = isError;
    this.lastErrorText = isError ? response.slice(0, 300) : '';
    this.errorStreak = isError ? this.errorStreak + 1 : 0;
    this.emptyStreak = kind === 'empty' ? this.emptyStreak + 1 : 0;
    if (!isError) this.noteIntrospection(sql, response);
    if (!isError && kind === '' && /^\s*(select|with)\b/i.test(sql)) this.#unreadCandidates.push(response);
  }

  /** The last SELECT result that had rows, as the answer it suggests (one value per row, or the row). */
  get candidateAnswer(): string[] {
    return this.candidate().answer;
  }

  /** `scalar`, `list`, `row` or `table`; empty before any SELECT returned rows. */
  get candidateAnswerShape(): string {
    return this.candidate().shape;
  }

  /** Whether the candidate looks wrong: more than 20 rows, or a `None` or empty value. */
  get candidateImplausible(): boolean {
    return this.candidate().implausible;
  }

  private candidate(): { answer: string[]; shape: string; implausible: boolean } {
    for (let i = this.#unreadCandidates.length - 1; i >= 0; i--) {
      const found = candidateOf(this.#unreadCandidates[i]!);
      if (found) {
        this.#candidate = found;
        break;
      }
    }
    this.#unreadCandidates = [];
    return this.#candidate;
  }

  private noteIntrospection(sql: string, response: string): void {
    const m = INTROSPECTION_RE.exec(sql);
    if (!m) return;
    const table = m[3]!.replace(/^`|`$/g, '');
    const rows = parseRowsText(response);
    if (rows) this.discoveredColumns[table] = rows.map((r) => r[0] ?? '').filter((c) => c !== '');
  }
}

/** The answer a SELECT result suggests, or undefined when its text holds no rows. */
function candidateOf(response: string): { answer: string[]; shape: string; implausible: boolean } | undefined {
  const rows = parseRowsText(response);
  if (!rows || rows.length === 0) return undefined;
  const width = rows[0]!.length;
  let answer: string[];
  let shape: string;
  if (width === 1) {
    answer = rows.map((r) => r[0] ?? '');
    shape = rows.length === 1 ? 'scalar' : 'list';
  } else {
    answer = rows.length === 1 ? rows[0]! : rows.map((r) => r.join(', '));
    shape = rows.length === 1 ? 'row' : 'table';
  }
  return { answer, shape, implausible: rows.length > 20 || answer.some((v) => v === 'None' || v === '') };
}

/** What shape of answer a task type asks for, from the type alone. */
export function answerShapeOf(type: string): string {
  const t = type.toLowerCase();
  if (['insert', 'update', 'delete'].includes(t)) return 'mutation';
  if (t === 'counting' || t.startsWith('aggregation')) return 'number';
  return 'value';
}
