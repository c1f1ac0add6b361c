import type { HookPoint } from '../environment.js';
import { answerShapeOf, type DbBenchEpisodeState } from './episode-state.js';

/** A table name reduced to characters safe to show in hints (letters, digits, space, `_`, `-`). */
function sanitizeTableName(name: string): string {
  return name.replace(/[^\p{L}\p{N} _-]/gu, '').replace(/\s+/g, ' ').trim();
}

/**
 * The DBBench hook context of protocol.md §4.4: `action`, `state`, `task`, `dbbench`, `predicates`.
 * There is no observation, step, world or admissible list. Nothing here comes from the label or gold SQL.
 */
export function buildDbBenchHookContext(point: HookPoint, st: DbBenchEpisodeState): Record<string, unknown> {
  const call = 'call' in point ? point.call : undefined;
  const tool = call?.tool ?? '';
  const query = tool === 'execute_sql' ? String(call?.firstValue ?? '') : '';
  const answers = tool === 'commit_final_answer' ? answerList(call?.firstValue) : [];
  const type = st.task.type;
  const mutationTask = ['INSERT', 'UPDATE', 'DELETE'].includes(type.toUpperCase());
  const lastTwo = st.sqlHistory.slice(-2);

  const action = {
    tool,
    query,
    answers,
    h2_action: null,
    h2_blocked_reason: '',
    commit_gate_action: null,
    commit_gate_reason: '',
  };
  const state = {
    sql_count: st.sqlCount,
    last_sql: st.lastSql,
    last_result: st.lastResult,
    last_error_kind: st.lastErrorKind,
    last_error_text: st.lastErrorText,
    last_result_was_error: st.lastResultWasError,
    error_streak: st.errorStreak,
    empty_streak: st.emptyStreak,
    text_only_streak: st.textOnlyStreak,
    loop_streak: st.loopStreak,
    mutation_attempted: st.mutationAttempted,
    candidate_answer: [...st.candidateAnswer],
    candidate_answer_shape: st.candidateAnswerShape,
    candidate_implausible: st.candidateImplausible,
    remaining_rounds: point.remaining,
  };
  const task = {
    task_type: type,
    answer_shape: answerShapeOf(type),
    target_table: sanitizeTableName(st.task.table.name),
    description: st.task.description,
  };
  const dbbench: Record<string, unknown> = {
    sql_history: [...st.sqlHistory],
    sql_history_raw: [...st.sqlHistoryRaw],
    discovered_columns: structuredClone(st.discoveredColumns),
    round: point.round,
  };
  if (point.hook === 'on_post_step') dbbench.db_response = point.observation;
  const predicates = {
    execute_sql: tool === 'execute_sql',
    commit_final_answer: tool === 'commit_final_answer',
    no_sql_yet: st.sqlCount === 0,
    commit_before_sql: tool === 'commit_final_answer' && st.sqlCount === 0,
    commit_empty_answer: tool === 'commit_final_answer' && answers.length === 0,
    mutation_task: mutationTask,
    mutation_not_attempted: mutationTask && !st.mutationAttempted,
    last_result_error: st.lastResultWasError,
    last_result_empty: st.lastErrorKind === 'empty',
    unknown_column_error: st.lastErrorKind === 'unknown_col',
    syntax_error: st.lastErrorKind === 'syntax',
    repeated_sql: (lastTwo.length === 2 && lastTwo[0] === lastTwo[1]) || st.loopStreak > 0,
    candidate_answer_available: st.candidateAnswer.length > 0,
    remaining_rounds_low: point.remaining <= 3,
    text_only_loop: st.textOnlyStreak >= 2,
  };
  return { action, state, task, dbbench, predicates };
}

/** The committed answers as the original reads them: a list stays a list (of strings), anything else becomes `[str(value)]`. */
export function answerList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  if (value === undefined || value === null) return [];
  return [typeof value === 'string' ? value : JSON.stringify(value)];
}
