/**
 * How a simulated target answers the baseline strategies' own requests. The benchmark simulations play
 * benchmark turns only; this layer sits in front of one and answers, from the conversation alone (never
 * from the task's solution):
 * - a critique request: `keep`, or `revise` when the candidate repeats an action already taken;
 * - a refine request: the simulation's own turn on the conversation without the request, so a refined
 *   action is what the policy would do anyway (no knowledge is gained from the feedback);
 * - a reflection request: a short plain-text reflection naming how long the attempt was, its last
 *   observation and whether it repeated itself;
 * - a turn of the second Reflection episode: the simulation with another seed (`retryReply`) on the
 *   conversation without the reflection, an independent second draw of the same faulty policy: the
 *   reflection's words do not help it, and whether the retry succeeds is still graded by the environment;
 * - a Trajectory Reflection request (before every action): the same kind of reflection on the trajectory so
 *   far; its action request is answered like a refine request, by the simulation's own turn without it;
 * - a ReAct turn: the simulation's turn on the conversation without the ReAct block, with a one-line
 *   Thought naming the action when the turn came back without text.
 */
import { CRITIQUE_MARKER, MEMORY_MARKER, REACT_MARKER, REFINE_MARKER, REFLECT_MARKER, TRAJECTORY_ACT_MARKER, TRAJECTORY_REFLECT_MARKER } from './strategy-prompts.js';

export type SimReply = (request: unknown) => { status: number; body: unknown };

type Wire = Record<string, unknown>;

const isRecord = (v: unknown): v is Wire => typeof v === 'object' && v !== null && !Array.isArray(v);
const textOf = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The system prompt without a strategy block (blocks are appended after a blank line and start with their marker). */
function withoutBlock(content: string, marker: string): string {
  const at = content.indexOf(marker);
  return at < 0 ? content : content.slice(0, at).trimEnd();
}

function stripSystemBlocks(messages: Wire[], marker: string): Wire[] {
  return messages.map((m) => (m.role === 'system' && textOf(m.content).includes(marker) ? { ...m, content: withoutBlock(textOf(m.content), marker) } : m));
}

function textReply(content: string, model: unknown): { status: number; body: unknown } {
  return {
    status: 200,
    body: {
      id: 'chatcmpl-sim-strategy',
      object: 'chat.completion',
      created: 0,
      model: typeof model === 'string' ? model : 'sim',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
      usage: { prompt_tokens: 0, completion_tokens: Math.ceil(content.length / 4), total_tokens: Math.ceil(content.length / 4) },
    },
  };
}

/** Every action of the conversation, as `name:arguments` (tool protocol) or the assistant text (text protocol). */
function actionsOf(messages: Wire[]): string[] {
  return messages.flatMap((m) => {
    if (m.role !== 'assistant') return [];
    const calls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
    if (calls.length === 0) return textOf(m.content).trim() ? [`text:${textOf(m.content).trim()}`] : [];
    return calls.map((c: unknown) => {
      const fn = isRecord(c) && isRecord(c.function) ? c.function : {};
      return `${textOf(fn.name)}:${normalizeArgs(fn.arguments)}`;
    });
  });
}

function normalizeArgs(raw: unknown): string {
  if (typeof raw !== 'string') return JSON.stringify(raw ?? {});
  try {
    return JSON.stringify(JSON.parse(raw));
  } catch {
    return raw;
  }
}

function candidateActions(prompt: string): string[] {
  const at = prompt.lastIndexOf('Candidate action:\n');
  if (at < 0) return [];
  try {
    const candidate = JSON.parse(prompt.slice(at + 'Candidate action:\n'.length).trim()) as { content?: string; tool_calls?: { name?: string; arguments?: string }[] };
    if (candidate.tool_calls && candidate.tool_calls.length > 0) return candidate.tool_calls.map((c) => `${c.name ?? ''}:${normalizeArgs(c.arguments)}`);
    return candidate.content?.trim() ? [`text:${candidate.content.trim()}`] : [];
  } catch {
    return [];
  }
}

function critique(messages: Wire[], prompt: string): string {
  const earlier = new Set(actionsOf(messages));
  const repeated = candidateActions(prompt).find((a) => earlier.has(a));
  if (repeated !== undefined) {
    return JSON.stringify({ verdict: 'revise', issue: 'the candidate repeats an action that was already taken and would give the same result', suggested_action: 'take a different step that uses the last observation' });
  }
  return JSON.stringify({ verdict: 'keep', issue: '', suggested_action: '' });
}

function reflection(messages: Wire[], ongoing = false): string {
  const actions = actionsOf(messages);
  const repeats = actions.length - new Set(actions).size;
  const lastObservation = [...messages].reverse().find((m) => m.role === 'tool' || (m.role === 'user' && !textOf(m.content).startsWith('[strategy:')));
  const excerpt = textOf(lastObservation?.content).replace(/\s+/g, ' ').trim().slice(0, 160);
  return [
    ongoing
      ? `So far ${actions.length} action(s) were taken${repeats > 0 ? `, ${repeats} of them repeats of an earlier one` : ''}.`
      : `The attempt took ${actions.length} action(s)${repeats > 0 ? `, ${repeats} of them repeats of an earlier one` : ''} and did not complete the task.`,
    excerpt ? `${ongoing ? 'The latest' : 'Its last'} observation was: "${excerpt}".` : '',
    ongoing
      ? 'Next: use that observation, do not repeat an action that already failed, and check the result before the final answer.'
      : 'Next time: read each observation before acting, do not repeat an action that already failed, and check the result before the final answer.',
  ]
    .filter(Boolean)
    .join(' ');
}

function addThought(reply: { status: number; body: unknown }): { status: number; body: unknown } {
  if (reply.status !== 200 || !isRecord(reply.body) || !Array.isArray(reply.body.choices)) return reply;
  const choices = reply.body.choices.map((choice: unknown) => {
    if (!isRecord(choice) || !isRecord(choice.message)) return choice;
    const message = choice.message;
    const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
    if (textOf(message.content).trim() || calls.length === 0) return choice;
    const fn = isRecord(calls[0]) && isRecord(calls[0].function) ? calls[0].function : {};
    return { ...choice, message: { ...message, content: `Thought: the next step is ${textOf(fn.name)} with ${textOf(fn.arguments)}.` } };
  });
  return { ...reply, body: { ...reply.body, choices } };
}

/** Puts the strategy layer in front of a simulation's replier (`retryReply`: the same simulation under another seed). */
export function withStrategyReplies(reply: SimReply, retryReply: SimReply = reply): SimReply {
  return (request: unknown) => {
    if (!isRecord(request) || !Array.isArray(request.messages)) return reply(request);
    let messages = request.messages.filter(isRecord);
    const last = messages.at(-1);
    const lastText = last?.role === 'user' ? textOf(last.content) : '';
    if (lastText.startsWith(CRITIQUE_MARKER)) return textReply(critique(messages.slice(0, -1), lastText), request.model);
    if (lastText.startsWith(REFLECT_MARKER)) return textReply(reflection(messages.slice(0, -1)), request.model);
    if (lastText.startsWith(TRAJECTORY_REFLECT_MARKER)) return textReply(reflection(messages.slice(0, -1), true), request.model);
    if (lastText.startsWith(REFINE_MARKER) || lastText.startsWith(TRAJECTORY_ACT_MARKER)) messages = messages.slice(0, -1);
    const system = messages.find((m) => m.role === 'system');
    const retry = system !== undefined && textOf(system.content).includes(MEMORY_MARKER);
    const react = system !== undefined && textOf(system.content).includes(REACT_MARKER);
    messages = stripSystemBlocks(stripSystemBlocks(messages, MEMORY_MARKER), REACT_MARKER);
    const answer = (retry ? retryReply : reply)({ ...request, messages });
    return react ? addThought(answer) : answer;
  };
}
