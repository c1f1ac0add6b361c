import { describe, expect, it } from 'vitest';

import type { DbBenchTask } from './dbbench-task.js';
import { DbBenchEpisodeState } from './episode-state.js';
import { answerList, buildDbBenchHookContext } from './hook-context.js';

const task: DbBenchTask = {
  index: 3,
  description: 'How many rows?',
  addDescription: 'The name of this table is T t, and the headers of this table are a,b.',
  type: 'counting',
  kind: 'query',
  label: ['7'],
  table: { name: 'T t (1)', columns: ['a', 'b'], rows: [['x', 'y']] },
};

describe('the DBBench hook ctx (protocol.md §4.4)', () => {
  it('has exactly the documented keys and no ground truth', () => {
    const st = new DbBenchEpisodeState(task);
    const ctx = buildDbBenchHookContext({ hook: 'make_pre_hint', round: 1, remaining: 20 }, st);
    expect(Object.keys(ctx).sort()).toEqual(['action', 'dbbench', 'predicates', 'state', 'task']);
    expect(Object.keys(ctx.action as object).sort()).toEqual(
      ['answers', 'commit_gate_action', 'commit_gate_reason', 'h2_action', 'h2_blocked_reason', 'query', 'tool'].sort(),
    );
    expect(Object.keys(ctx.state as object).sort()).toEqual(
      [
        'sql_count', 'last_sql', 'last_result', 'last_error_kind', 'last_error_text', 'last_result_was_error', 'error_streak', 'empty_streak',
        'text_only_streak', 'loop_streak', 'mutation_attempted', 'candidate_answer', 'candidate_answer_shape', 'candidate_implausible', 'remaining_rounds',
      ].sort(),
    );
    expect(Object.keys(ctx.task as object).sort()).toEqual(['answer_shape', 'description', 'target_table', 'task_type']);
    expect(Object.keys(ctx.dbbench as object).sort()).toEqual(['discovered_columns', 'round', 'sql_history', 'sql_history_raw']);
    expect(Object.keys(ctx.predicates as object).sort()).toEqual(
      [
        'execute_sql', 'commit_final_answer', 'no_sql_yet', 'commit_before_sql', 'commit_empty_answer', 'mutation_task', 'mutation_not_attempted',
        'last_result_error', 'last_result_empty', 'unknown_column_error', 'syntax_error', 'repeated_sql', 'candidate_answer_available',
        'remaining_rounds_low', 'text_only_loop',
      ].sort(),
    );
    const text = JSON.stringify(ctx);
    expect(text).not.toContain('"7"');
    expect(text).not.toMatch(/observation|admissible|world|"step"/);
    expect((ctx.task as { target_table: string }).target_table).toBe('T t 1');
  });

  it('computes the predicates from the episode', () => {
    const st = new DbBenchEpisodeState(task);
    const commit = { id: 'c', tool: 'commit_final_answer', args: { answers: [] }, firstValue: [] };
    let ctx = buildDbBenchHookContext({ hook: 'on_before_action', round: 1, remaining: 3, call: commit }, st);
    let p = ctx.predicates as Record<string, boolean>;
    expect([p.commit_before_sql, p.commit_empty_answer, p.no_sql_yet, p.remaining_rounds_low, p.mutation_task]).toEqual([true, true, true, true, false]);
    st.updateAfterSql('SELECT COUNT(*) FROM `T t (1)`', '[(1,)]');
    st.updateAfterSql('SELECT COUNT(*) FROM `T t (1)`', '[(1,)]');
    st.noteTextOnlyTurn();
    st.noteTextOnlyTurn();
    const sql = { id: 's', tool: 'execute_sql', args: { query: 'SELECT 1' }, firstValue: 'SELECT 1' };
    ctx = buildDbBenchHookContext({ hook: 'on_post_step', round: 4, remaining: 16, call: sql, observation: '[(1,)]' }, st);
    p = ctx.predicates as Record<string, boolean>;
    expect([p.execute_sql, p.repeated_sql, p.candidate_answer_available, p.text_only_loop, p.no_sql_yet]).toEqual([true, true, true, true, false]);
    expect((ctx.dbbench as { db_response: string }).db_response).toBe('[(1,)]');
    expect((ctx.action as { query: string }).query).toBe('SELECT 1');
    expect((ctx.state as { candidate_answer: string[] }).candidate_answer).toEqual(['1']);
  });

  it('reads committed answers as the original does', () => {
    expect(answerList(['a', 1])).toEqual(['a', '1']);
    expect(answerList('x')).toEqual(['x']);
    expect(answerList(undefined)).toEqual([]);
  });
});
