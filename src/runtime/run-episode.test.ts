import { afterAll, describe, expect, it } from 'vitest';

import { resolveDataDir } from '../config/data-dir.js';
import { dbBenchEnvironment } from '../benchmarks/dbbench/environment.js';
import { createSqliteBackend } from '../environments/dbbench/sqlite-backend.js';
import { createNativeHookProvider, NO_HOOKS } from '../hooks/native-hooks.js';
import { createScriptedModel } from '../models/scripted-model.js';
import { runEpisode } from './run-episode.js';

const dataDir = resolveDataDir();
const env = dbBenchEnvironment({ dataDir, split: 'dev', backend: createSqliteBackend() });
afterAll(() => env.close());

// dev #0 asks about the US ambassadors to Colombia; its label ('March 19, 1998') is graded, whatever SQL ran.
const TABLE = '`US Ambassadors and Envoy Extraordinary to Colombia`';
const GOLD_QUERY = `SELECT \`Representative\` FROM ${TABLE} WHERE \`Presentation of Credentials\` = 'January 20, 1887'`;

async function play(turns: Parameters<typeof createScriptedModel>[0], hooks = NO_HOOKS, index = 0) {
  const model = createScriptedModel(turns);
  const { record } = await runEpisode({ model, episode: await env.openEpisode(index), hooks: await hooks.openEpisode() });
  return { record, model };
}

describe('runEpisode on DBBench', () => {
  it('executes SQL, shows the result as the original does, and grades the commit', async () => {
    const { record, model } = await play([
      { toolCalls: [{ name: 'execute_sql', arguments: { query: GOLD_QUERY } }] },
      { toolCalls: [{ name: 'commit_final_answer', arguments: { answers: ['March 19, 1998'] } }] },
    ]);
    expect(record.outcome).toBe('success');
    expect(record.reward).toBe(1);
    expect(record.rounds).toBe(2);
    expect(record.steps[0]!.observation).toBe("[('Dabney H. Maury',)]");
    const first = model.calls[0]!;
    expect(first.messages[0]!.role).toBe('system');
    expect(first.messages[1]).toEqual({ role: 'user', content: expect.stringMatching(/^Additional table information about the question: .*\nQuestion: What is the Presentation/s) });
    expect(first.tools?.map((t) => t.name)).toEqual(['execute_sql', 'commit_final_answer']);
  });

  it('processes every tool call of a turn, nudges text-only turns, and reports wrong answers', async () => {
    const { record, model } = await play([
      { content: 'I think the answer is X.' },
      {
        toolCalls: [
          { name: 'execute_sql', arguments: { query: `SELECT COUNT(*) FROM ${TABLE}` } },
          { name: 'lookup', arguments: { q: 1 } },
          { name: 'execute_sql', arguments: '{not json' },
        ],
      },
      { toolCalls: [{ name: 'commit_final_answer', arguments: { answers: ['wrong'] } }] },
    ]);
    expect(record.outcome).toBe('wrong_answer');
    const second = model.calls[1]!.messages;
    expect(second.at(-1)).toEqual({ role: 'user', content: 'No executable tool calls found. Please call a tool.' });
    const third = model.calls[2]!.messages.slice(-3);
    expect(third.map((m) => (m.role === 'tool' ? m.content : m.role))).toEqual([
      expect.stringMatching(/^\[\(\d+,\)\]$/),
      'Invalid function call. Please use execute_sql or commit_final_answer.',
      'Error: Failed to parse tool call arguments.',
    ]);
  });

  it('ends at the round limit without a final answer', async () => {
    const small = dbBenchEnvironment({ dataDir, split: 'dev', backend: createSqliteBackend(), maxRounds: 2 });
    const model = createScriptedModel([{ content: 'hmm' }, { content: 'hmm' }]);
    const { record } = await runEpisode({ model, episode: await small.openEpisode(0), hooks: await NO_HOOKS.openEpisode() });
    await small.close();
    expect(record.outcome).toBe('round_limit');
    expect(record.rounds).toBe(2);
  });

  it('honours DBBench hook effects: init tips, pre-hints, blocks as tool replies, post-step hints; rewrite ignored', async () => {
    const hooks = createNativeHookProvider([
      { hook: 'on_init', fn: () => ({ skills: ['Quote identifiers with backticks.'], tool_hint: 'Run SQL before committing.' }) },
      { hook: 'make_pre_hint', fn: (ctx) => ((ctx.dbbench as { round: number }).round === 1 ? { message: 'Start with DESCRIBE.' } : null) },
      {
        hook: 'on_before_action',
        fn: (ctx) => ((ctx.predicates as Record<string, boolean>).commit_before_sql ? { kind: 'block_and_prompt', message: 'Run SQL first.' } : null),
      },
      { hook: 'on_before_action', fn: () => ({ kind: 'rewrite_action', action: 'select 1' }) },
      {
        hook: 'on_post_step',
        fn: (ctx, nb) => {
          nb.calls = ((nb.calls as number) ?? 0) + 1;
          return (ctx.state as { sql_count: number }).sql_count === 1 ? { kind: 'inject_hint', message: `seen ${String(nb.calls)}` } : null;
        },
      },
      { hook: 'on_post_step', fn: () => { throw new Error('boom'); } },
    ]);
    const { record, model } = await play(
      [
        { toolCalls: [{ name: 'commit_final_answer', arguments: { answers: ['March 19, 1998'] } }] },
        { toolCalls: [{ name: 'execute_sql', arguments: { query: GOLD_QUERY } }] },
        { toolCalls: [{ name: 'commit_final_answer', arguments: { answers: ['March 19, 1998'] } }] },
      ],
      hooks,
    );
    expect(record.outcome).toBe('success');
    const system = model.calls[0]!.messages[0]!;
    expect(system.role === 'system' && system.content).toMatch(/Some tips that may help for this task:\n- Quote identifiers with backticks\.\n\nAdditional reusable tool-use hint from the harness:\nRun SQL before committing\.$/);
    expect(model.calls[0]!.messages.at(-1)).toEqual({ role: 'user', content: 'Start with DESCRIBE.' });
    expect(model.calls[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: 'Run SQL first.' });
    expect(model.calls[2]!.messages.slice(-2)).toMatchObject([{ role: 'tool' }, { role: 'user', content: 'seen 1' }]);
    expect(record.steps.map((s) => s.status)).toEqual(['blocked', 'executed', 'executed']);
    const summary = record.hookTrace.map((t) => `${t.round}:${t.hook}:${t.effect}:${t.disposition}${t.fault ? `:${t.fault.kind}` : ''}`);
    expect(summary).toEqual([
      '0:on_init:init:applied',
      '1:make_pre_hint:hint:applied',
      '1:on_before_action:block_and_prompt:applied',
      '1:on_before_action:rewrite_action:ignored',
      '2:make_pre_hint:none:none',
      '2:on_before_action:none:none',
      '2:on_before_action:rewrite_action:ignored',
      '2:on_post_step:inject_hint:applied',
      '2:on_post_step:none:none:exception',
      '3:make_pre_hint:none:none',
      '3:on_before_action:none:none',
      '3:on_before_action:rewrite_action:ignored',
    ]);
  });

  it('turns a failing model server into model_error, not a target failure', async () => {
    const { record } = await play([{ error: { message: 'HTTP 503 upstream down', status: 503 } }]);
    expect(record.outcome).toBe('model_error');
    expect(String(record.detail.error)).toMatch(/503/);
  });
});
