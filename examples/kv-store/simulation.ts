/**
 * The simulated target as the definition's `simulation`: OpenAI chat requests in, chat.completion replies
 * out, from the policy in `sim-policy.ts`. It knows the tasks of the shipped splits and of the task file the
 * run plays (`--data`). Ids and token counts are functions of the request, so replies are reproducible.
 */
import { simHttpReply, simUsage, type SimCompletion, type SimulatedTarget } from 'harness-r1';

import { decideTurn, findTask, indexTasks, kvTaskKey } from './sim-policy.js';
import { parseKvSimParams, SIM_PARAMS, simHash, type KvSimSettings } from './sim-settings.js';
import { KV_SPLITS, loadKvTasks, splitFile } from './tasks.js';

const TARGET = 'sim:kv-store';

type KvCompletion = SimCompletion<typeof TARGET, string>;

function problem(code: 'unknown_task' | 'bad_request', message: string): KvCompletion {
  return {
    id: 'chatcmpl-sim-kv-error',
    object: 'chat.completion',
    created: 0,
    model: TARGET,
    system_fingerprint: 'harness-r1-sim-kv-store-v1',
    choices: [{ index: 0, message: { role: 'assistant', content: null }, finish_reason: 'stop', logprobs: null }],
    usage: simUsage(0, 0),
    simulation: { target: TARGET, problem: { code, message } },
  };
}

export function completionFor(body: unknown, settings: KvSimSettings, tasks: ReturnType<typeof indexTasks>): KvCompletion {
  const request = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  if (!Array.isArray(request.messages)) return problem('bad_request', 'the request has no messages');
  const messages = request.messages as { role?: unknown; content?: unknown }[];
  const found = findTask(messages, tasks);
  if (!found) return problem('unknown_task', 'sim:kv-store does not know this task (its task message matches no known task)');
  const turn = decideTurn(found.task, found.at, messages, settings);
  const requestText = JSON.stringify(messages);
  const taskKey = kvTaskKey(found.task);
  const turns = messages.filter((m) => m.role === 'assistant').length;
  const base = {
    id: `chatcmpl-sim-${simHash('kv-completion', settings.seed, requestText).slice(0, 24)}`,
    object: 'chat.completion' as const,
    created: 0,
    model: typeof request.model === 'string' ? request.model : TARGET,
    system_fingerprint: 'harness-r1-sim-kv-store-v1',
  };
  const promptTokens = Math.ceil(requestText.length / 4);
  if (turn.kind === 'text') {
    return {
      ...base,
      choices: [{ index: 0, message: { role: 'assistant', content: turn.content }, finish_reason: 'stop', logprobs: null }],
      usage: simUsage(promptTokens, Math.ceil(turn.content.length / 4)),
      simulation: { target: TARGET, taskKey, tag: 'text_only' },
    };
  }
  const args = JSON.stringify(turn.args);
  const call = { id: `call_${simHash('kv-call', settings.seed, taskKey, turns).slice(0, 24)}`, type: 'function' as const, function: { name: turn.tool, arguments: args } };
  return {
    ...base,
    choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: 'tool_calls', logprobs: null }],
    usage: simUsage(promptTokens, Math.ceil((turn.tool.length + args.length) / 4)),
    simulation: { target: TARGET, taskKey, tag: turn.tag },
  };
}

export const KV_SIMULATION: SimulatedTarget = {
  params: SIM_PARAMS,
  create(params, { taskFile }) {
    const settings = parseKvSimParams(params);
    // The task file first: its tasks win over a shipped task with the same message.
    const tasks = indexTasks([...(taskFile !== undefined ? [loadKvTasks(taskFile)] : []), ...KV_SPLITS.map((s) => loadKvTasks(splitFile(s)))]);
    return (request) => simHttpReply(completionFor(request, settings, tasks));
  },
};
