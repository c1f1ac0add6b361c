import { describe, expect, it } from 'vitest';

import { EPISODE_RECORD_VERSION, type ChatMessage, type EpisodeRecord } from '../../episode/index.js';
import { sharegptProblem, toOpenAiMessage, toSharegptTurns, trimToLastAssistant } from './chat-formats.js';
import { taskIdentity, type SourcedEpisode } from './collect-episodes.js';
import { selectDemos } from './select-demos.js';

const call = (id: string, name: string, args: string): ChatMessage => ({ role: 'assistant', content: `calling ${name}`, toolCalls: [{ id, name, arguments: args }] });

const toolConversation: ChatMessage[] = [
  { role: 'system', content: 'S' },
  { role: 'user', content: 'Q' },
  call('c1', 'execute_sql', '{"query":"SELECT 1"}'),
  { role: 'tool', toolCallId: 'c1', content: 'error' },
  { role: 'user', content: 'hint: describe the table' },
  { role: 'assistant', content: null, toolCalls: [{ id: 'c2', name: 'execute_sql', arguments: '{"query":"DESCRIBE t"}' }, { id: 'c3', name: 'execute_sql', arguments: 'not json' }] },
  { role: 'tool', toolCallId: 'c2', content: 'cols' },
  { role: 'tool', toolCallId: 'c3', content: 'bad arguments' },
  call('c4', 'commit_final_answer', '{"answers":["1"]}'),
  { role: 'tool', toolCallId: 'c4', content: 'done' },
];

function episode(index: number, reward: number, opts: Partial<SourcedEpisode> & { messages?: number; outcome?: EpisodeRecord['outcome'] } = {}): SourcedEpisode {
  const messages: ChatMessage[] = [{ role: 'user', content: 'Q' }];
  for (let i = 0; i < (opts.messages ?? 1); i++) messages.push({ role: 'assistant', content: `a${i}` });
  const record: EpisodeRecord = {
    schemaVersion: EPISODE_RECORD_VERSION, task: { bench: 'dbbench', split: 'dev', index }, attempt: 1,
    outcome: opts.outcome ?? (reward >= 1 ? 'success' : 'wrong_answer'), reward, rounds: 1, detail: {}, steps: [], hookTrace: [], messages,
    usage: { promptTokens: 0, completionTokens: 0, modelCalls: 1 },
  };
  return {
    record, kind: opts.kind ?? 'no_intervention', sourceRun: opts.sourceRun ?? 'r1', sourceRunKind: 'run', sourcePart: '.', batchTag: null, patchSha256: null,
    target: { spec: 'sim:dbbench', label: 'sim', simulated: true }, dataFileSha256: opts.dataFileSha256 ?? null,
  };
}

describe('agent-SFT chat formats', () => {
  it('write OpenAI tool calls, tool results and reasoning in the wire shape, null content as ""', () => {
    expect(toOpenAiMessage(toolConversation[5]!)).toEqual({
      role: 'assistant', content: '',
      tool_calls: [
        { id: 'c2', type: 'function', function: { name: 'execute_sql', arguments: '{"query":"DESCRIBE t"}' } },
        { id: 'c3', type: 'function', function: { name: 'execute_sql', arguments: 'not json' } },
      ],
    });
    expect(toOpenAiMessage({ role: 'tool', toolCallId: 'c2', content: 'cols' })).toEqual({ role: 'tool', tool_call_id: 'c2', content: 'cols' });
    expect(toOpenAiMessage({ role: 'assistant', content: 'x', reasoning: 'because' })).toEqual({ role: 'assistant', content: 'x', reasoning_content: 'because' });
  });

  it('end the conversation on the agent\'s last turn', () => {
    const trimmed = trimToLastAssistant(toolConversation);
    expect(trimmed).toHaveLength(9);
    expect(trimmed.at(-1)!.role).toBe('assistant');
  });

  it('turn a tool-calling episode into alternating sharegpt turns LLaMA-Factory reads', () => {
    const turns = toSharegptTurns(trimToLastAssistant(toolConversation));
    expect(turns.map((t) => t.role)).toEqual(['system', 'user', 'function_call', 'observation', 'function_call', 'observation', 'function_call']);
    // The hook's hint joins the tool result it followed; two results of one turn are one observation.
    expect(turns[3]!.content).toBe('error\n\nhint: describe the table');
    expect(turns[5]!.content).toBe('cols\n\nbad arguments');
    expect(JSON.parse(turns[4]!.content)).toEqual([{ name: 'execute_sql', arguments: { query: 'DESCRIBE t' } }, { name: 'execute_sql', arguments: 'not json' }]);
    expect(sharegptProblem(turns)).toBeNull();
    // A blocked call: the hook's prompt comes before the call's tool message; both are one turn.
    const blocked = toSharegptTurns([{ role: 'user', content: 'Q' }, call('b1', 'click_action', '{}'), { role: 'user', content: 'Blocked' }, { role: 'tool', toolCallId: 'b1', content: 'page' }, { role: 'assistant', content: 'ok' }]);
    expect(blocked.map((t) => [t.role, t.content])).toEqual([['user', 'Q'], ['function_call', '[{"name":"click_action","arguments":{}}]'], ['user', 'Blocked\n\npage'], ['assistant', 'ok']]);
    expect(sharegptProblem(blocked)).toBeNull();
  });

  it('name what LLaMA-Factory would refuse', () => {
    expect(sharegptProblem(toSharegptTurns(toolConversation))).toBe('the conversation does not end on an assistant turn');
    expect(sharegptProblem([{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'assistant', content: 'c' }])).toBe('turn 3 is assistant, expected user or observation');
    expect(sharegptProblem([{ role: 'system', content: 's' }])).toBe('no turns after the system prompt');
  });
});

describe('agent-SFT selection', () => {
  it('keeps one success per task: best reward, then the shortest conversation; ties keep the first read', () => {
    const episodes = [
      episode(3, 1, { messages: 4, sourceRun: 'a' }),
      episode(3, 1, { messages: 2, sourceRun: 'b', kind: 'harnessed' }),
      episode(3, 1, { messages: 2, sourceRun: 'c' }),
      episode(1, 0),
      episode(1, 0, { outcome: 'env_error' }),
      episode(2, 1, { sourceRun: 'a' }),
      episode(2, 1, { sourceRun: 'b' }),
    ];
    const { demos, byBenchmark } = selectDemos(episodes, 'both', 1);
    expect(demos.map((d) => `${d.record.task.index}:${d.sourceRun}`)).toEqual(['2:a', '3:b']);
    expect(byBenchmark.dbbench).toEqual({
      read: 7, otherKind: 0, failures: 1, infrastructureFailures: 1, empty: 0, candidates: 5, duplicatesDropped: 3, kept: 2, keptByKind: { harnessed: 1, no_intervention: 1 },
    });
  });

  it('keeps only the kind asked for and counts the rest', () => {
    const episodes = [episode(1, 1, { kind: 'harnessed' }), episode(2, 1), episode(3, 0.5, { kind: 'harnessed' })];
    const harnessed = selectDemos(episodes, 'harnessed', 1);
    expect(harnessed.demos.map((d) => d.record.task.index)).toEqual([1]);
    expect(harnessed.byBenchmark.dbbench!.otherKind).toBe(1);
    expect(harnessed.byBenchmark.dbbench!.failures).toBe(1);
    expect(selectDemos(episodes, 'baseline', 1).demos.map((d) => d.kind)).toEqual(['no_intervention']);
    // A shaped reward counts as a success from --min-reward on.
    expect(selectDemos(episodes, 'harnessed', 0.5).demos.map((d) => d.record.task.index)).toEqual([1, 3]);
  });

  it('tells apart the same index of two task files', () => {
    const a = episode(4, 1, { dataFileSha256: 'a'.repeat(64) });
    const b = episode(4, 1, { dataFileSha256: 'b'.repeat(64) });
    expect(taskIdentity(a)).not.toBe(taskIdentity(b));
    expect(selectDemos([a, b], 'baseline', 1).demos).toHaveLength(2);
  });
});
