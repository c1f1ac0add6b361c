import { afterAll, describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import { dbBenchEnvironment } from '../../benchmarks/dbbench/environment.js';
import { createSqliteBackend } from '../../environments/dbbench/sqlite-backend.js';
import { successAt2 } from '../../evaluation/success-at-2.js';
import { NO_HOOKS } from '../../hooks/native-hooks.js';
import { createScriptedModel, type ScriptedTurn } from '../../models/scripted-model.js';
import { runEpisode } from '../run-episode.js';
import { CRITIQUE_MARKER, MEMORY_MARKER, REACT_MARKER, REFINE_MARKER, REFLECT_MARKER, reflectAndRetry, strategyModel, TRAJECTORY_ACT_MARKER, TRAJECTORY_REFLECT_MARKER, type StrategyName } from './index.js';

const dataDir = resolveDataDir();
const env = dbBenchEnvironment({ dataDir, split: 'dev', backend: createSqliteBackend() });
afterAll(() => env.close());

// dev #0: its label is 'March 19, 1998' (graded on the committed answer).
const TABLE = '`US Ambassadors and Envoy Extraordinary to Colombia`';
const QUERY = { toolCalls: [{ name: 'execute_sql', arguments: { query: `SELECT COUNT(*) FROM ${TABLE}` } }] };
const RIGHT = { toolCalls: [{ name: 'commit_final_answer', arguments: { answers: ['March 19, 1998'] } }] };
const WRONG = { toolCalls: [{ name: 'commit_final_answer', arguments: { answers: ['wrong'] } }] };
const KEEP = { content: '{"verdict":"keep","issue":"","suggested_action":""}' };
const REVISE = { content: '```json\n{"verdict":"revise","issue":"the answer was never looked up","suggested_action":"commit the date"}\n```' };

async function play(strategy: StrategyName, turns: ScriptedTurn[]) {
  const scripted = createScriptedModel(turns);
  const { record } = await runEpisode({ model: strategyModel(scripted, strategy), episode: await env.openEpisode(0), hooks: await NO_HOOKS.openEpisode() });
  return { record, calls: scripted.calls, left: scripted.remaining() };
}

const lastUser = (messages: readonly { role: string; content: string | null }[]) => messages.at(-1)?.content ?? '';

describe('ReAct', () => {
  it('makes one call per turn with the Thought/Action block at the end of the system prompt', async () => {
    const { record, calls } = await play('react', [{ ...QUERY, content: 'Thought: count the rows first.' }, { ...RIGHT, content: 'Thought: commit.' }]);
    expect(record.outcome).toBe('success');
    expect(record.rounds).toBe(2);
    expect(record.usage.modelCalls).toBe(2);
    for (const call of calls) {
      expect(call.messages[0]!.role).toBe('system');
      expect(call.messages[0]!.content).toContain(REACT_MARKER);
      expect(call.messages[0]!.content!.indexOf(REACT_MARKER)).toBeGreaterThan(0);
      expect(call.tools?.map((t) => t.name)).toEqual(['execute_sql', 'commit_final_answer']);
    }
    // The block is added to the request, not to the stored conversation.
    expect(record.messages[0]!.content).not.toContain(REACT_MARKER);
    expect(record.detail.strategyTurns).toEqual([
      { round: 1, strategy: 'react', thoughtChars: 'Thought: count the rows first.'.length, toolCalls: 1 },
      { round: 2, strategy: 'react', thoughtChars: 'Thought: commit.'.length, toolCalls: 1 },
    ]);
  });
});

describe('Self-Refine', () => {
  it('draft then critique (no tools) per turn; a kept valid draft is executed: two calls per turn', async () => {
    const { record, calls, left } = await play('self_refine', [QUERY, KEEP, RIGHT, KEEP]);
    expect(left).toBe(0);
    expect(record.outcome).toBe('success');
    expect(record.rounds).toBe(2);
    expect(record.usage.modelCalls).toBe(4);
    expect(calls.map((c) => (c.tools ? 'tools' : 'none'))).toEqual(['tools', 'none', 'tools', 'none']);
    expect(lastUser(calls[1]!.messages)).toContain(CRITIQUE_MARKER);
    expect(lastUser(calls[1]!.messages)).toContain('execute_sql');
    expect(calls[1]!.maxTokens).toBe(512);
    // The critique request is the draft's conversation plus the critique prompt; the draft itself is not in it.
    expect(calls[1]!.messages.slice(0, -1)).toEqual(calls[0]!.messages);
    const turns = record.detail.strategyTurns as { decision: string }[];
    expect(turns.map((t) => t.decision)).toEqual(['critic_keep_draft', 'critic_keep_draft']);
  });

  it('a revise verdict asks for a refined action (with tools) that replaces the draft: three calls', async () => {
    const { record, calls } = await play('self_refine', [WRONG, REVISE, RIGHT]);
    expect(record.outcome).toBe('success');
    expect(record.rounds).toBe(1);
    expect(record.usage.modelCalls).toBe(3);
    const refine = lastUser(calls[2]!.messages);
    expect(refine).toContain(REFINE_MARKER);
    expect(refine).toContain('the answer was never looked up');
    expect(refine).toContain('commit_final_answer');
    expect(refine).toContain('wrong');
    expect(calls[2]!.tools).toBeDefined();
    const [turn] = record.detail.strategyTurns as { decision: string; verdict: string }[];
    expect(turn).toMatchObject({ decision: 'refined_changed', verdict: 'revise' });
  });

  it('an invalid refinement or a failing critic falls back to the draft', async () => {
    const invalid = await play('self_refine', [RIGHT, REVISE, { toolCalls: [{ name: 'drop_table', arguments: {} }] }]);
    expect(invalid.record.outcome).toBe('success');
    expect((invalid.record.detail.strategyTurns as { decision: string }[])[0]!.decision).toBe('draft_gate_refined_invalid');
    const failing = await play('self_refine', [RIGHT, { error: { message: 'critic down', status: 400 } }]);
    expect(failing.record.outcome).toBe('success');
    expect(failing.record.usage.modelCalls).toBe(1);
    expect((failing.record.detail.strategyTurns as { decision: string }[])[0]!.decision).toBe('draft_fallback_critic_error');
  });
});

describe('Reflection', () => {
  async function reflect(turns: ScriptedTurn[]) {
    const scripted = createScriptedModel(turns);
    const model = strategyModel(scripted, 'reflection');
    const episode = await env.openEpisode(0);
    const first = await runEpisode({ model, episode, hooks: await NO_HOOKS.openEpisode() });
    const played = await reflectAndRetry({
      model,
      first,
      tools: episode.tools ?? [],
      playAgain: async (m) => runEpisode({ model: m, episode: await env.openEpisode(0), hooks: await NO_HOOKS.openEpisode() }),
    });
    return { record: played.record, calls: scripted.calls, left: scripted.remaining() };
  }

  it('after a failed episode: one reflection call without tools, then a second episode with the reflection in its system prompt', async () => {
    const { record, calls, left } = await reflect([WRONG, { content: 'I committed without querying; look the date up first.' }, QUERY, RIGHT]);
    expect(left).toBe(0);
    expect(record.outcome).toBe('wrong_answer');
    expect(calls[1]!.tools).toBeUndefined();
    expect(lastUser(calls[1]!.messages)).toContain(REFLECT_MARKER);
    expect(calls[1]!.messages.some((m) => m.role === 'assistant' && JSON.stringify(m).includes('wrong'))).toBe(true);
    for (const call of calls.slice(2)) {
      expect(call.messages[0]!.content).toContain(MEMORY_MARKER);
      expect(call.messages[0]!.content).toContain('look the date up first');
    }
    expect(calls[0]!.messages[0]!.content).not.toContain(MEMORY_MARKER);
    const detail = record.detail.reflection as { text: string; retry: { outcome: string; rounds: number } };
    expect(detail.text).toBe('I committed without querying; look the date up first.');
    expect(detail.retry).toMatchObject({ outcome: 'success', rounds: 2 });
    // The stored second conversation is what the model saw: the reflection in its system prompt.
    expect((detail.retry as unknown as { messages: { content: string }[] }).messages[0]!.content).toBe(calls[2]!.messages[0]!.content);
    expect(successAt2([record])).toMatchObject({ tasks: 1, success1: 0, success2: 1, retried: 1, rescued: 1, successAt1: 0, successAt2: 1 });
  });

  it('a successful first episode gets no reflection; a failed reflection call plays no second episode', async () => {
    const ok = await reflect([RIGHT]);
    expect(ok.calls).toHaveLength(1);
    expect(ok.record.detail.reflection).toBeUndefined();
    const broken = await reflect([WRONG, { error: { message: 'server gone', status: 400 } }]);
    expect(broken.calls).toHaveLength(2);
    expect(broken.record.detail.reflection).toMatchObject({ error: expect.stringContaining('server gone') });
    expect(successAt2([ok.record, broken.record])).toMatchObject({ tasks: 2, success1: 1, success2: 1, retried: 0, reflectionErrors: 1 });
  });
});

describe('Trajectory Reflection (step level)', () => {
  it('before every action: a reflection without tools (512 tokens), then the action with it as a last user message; only the action enters the conversation', async () => {
    const { record, calls, left } = await play('trajectory_reflection', [{ content: 'Nothing is known yet; count the rows.' }, QUERY, { content: 'One count is known; commit the date.' }, RIGHT]);
    expect(left).toBe(0);
    expect(record.outcome).toBe('success');
    expect(record.rounds).toBe(2);
    expect(record.usage.modelCalls).toBe(4);
    expect(calls.map((c) => (c.tools ? 'tools' : 'none'))).toEqual(['none', 'tools', 'none', 'tools']);
    expect(calls[0]!.maxTokens).toBe(512);
    expect(calls[0]!.toolChoice).toBeUndefined();
    expect(lastUser(calls[0]!.messages)).toContain(TRAJECTORY_REFLECT_MARKER);
    expect(lastUser(calls[0]!.messages)).toContain('- execute_sql');
    const act = lastUser(calls[1]!.messages);
    expect(act).toContain(TRAJECTORY_ACT_MARKER);
    expect(act).toContain('<private_reflection>\nNothing is known yet; count the rows.\n</private_reflection>');
    // The second reflection sees the executed action and its observation, never the first reflection.
    expect(calls[2]!.messages.slice(0, -1)).toEqual(record.messages.slice(0, calls[2]!.messages.length - 1));
    expect(JSON.stringify(record.messages)).not.toContain('Nothing is known yet');
    expect(record.detail.strategyTurns).toMatchObject([
      { round: 1, strategy: 'trajectory_reflection', decision: 'action_with_reflection', reflection: 'Nothing is known yet; count the rows.' },
      { round: 2, strategy: 'trajectory_reflection', decision: 'action_with_reflection', reflection: 'One count is known; commit the date.' },
    ]);
  });

  it('a failed or empty reflection leaves the action call with the plain conversation', async () => {
    const failing = await play('trajectory_reflection', [{ error: { message: 'reflector down', status: 400 } }, RIGHT]);
    expect(failing.record.outcome).toBe('success');
    expect(failing.record.usage.modelCalls).toBe(1);
    expect(lastUser(failing.calls[1]!.messages)).not.toContain(TRAJECTORY_ACT_MARKER);
    expect(failing.record.detail.strategyTurns).toMatchObject([{ decision: 'action_without_reflection_error', reflectionError: expect.stringContaining('reflector down') }]);
    const empty = await play('trajectory_reflection', [{ content: '  ' }, RIGHT]);
    expect(empty.record.usage.modelCalls).toBe(2);
    expect(empty.calls[1]!.messages).toEqual(empty.calls[0]!.messages.slice(0, -1));
    expect(empty.record.detail.strategyTurns).toMatchObject([{ decision: 'action_without_reflection_empty' }]);
  });
});
