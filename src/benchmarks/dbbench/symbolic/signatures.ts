import { isInfraOutcome, type EpisodeRecord } from '../../../episode/index.js';
import { normalizeSql } from '../../../environments/dbbench/episode-state.js';
import { isJsLineTerminatorCode } from '../../../python/text-scan.js';
import { isErrorKind, observeEpisode, type ObservedEpisode, type ObservedEvent } from './observe.js';

/**
 * DBBench failure signatures the symbolic engineer looks for, in the order they are reported and composed.
 * Each is detected from the observable trace only (what the target saw and did).
 */
export const SIGNATURE_IDS = [
  'unquoted_identifier',
  'unknown_column',
  'commit_before_sql',
  'give_up_after_error',
  'empty_commit_on_question',
  'repeated_sql',
  'text_only_turns',
  'mutation_without_write',
  'empty_result_commit',
  'literal_altered',
] as const;
export type SignatureId = (typeof SIGNATURE_IDS)[number];

/** One line per signature: what was seen in the trace. */
export const SIGNATURE_DESCRIPTIONS: Readonly<Record<SignatureId, string>> = Object.freeze({
  unquoted_identifier: 'a statement failed after naming a table or column that contains spaces or punctuation without backticks',
  unknown_column: 'a statement failed with an unknown-column error (1054)',
  commit_before_sql: 'the answer was committed before any SQL was run',
  empty_commit_on_question: 'an empty answer list was committed for a question (not a data change)',
  give_up_after_error: 'the answer was committed right after an error result',
  repeated_sql: 'the same SQL was sent three or more times in a row',
  text_only_turns: 'a turn had text but no tool call',
  mutation_without_write: 'a data-change task was committed without any INSERT, UPDATE or DELETE',
  empty_result_commit: 'the answer was committed right after a SELECT returned no rows',
  literal_altered: 'a value was written differently from the question or the query result (case, punctuation, number format, extra words)',
});

export function isSignatureId(value: string): value is SignatureId {
  return (SIGNATURE_IDS as readonly string[]).includes(value);
}

const WRITE_RE = /^\s*(insert|update|delete|replace)\b/i;
const READ_RE = /^\s*(select|with)\b/i;
/** Question form: a question mark at the end, a wh-/imperative-question opening, or "how many/much". */
const QUESTION_FORM_RE = /\?\s*(?:["']\s*)?$|^\s*(what|which|who|whom|whose|how|when|where|why|name|list|give|tell|count|find|show|i want|provide|return)\b|\bhow (many|much)\b/i;
const CHANGE_VERB_RE = /\b(insert|inserted|inserting|update|updated|updating|delete|deleted|deleting|remove|removed|alter|modify|modified)\b|^\s*(add|change|set|record|replace)\b/i;

/**
 * Whether the question asks to change the data, judged from its wording alone (the task type is not
 * shown to the target): a change verb in a sentence that is not a question, or a statement that is not
 * phrased as a question at all (DBBench's insert tasks are often plain statements of a fact to record).
 */
export function looksLikeDataChange(question: string): boolean {
  const q = question.trim();
  if (q === '') return false;
  return (CHANGE_VERB_RE.test(q) && !/\?\s*$/.test(q)) || !QUESTION_FORM_RE.test(q);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Identifiers from the table information that need backticks in MySQL (anything beyond letters, digits, `_`). */
function identifiersNeedingQuotes(ep: ObservedEpisode): string[] {
  return [ep.tableName, ...ep.headers].filter((name) => name !== '' && /[^A-Za-z0-9_$]/.test(name));
}

/** The identifier appears in the SQL bare (not right after a backtick), or with its separators turned into `_`. */
function namesBare(sql: string, identifier: string): boolean {
  const words = identifier.split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
  if (words.length < 2) {
    // A one-word name with punctuation, e.g. `Club(s)` or `Nr.`: bare when it appears without a backtick before it.
    return new RegExp(`(^|[^\`\\p{L}\\p{N}_])${escapeRegExp(identifier)}`, 'iu').test(sql);
  }
  const joined = words.map(escapeRegExp).join('[\\s_]+');
  return new RegExp(`(^|[^\`\\p{L}\\p{N}_])${joined}(?![\\p{L}\\p{N}])`, 'iu').test(sql);
}

function sqlEvents(ep: ObservedEpisode): Extract<ObservedEvent, { kind: 'sql' }>[] {
  return ep.events.filter((e): e is Extract<ObservedEvent, { kind: 'sql' }> => e.kind === 'sql');
}

/**
 * Quoted literals of a statement, e.g. `'Lilly King'` → `Lilly King`: the matches of
 * `/'((?:[^'\\]|\\.|'')*)'/g` with `''` read as `'`, found by a forward scan (the regex is quadratic on
 * an unclosed literal full of `\'`: it rescans the rest from every quote).
 */
export function quotedLiterals(sql: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let open = sql.indexOf("'"); open >= 0; open = sql.indexOf("'", from)) {
    const close = literalEnd(sql, open);
    if (close.kind === 'closed') {
      out.push(sql.slice(open + 1, close.at).replace(/''/g, "'"));
      from = close.at + 1;
    } else {
      // Every quote before the stop was read inside an escape, so a scan from it meets the same stop with
      // no `''` on the way and fails the same way: the regex's retries there are skipped.
      from = close.at;
    }
  }
  return out;
}

/**
 * Where the literal opened at `open` closes, as the regex decides: the items run greedily (`''` taken as a
 * pair), a lone `'` closes; at a stop (`\\` before a line end or the end of the text, or the end itself) the
 * regex backs off to the last `''` pair and closes on its first quote, else the start fails.
 */
function literalEnd(sql: string, open: number): { kind: 'closed' | 'failed'; at: number } {
  let lastPair = -1;
  let i = open + 1;
  for (;;) {
    if (i >= sql.length) break;
    const code = sql.charCodeAt(i);
    if (code === 0x27) {
      if (sql.charCodeAt(i + 1) !== 0x27) return { kind: 'closed', at: i };
      lastPair = i;
      i += 2;
    } else if (code === 0x5c) {
      if (i + 1 >= sql.length || isJsLineTerminatorCode(sql.charCodeAt(i + 1))) break;
      i += 2;
    } else {
      i++;
    }
  }
  return lastPair >= 0 ? { kind: 'closed', at: lastPair } : { kind: 'failed', at: i };
}

function canonicalNumber(text: string): string {
  const t = text.replace(/,/g, '');
  if (!t.includes('.')) return t;
  // `t.replace(/0+$/, '')` as a scan (the regex retries every start of a long run of zeros).
  let end = t.length;
  while (end > 0 && t[end - 1] === '0') end--;
  return t.slice(0, end).replace(/\.$/, '');
}

function upperCount(text: string): number {
  return [...text].filter((ch) => ch !== ch.toLowerCase() && ch === ch.toUpperCase()).length;
}

/**
 * A literal of a data-changing statement written differently from the question: the same text with
 * capitals lost (`'usda'` for "USDA"; a capital gained at a sentence start is not counted), or the same
 * number in another format (thousands commas, trailing zeros).
 */
export function alteredFromQuestion(value: string, question: string): boolean {
  if (value.length < 2) return false;
  if (/\p{L}/u.test(value)) {
    if (question.includes(value)) return false;
    const at = question.toLowerCase().indexOf(value.toLowerCase());
    if (at < 0) return false;
    const original = question.slice(at, at + value.length);
    return original !== value && upperCount(original) > upperCount(value);
  }
  if (/^-?\d[\d,]*(\.\d+)?$/.test(value)) {
    const numbers: string[] = question.match(/\d+(?:,\d{3})*(?:\.\d+)?/g) ?? [];
    return !numbers.includes(value) && numbers.some((n) => canonicalNumber(n) === canonicalNumber(value));
  }
  return false;
}

/** The quoted cells of result texts (Python reprs of row lists). */
export function resultCells(results: string): string[] {
  return [...results.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1] ?? m[2] ?? '');
}

/** A committed value that a result cell showed in another case or dash style, but no cell showed as written. */
export function alteredFromResults(value: string, cells: readonly string[]): boolean {
  if (value.length < 2 || cells.some((c) => c.includes(value))) return false;
  const lower = value.toLowerCase();
  const dashed = value.replace(/-/g, '\u2013');
  const letters = /\p{L}/u.test(value);
  return cells.some((c) => (letters && c.toLowerCase().includes(lower)) || (dashed !== value && c.includes(dashed)));
}

const ANSWER_SENTENCE_RE = /^\s*(the\s+)?(final\s+)?answer\s*(is\b|:)/i;

/** Every signature one episode shows. Pure function of the observable trace. */
export function detectSignatures(ep: ObservedEpisode): Set<SignatureId> {
  const found = new Set<SignatureId>();
  const sqls = sqlEvents(ep);
  const dataChange = looksLikeDataChange(ep.question);
  const quoteNeeded = identifiersNeedingQuotes(ep);

  for (const e of sqls) {
    if (isErrorKind(e.resultKind) && quoteNeeded.some((id) => namesBare(e.sql, id))) found.add('unquoted_identifier');
    if (e.resultKind === 'error_unknown_column') found.add('unknown_column');
  }

  let run = 1;
  for (let i = 1; i < sqls.length; i++) {
    const same = normalizeSql(sqls[i]!.sql) === normalizeSql(sqls[i - 1]!.sql) && sqls[i]!.round === sqls[i - 1]!.round + 1;
    run = same ? run + 1 : 1;
    if (run >= 3) found.add('repeated_sql');
  }

  if (ep.events.some((e) => e.kind === 'text')) found.add('text_only_turns');

  const commitAt = ep.events.findIndex((e) => e.kind === 'commit');
  const commit = commitAt >= 0 ? (ep.events[commitAt] as Extract<ObservedEvent, { kind: 'commit' }>) : undefined;
  if (commit) {
    const before = ep.events.slice(0, commitAt).filter((e): e is Extract<ObservedEvent, { kind: 'sql' }> => e.kind === 'sql');
    const previous = before[before.length - 1];
    const blank = commit.answers.every((a) => a.trim() === '');
    if (before.length === 0) found.add('commit_before_sql');
    if (blank && !dataChange) found.add('empty_commit_on_question');
    if (previous && isErrorKind(previous.resultKind)) found.add('give_up_after_error');
    if (dataChange && !before.some((e) => WRITE_RE.test(e.sql))) found.add('mutation_without_write');
    if (previous && previous.resultKind === 'empty' && READ_RE.test(previous.sql) && !dataChange) found.add('empty_result_commit');
    if (!dataChange && before.length > 0) {
      const cells = before.flatMap((e) => resultCells(e.result));
      if (commit.answers.some((a) => ANSWER_SENTENCE_RE.test(a) || alteredFromResults(a.trim(), cells))) found.add('literal_altered');
    }
  }
  for (const e of sqls) {
    if (WRITE_RE.test(e.sql) && quotedLiterals(e.sql).some((v) => alteredFromQuestion(v, ep.question))) found.add('literal_altered');
  }
  return found;
}

/** Lower-cased, whitespace-collapsed SQL without a trailing semicolon (the environment's rule, linear time). */
export { normalizeSql };

export interface SignatureTally {
  id: SignatureId;
  /** Failed (agent-caused) episodes that show it. */
  failed: number;
  /** Passed episodes that show it (context only; not used to keep a signature). */
  passed: number;
}

export interface BatchTally {
  episodes: number;
  /** Episodes ended by an infrastructure failure: not evidence, left out of every count. */
  infrastructure: number;
  scored: number;
  failed: number;
  signatures: SignatureTally[];
}

/** Counts, per signature, the scored episodes of a batch that show it. Infrastructure failures are skipped. */
export function tallySignatures(episodes: readonly EpisodeRecord[], passThreshold: number): BatchTally {
  const failed = new Map<SignatureId, number>();
  const passed = new Map<SignatureId, number>();
  let infrastructure = 0;
  let failedCount = 0;
  for (const record of episodes) {
    if (isInfraOutcome(record.outcome)) {
      infrastructure++;
      continue;
    }
    const isFailure = !(record.reward >= passThreshold);
    if (isFailure) failedCount++;
    const target = isFailure ? failed : passed;
    for (const id of detectSignatures(observeEpisode(record))) target.set(id, (target.get(id) ?? 0) + 1);
  }
  return {
    episodes: episodes.length,
    infrastructure,
    scored: episodes.length - infrastructure,
    failed: failedCount,
    signatures: SIGNATURE_IDS.map((id) => ({ id, failed: failed.get(id) ?? 0, passed: passed.get(id) ?? 0 })),
  };
}
