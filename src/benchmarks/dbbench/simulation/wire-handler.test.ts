import http from 'node:http';
import type { AddressInfo } from 'node:net';

import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../../config/data-dir.js';
import { loadDbBenchSplit } from '../../../environments/dbbench/load-tasks.js';
import { buildDbBenchUserMessage, loadDbBenchProtocol } from '../../../environments/dbbench/prompts.js';
import { DEFAULT_DBBENCH_FAULT_RATES } from './fault-profile.js';
import { createDbBenchSimHandler, resolveDbBenchSimSettings, toSimHttpReply, type DbBenchSimHandler } from './wire-handler.js';

const dataDir = resolveDataDir();
const protocol = loadDbBenchProtocol(dataDir);
const task = loadDbBenchSplit(dataDir, 'dev')[0]!;
const tools = protocol.tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters } }));
const firstRequest = {
  model: 'sim-dbbench',
  messages: [
    { role: 'system', content: protocol.systemPrompt },
    { role: 'user', content: buildDbBenchUserMessage(task) },
  ],
  tools,
};

describe('createDbBenchSimHandler', () => {
  it('answers with a chat.completion holding one structured tool call', () => {
    const handler = createDbBenchSimHandler({ dataDir, faults: 'none' });
    const completion = handler(firstRequest);
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('sim-dbbench');
    expect(completion.choices[0].finish_reason).toBe('tool_calls');
    const call = completion.choices[0].message.tool_calls?.[0];
    expect(call?.type).toBe('function');
    expect(call?.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(['execute_sql', 'commit_final_answer']).toContain(call?.function.name);
    expect(typeof call?.function.arguments).toBe('string');
    expect(JSON.parse(call!.function.arguments)).toEqual(expect.any(Object));
    const { usage } = completion;
    expect(usage.prompt_tokens).toBeGreaterThan(100);
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
    expect(completion.simulation).toMatchObject({ target: 'sim:dbbench', tag: expect.any(String), taskKey: expect.any(String) });
  });

  it('is deterministic: same settings and request give the same bytes; another seed changes the ids', () => {
    const a = createDbBenchSimHandler({ dataDir, seed: 4 });
    const b = createDbBenchSimHandler({ dataDir, seed: 4 });
    const c = createDbBenchSimHandler({ dataDir, seed: 5 });
    expect(JSON.stringify(a(firstRequest))).toBe(JSON.stringify(b(structuredClone(firstRequest))));
    expect(a(firstRequest).id).not.toBe(c(firstRequest).id);
  });

  it('resolves settings from options: spec text, partial rates, comply and splits', () => {
    expect(resolveDbBenchSimSettings({ faults: 'none,repeat:0.4' }).faults).toEqual({ backticks: 0, early_commit: 0, case_format: 0, give_up: 0, repeat: 0.4 });
    expect(resolveDbBenchSimSettings({ faults: { repeat: 0.4 } }).faults).toEqual({ ...DEFAULT_DBBENCH_FAULT_RATES, repeat: 0.4 });
    const handler = createDbBenchSimHandler({ dataDir, seed: 9, comply: 0.5, splits: ['dev'] });
    expect(handler.settings).toMatchObject({ seed: 9, comply: 0.5, splits: ['dev'] });
    expect(() => createDbBenchSimHandler({ dataDir, comply: 3 })).toThrow(/between 0 and 1/);
  });

  it('turns an unknown task into an HTTP 400 with an OpenAI-style error', () => {
    const handler = createDbBenchSimHandler({ dataDir });
    const completion = handler({ model: 'm', messages: [{ role: 'user', content: 'Question: what is love?' }] });
    expect(completion.choices[0].finish_reason).toBe('stop');
    expect(completion.choices[0].message.content).toMatch(/not in the DBBench task files/);
    const reply = toSimHttpReply(completion);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: { message: expect.stringMatching(/Simulated target/), type: 'invalid_request_error', param: 'messages', code: 'unknown_task' } });
    const ok = toSimHttpReply(handler(firstRequest));
    expect(ok.status).toBe(200);
    expect(ok.body).not.toHaveProperty('simulation');
  });
});

describe('through HTTP and the openai client', () => {
  let server: http.Server;
  let client: OpenAI;
  let handler: DbBenchSimHandler;

  beforeAll(async () => {
    handler = createDbBenchSimHandler({ dataDir, faults: 'none' });
    server = http.createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      req.on('end', () => {
        const reply = toSimHttpReply(handler(JSON.parse(text) as unknown));
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(reply.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = new OpenAI({ baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, apiKey: 'none', maxRetries: 0 });
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('plays a task to its commit with structured tool calls', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [...(firstRequest.messages as OpenAI.ChatCompletionMessageParam[])];
    let committed: unknown;
    for (let round = 0; round < 5 && committed === undefined; round++) {
      const completion = await client.chat.completions.create({ model: 'sim-dbbench', messages, tools });
      const message = completion.choices[0]!.message;
      const call = message.tool_calls?.[0];
      expect(call?.type).toBe('function');
      if (call?.type !== 'function') return;
      messages.push({ role: 'assistant', content: message.content, tool_calls: message.tool_calls });
      const args = JSON.parse(call.function.arguments) as { query?: string; answers?: string[] };
      if (call.function.name === 'commit_final_answer') committed = args.answers;
      else messages.push({ role: 'tool', tool_call_id: call.id, content: "[('March 19, 1998',)]" });
    }
    expect(committed).toEqual(task.label);
  });

  it('surfaces an unknown task as a 400 BadRequestError', async () => {
    await expect(client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hello' }], tools })).rejects.toMatchObject({ status: 400 });
  });
});
