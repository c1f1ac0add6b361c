import type { SqlOutcome } from './backend.js';
import { pyReprRows } from './python-repr.js';

/** Longest result text shown to the agent, in Python characters (code points). */
export const RESULT_TEXT_LIMIT = 800;
export const TRUNCATION_MARK = '[TRUNCATED]';
/** What the FC harness sends when `asyncio.wait_for` gives up on a statement (60 s there). */
export const SQL_TIMEOUT_TEXT = 'Error: SQL execution timed out.';
/** What the FC harness sends instead of an empty response string. */
export const EMPTY_RESPONSE_TEXT = 'No response from database.';

/** Python's `s[:limit] + mark` when `len(s) > limit`, counting code points as Python does. */
export function truncateResultText(text: string, limit = RESULT_TEXT_LIMIT): string {
  if (text.length <= limit) return text;
  const chars = Array.from(text);
  return chars.length > limit ? chars.slice(0, limit).join('') + TRUNCATION_MARK : text;
}

/**
 * The tool-message text the agent sees for one executed statement, exactly as AgentBench FC builds it
 * (`interaction.py` then `task.py`):
 * - rows: `str(cursor.fetchall())`, e.g. `[('Women +60kg Bronze',)]`, `[(3,)]`, `[(167.0,)]`; DML gives `[]`;
 * - error: the connector's `str(error)`, e.g. `1064 (42000): You have an error in your SQL syntax; …`;
 * - both cut to 800 characters plus `[TRUNCATED]`;
 * - an empty string becomes `No response from database.` (never happens for rows, since `str([])` is `[]`);
 * - timeout: `Error: SQL execution timed out.` (set after truncation, so never cut).
 *
 * The v0.2 text protocol builds the same string, except that it has no timeout and sends an empty
 * string as is; only an error with an empty message would differ.
 */
export function formatSqlOutcome(outcome: SqlOutcome): string {
  if (outcome.kind === 'timeout') return SQL_TIMEOUT_TEXT;
  // Rows past what the cut keeps are not written out: a prefix of more than 2 × limit UTF-16 units holds
  // more than `limit` code points, so it is cut to the same text as the whole.
  const text = outcome.kind === 'rows' ? pyReprRows(outcome.rows, 2 * RESULT_TEXT_LIMIT + 1) : outcome.message;
  const cut = truncateResultText(text);
  return cut === '' ? EMPTY_RESPONSE_TEXT : cut;
}

/** The text FC sends when running a statement raised outside the database call: `Error executing query: …`. */
export function formatExecutionFailure(message: string): string {
  return `Error executing query: ${message}`;
}
