import type { EpisodeRecord } from '../../../episode/index.js';
import { isJsLineTerminatorCode, isJsSpaceCode, lazyBetweenOnLine } from '../../../python/text-scan.js';

/**
 * What the target saw and did in one DBBench episode, read only from `messages` and `steps` (never from
 * `detail`, which holds grader verdicts that can quote ground truth).
 */
export interface ObservedEpisode {
  /** The question line of the first user message (`Question: …`), or '' when absent. */
  question: string;
  /** The table name from the `Additional table information` line, or '' when absent. */
  tableName: string;
  /** The headers listed in the same line (split on commas, best effort). */
  headers: string[];
  /** The agent's actions in order. Blocked and invalid calls are left out. */
  events: ObservedEvent[];
}

export type ObservedEvent =
  | { kind: 'sql'; round: number; sql: string; result: string; resultKind: ResultKind }
  | { kind: 'commit'; round: number; answers: string[] }
  | { kind: 'text'; round: number };

/** How a result text looked to the agent. */
export type ResultKind = 'rows' | 'empty' | 'error_syntax' | 'error_unknown_column' | 'error_missing_table' | 'error_other';

// `\s*` and `\S` cannot trade characters, so a failed line costs one pass (same matches as `\s*(.*)$`).
const QUESTION_RE = /^Question:\s*(\S.*)?$/m;

const TABLE_NAME = 'The name of this table is ';
const TABLE_HEADERS = ', and the headers of this table are ';

/**
 * The two groups of `/The name of this table is (.+?), and the headers of this table are (.*?)\.?\s*$/m`,
 * found by index scans: the name runs to the first headers phrase on its line, the headers to the end of
 * that line less trailing whitespace and one final dot. The regex rescans the rest of the line from every
 * position of a whitespace run and from every name phrase without a headers phrase, which is quadratic.
 */
export function tableInfo(text: string): { name: string; headers: string } | undefined {
  const name = lazyBetweenOnLine(text, TABLE_NAME, TABLE_HEADERS, 1);
  if (!name) return undefined;
  const headersStart = name.end + TABLE_HEADERS.length;
  let end = headersStart;
  while (end < text.length && !isJsLineTerminatorCode(text.charCodeAt(end))) end++;
  while (end > headersStart && isJsSpaceCode(text.charCodeAt(end - 1))) end--;
  if (end > headersStart && text.charCodeAt(end - 1) === 0x2e) end--;
  return { name: text.slice(name.start, name.end), headers: text.slice(headersStart, end) };
}

/** Classifies a tool reply the way a reader of MySQL output would. */
export function classifyResult(text: string): ResultKind {
  const t = text.trim();
  const isError = /^Error\b/i.test(t) || /^\d{4} \([0-9A-Z]{5}\)/.test(t);
  if (isError) {
    if (/^1054\b|unknown column|no such column/i.test(t)) return 'error_unknown_column';
    if (/^1146\b|doesn't exist|no such table/i.test(t)) return 'error_missing_table';
    if (/^1064\b|syntax/i.test(t)) return 'error_syntax';
    return 'error_other';
  }
  if (t === '' || t === '[]' || t === 'No response from database.' || /^\[\((None,?\s*)+\)\]$/.test(t)) return 'empty';
  return 'rows';
}

export function isErrorKind(kind: ResultKind): boolean {
  return kind.startsWith('error');
}

/** The committed answers as the runtime reads them: a list stays a list, anything else becomes one item. */
function answerList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  if (value === undefined || value === null) return [];
  return [typeof value === 'string' ? value : JSON.stringify(value)];
}

export function observeEpisode(record: EpisodeRecord): ObservedEpisode {
  const firstUser = record.messages.find((m) => m.role === 'user');
  const text = firstUser?.content ?? '';
  const info = tableInfo(text);
  const question = QUESTION_RE.exec(text)?.[1]?.trim() ?? '';
  const tableName = info?.name.trim() ?? '';
  const headers = (info?.headers ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');

  const events: ObservedEvent[] = [];
  // Text-only turns are assistant messages without tool calls; each assistant message is one round.
  let round = 0;
  const textRounds = new Set<number>();
  for (const m of record.messages) {
    if (m.role !== 'assistant') continue;
    round++;
    if (!m.toolCalls || m.toolCalls.length === 0) textRounds.add(round);
  }
  const byRound = new Map<number, ObservedEvent[]>();
  for (const step of record.steps) {
    if (step.status !== 'executed') continue;
    const list = byRound.get(step.round) ?? [];
    if (step.tool === 'execute_sql') {
      const sql = typeof step.input === 'string' ? step.input : JSON.stringify(step.input ?? '');
      list.push({ kind: 'sql', round: step.round, sql, result: step.observation, resultKind: classifyResult(step.observation) });
    } else if (step.tool === 'commit_final_answer') {
      list.push({ kind: 'commit', round: step.round, answers: answerList(step.input) });
    }
    byRound.set(step.round, list);
  }
  for (let r = 1; r <= Math.max(round, ...byRound.keys()); r++) {
    if (textRounds.has(r)) events.push({ kind: 'text', round: r });
    events.push(...(byRound.get(r) ?? []));
  }
  return { question, tableName, headers, events };
}
