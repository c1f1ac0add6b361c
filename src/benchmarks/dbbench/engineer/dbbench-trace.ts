/**
 * One DBBench episode as evidence text (the original's `render_trace`, protocol.md §2.4), and the
 * per-episode signals the heuristic batch overview counts. Both read only `EpisodeEvidence`.
 */
import type { ChatMessage } from '../../../episode/index.js';
import { classifySqlResult, normalizeSql } from '../../../environments/dbbench/episode-state.js';
import type { EpisodeEvidence } from '../../../engineer/episode-evidence.js';
import { clipHead, collapseWhitespace, formatReward, tidyLines } from '../../../engineer/packet-text.js';
import { sanitizeEvidenceText, type SanitizeMode } from '../../../engineer/sanitize-evidence.js';

export interface TraceRenderLimits {
  maxMessages: number;
  maxToolResultChars: number;
  maxAssistantChars: number;
  maxUserChars: number;
  maxToolArgsChars: number;
  maxCallsPerMessage: number;
}

export const TRACE_TRUNCATED_MARK = '...[trace truncated]';

/** User messages the original leaves out of DBBench traces besides system messages. */
function isSkipped(message: ChatMessage): boolean {
  return message.role === 'system' || (message.role === 'user' && message.content.trimStart().startsWith('Evaluation metadata:'));
}

/**
 * Renders one trace:
 * ```
 * ### Trace index=<i> status=<outcome> reward=<r> rounds=<n>
 * USER: …              (≤ maxUserChars)
 * ASSISTANT_TEXT: …    (≤ maxAssistantChars)
 * ASSISTANT_TOOL <name>: <args, whitespace collapsed, ≤ maxToolArgsChars>   (≤ maxCallsPerMessage per message)
 * TOOL_RESULT: …       (≤ maxToolResultChars)
 * ...[trace truncated] (after maxMessages rendered messages)
 * ```
 * System messages and "Evaluation metadata:" user messages are skipped and do not count.
 */
export function renderDbBenchTrace(episode: EpisodeEvidence, limits: TraceRenderLimits, sanitize: SanitizeMode): string {
  const clean = (text: string): string => sanitizeEvidenceText(text, sanitize);
  const lines = [`### Trace index=${episode.index} status=${episode.outcome} reward=${formatReward(episode.reward)} rounds=${episode.rounds}`];
  const shown = episode.messages.filter((m) => !isSkipped(m));
  for (const message of shown.slice(0, limits.maxMessages)) {
    switch (message.role) {
      case 'user':
        lines.push(`USER: ${clipHead(clean(tidyLines(message.content)), limits.maxUserChars)}`);
        break;
      case 'tool':
        lines.push(`TOOL_RESULT: ${clipHead(clean(tidyLines(message.content)), limits.maxToolResultChars)}`);
        break;
      case 'assistant': {
        const text = tidyLines(message.content ?? '');
        const calls = message.toolCalls ?? [];
        if (text !== '' || calls.length === 0) {
          lines.push(`ASSISTANT_TEXT: ${text === '' ? '(empty)' : clipHead(clean(text), limits.maxAssistantChars)}`);
        }
        for (const call of calls.slice(0, limits.maxCallsPerMessage)) {
          lines.push(`ASSISTANT_TOOL ${collapseWhitespace(call.name)}: ${clipHead(clean(collapseWhitespace(call.arguments)), limits.maxToolArgsChars)}`);
        }
        const hidden = calls.length - limits.maxCallsPerMessage;
        if (hidden > 0) lines.push(`ASSISTANT_TOOL ...[${hidden} more tool call${hidden === 1 ? '' : 's'} not shown]`);
        break;
      }
      case 'system':
        break;
    }
  }
  const rest = shown.length - limits.maxMessages;
  if (rest > 0) lines.push(`${TRACE_TRUNCATED_MARK} (${rest} more message${rest === 1 ? '' : 's'})`);
  return lines.join('\n');
}

/** What the heuristic overview counts in one episode, from its messages only. */
export interface DbBenchTraceSignals {
  sqlCalls: number;
  sqlErrors: number;
  /** A commit was sent before any execute_sql call (the `commit_before_sql` predicate). */
  commitBeforeSql: boolean;
  commits: number;
  /** A commit whose answer list was empty. */
  emptyCommit: boolean;
  /** execute_sql calls whose SQL equals the one sent just before it. */
  backToBackRepeats: number;
  /** Assistant turns without any tool call. */
  textOnlyTurns: number;
}

function firstArgument(raw: string): unknown {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return Object.values(parsed)[0];
  } catch {
    // Unparsable arguments: the runtime answered with an error; there is no value to read.
  }
  return undefined;
}

export function dbBenchTraceSignals(episode: EpisodeEvidence): DbBenchTraceSignals {
  const signals: DbBenchTraceSignals = {
    sqlCalls: 0,
    sqlErrors: 0,
    commitBeforeSql: false,
    commits: 0,
    emptyCommit: false,
    backToBackRepeats: 0,
    textOnlyTurns: 0,
  };
  const callTool = new Map<string, string>();
  let lastSql: string | undefined;
  for (const message of episode.messages) {
    if (message.role === 'assistant') {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) signals.textOnlyTurns++;
      for (const call of calls) {
        callTool.set(call.id, call.name);
        if (call.name === 'execute_sql') {
          signals.sqlCalls++;
          const sql = normalizeSql(String(firstArgument(call.arguments) ?? ''));
          if (lastSql !== undefined && sql === lastSql) signals.backToBackRepeats++;
          lastSql = sql;
        } else if (call.name === 'commit_final_answer') {
          if (signals.sqlCalls === 0) signals.commitBeforeSql = true;
          signals.commits++;
          const answers = firstArgument(call.arguments);
          if (Array.isArray(answers) && answers.length === 0) signals.emptyCommit = true;
        }
      }
    } else if (message.role === 'tool' && callTool.get(message.toolCallId) === 'execute_sql') {
      if (classifySqlResult(message.content).isError) signals.sqlErrors++;
    }
  }
  return signals;
}
