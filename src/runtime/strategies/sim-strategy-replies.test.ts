import { describe, expect, it } from 'vitest';

import { candidateText, criticVerdict } from './self-refine.js';
import { withStrategyReplies } from './sim-strategy-replies.js';
import { critiquePrompt, memoryBlock, reactBlock, reflectPrompt, refinePrompt, trajectoryActPrompt, trajectoryReflectPrompt } from './strategy-prompts.js';

const call = (query: string) => ({ id: 'c1', type: 'function', function: { name: 'execute_sql', arguments: JSON.stringify({ query }) } });
const conversation = [
  { role: 'system', content: 'Play the task.' },
  { role: 'user', content: 'Question: how many rows?' },
  { role: 'assistant', content: null, tool_calls: [call('SELECT 1')] },
  { role: 'tool', tool_call_id: 'c1', content: 'Error: no such column' },
];
const candidate = (query: string) => candidateText({ content: null, toolCalls: [{ id: 'x', name: 'execute_sql', arguments: JSON.stringify({ query }) }] });

function layer() {
  const seen: { which: string; body: { messages: { role: string; content: string | null }[] } }[] = [];
  const simulation = (which: string) => (body: unknown) => {
    seen.push({ which, body: body as (typeof seen)[number]['body'] });
    return { status: 200, body: { choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [call('SELECT 2')] } }] } };
  };
  return { reply: withStrategyReplies(simulation('first'), simulation('retry')), seen };
}
const contentOf = (r: { body: unknown }) => (r.body as { choices: { message: { content: string | null } }[] }).choices[0]!.message.content ?? '';

describe('the simulated targets’ strategy layer', () => {
  it('the critic asks to revise a repeated action and keeps a new one, without calling the simulation', () => {
    const { reply, seen } = layer();
    const repeat = reply({ messages: [...conversation, { role: 'user', content: critiquePrompt(candidate('SELECT 1'), undefined) }] });
    expect(criticVerdict(contentOf(repeat))).toBe('revise');
    const fresh = reply({ messages: [...conversation, { role: 'user', content: critiquePrompt(candidate('SELECT  count(*) FROM t'), undefined) }] });
    expect(criticVerdict(contentOf(fresh))).toBe('keep');
    expect(seen).toHaveLength(0);
  });

  it('a reflection names the attempt and its last observation; a refine request is the simulation on the conversation without it', () => {
    const { reply, seen } = layer();
    const text = contentOf(reply({ messages: [...conversation, { role: 'user', content: reflectPrompt('wrong_answer, reward 0', undefined) }] }));
    expect(text).toMatch(/took 1 action\(s\)/);
    expect(text).toContain('Error: no such column');
    reply({ messages: [...conversation, { role: 'user', content: refinePrompt('{}', 'fix it', false) }] });
    expect(seen[0]!.body.messages).toEqual(conversation);
  });

  it('ReAct and memory blocks are stripped before the simulation; the retry goes to the second draw; a ReAct tool turn gets a Thought', () => {
    const { reply, seen } = layer();
    const system = { role: 'system', content: `Play the task.\n\n${reactBlock(false)}` };
    const answer = reply({ messages: [system, ...conversation.slice(1)] });
    expect(seen[0]).toMatchObject({ which: 'first', body: { messages: conversation } });
    expect(contentOf(answer)).toMatch(/^Thought: the next step is execute_sql/);
    reply({ messages: [{ role: 'system', content: `Play the task.\n\n${memoryBlock('query first')}` }, ...conversation.slice(1)] });
    expect(seen[1]).toMatchObject({ which: 'retry', body: { messages: conversation } });
  });

  it('a trajectory reflection sums up the attempt so far; its action request is the simulation on the conversation without it', () => {
    const { reply, seen } = layer();
    const text = contentOf(reply({ messages: [...conversation, { role: 'user', content: trajectoryReflectPrompt(undefined) }] }));
    expect(text).toMatch(/^So far 1 action\(s\) were taken\./);
    expect(text).toContain('The latest observation was: "Error: no such column"');
    expect(seen).toHaveLength(0);
    reply({ messages: [...conversation, { role: 'user', content: trajectoryActPrompt(text, false) }] });
    expect(seen[0]!.body.messages).toEqual(conversation);
  });
});
