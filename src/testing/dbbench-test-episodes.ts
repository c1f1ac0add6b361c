import type { ChatMessage, EpisodeRecord, Outcome, StepRecord } from '../episode/index.js';

/** One turn of a synthetic DBBench episode, for tests. */
export type TestTurn = { sql: string; result: string } | { commit: unknown } | { text: string } | { blockedSql: string; reply: string };

export interface TestEpisode {
  index?: number;
  table?: string;
  headers?: string;
  question: string;
  turns: TestTurn[];
  outcome?: Outcome;
  reward?: number;
  detail?: Record<string, unknown>;
}

/**
 * Builds an EpisodeRecord shaped like the runtime's (system prompt, task message, assistant turns with tool
 * calls, tool replies, steps). Used by the tests of this folder only.
 */
export function testEpisode(spec: TestEpisode): EpisodeRecord {
  const table = spec.table ?? 'Race Results';
  const headers = spec.headers ?? 'Round,Circuit,Date,Pole Position,Fastest Lap';
  const messages: ChatMessage[] = [
    { role: 'system', content: 'I will ask you a question, then you should help me operate a MySQL database with SQL to answer the question.' },
    {
      role: 'user',
      content: `Additional table information about the question: The name of this table is ${table}, and the headers of this table are ${headers}.\nQuestion: ${spec.question}\n`,
    },
  ];
  const steps: StepRecord[] = [];
  spec.turns.forEach((turn, i) => {
    const round = i + 1;
    const id = `call_${round}`;
    if ('text' in turn) {
      messages.push({ role: 'assistant', content: turn.text });
      messages.push({ role: 'user', content: 'No executable tool calls found. Please call a tool.' });
    } else if ('commit' in turn) {
      messages.push({ role: 'assistant', content: 'Committing.', toolCalls: [{ id, name: 'commit_final_answer', arguments: JSON.stringify({ answers: turn.commit }) }] });
      steps.push({ round, tool: 'commit_final_answer', input: turn.commit, observation: '', status: 'executed' });
    } else if ('blockedSql' in turn) {
      messages.push({ role: 'assistant', content: 'Query.', toolCalls: [{ id, name: 'execute_sql', arguments: JSON.stringify({ query: turn.blockedSql }) }] });
      messages.push({ role: 'tool', toolCallId: id, content: turn.reply });
      steps.push({ round, tool: 'execute_sql', input: turn.blockedSql, observation: turn.reply, status: 'blocked' });
    } else {
      messages.push({ role: 'assistant', content: 'Query.', toolCalls: [{ id, name: 'execute_sql', arguments: JSON.stringify({ query: turn.sql }) }] });
      messages.push({ role: 'tool', toolCallId: id, content: turn.result });
      steps.push({ round, tool: 'execute_sql', input: turn.sql, observation: turn.result, status: 'executed' });
    }
  });
  const outcome = spec.outcome ?? 'wrong_answer';
  return {
    schemaVersion: 2,
    task: { bench: 'dbbench', split: 'dev', index: spec.index ?? 0 },
    attempt: 1,
    outcome,
    reward: spec.reward ?? (outcome === 'success' ? 1 : 0),
    rounds: spec.turns.length,
    detail: spec.detail ?? {},
    steps,
    hookTrace: [],
    messages,
    usage: { promptTokens: 0, completionTokens: 0, modelCalls: spec.turns.length },
  };
}
