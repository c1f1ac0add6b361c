import { existsSync } from 'node:fs';
import path from 'node:path';

import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { resolveDataDir } from '../config/data-dir.js';
import type { EpisodeRecord } from '../episode/index.js';
import { alfworldEnvironment } from './alfworld/environment.js';
import { dbBenchEnvironment } from './dbbench/environment.js';
import { createSqliteBackend } from '../environments/dbbench/sqlite-backend.js';
import type { PlayableEpisode } from '../runtime/environment.js';
import { loadSharedWebShopEngine } from '../environments/webshop/webshop-environment.js';
import { webShopEnvironment } from './webshop/environment.js';
import { NO_HOOKS } from '../hooks/native-hooks.js';
import { scripted, startFakeOpenAIServer, type FakeOpenAIServer, type FakeResponse } from '../models/fake-openai-server.js';
import { createOpenAICompatibleModel } from '../models/openai-compatible-model.js';
import type { ResponseLimits } from '../models/response-limits.js';
import { runEpisode } from '../runtime/run-episode.js';

// Response caps as the episode sees them: a real local server, the real client, the real environments.
const dataDir = resolveDataDir();
const dbbench = dbBenchEnvironment({ dataDir, split: 'dev', backend: createSqliteBackend() });
afterAll(() => dbbench.close());

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const MiB = 1024 * 1024;
const COMMIT: FakeResponse = { kind: 'tool_calls', calls: [{ name: 'commit_final_answer', arguments: { answers: ['March 19, 1998'] } }] };

async function play(episode: PlayableEpisode, responses: FakeResponse[], limits: Partial<ResponseLimits> = {}): Promise<EpisodeRecord> {
  server = await startFakeOpenAIServer({ handler: scripted(responses) });
  const model = createOpenAICompatibleModel({ baseURL: server.url, model: 'fake-model', env: {}, limits, retry: { maxAttempts: 1 } });
  const { record } = await runEpisode({ model, episode, hooks: await NO_HOOKS.openEpisode() });
  return record;
}

function chatRequests(s: FakeOpenAIServer): { messages: { role: string; tool_calls?: unknown[] }[] }[] {
  return s.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as { messages: { role: string; tool_calls?: unknown[] }[] });
}

describe('response caps in the DBBench loop', () => {
  it('runs only the first 16 of 20 000 tool calls in one turn and records the rest as dropped', async () => {
    const calls = Array.from({ length: 20_000 }, (_, i) => ({ name: 'execute_sql', arguments: { query: `SELECT ${i}` } }));
    const record = await play(await dbbench.openEpisode(0), [{ kind: 'tool_calls', calls }, COMMIT]);
    expect(record.outcome).toBe('success');
    expect(record.steps.filter((s) => s.round === 1)).toHaveLength(16);
    expect(record.steps.filter((s) => s.status === 'executed' && s.round === 1).map((s) => s.input).at(-1)).toBe('SELECT 15');
    expect(record.detail.modelLimits).toEqual([{ round: 1, limit: 'max_tool_calls', cap: 16, actual: 20_000 }]);
    // The conversation holds the kept calls only, each answered by a tool message.
    const second = chatRequests(server!)[1]!.messages;
    const assistant = second.find((m) => m.role === 'assistant')!;
    expect(assistant.tool_calls).toHaveLength(16);
    expect(second.filter((m) => m.role === 'tool')).toHaveLength(16);
  }, 60_000);

  it('answers a call with 20 MB of arguments as invalid arguments, never runs it, and keeps the record small', async () => {
    const query = `SELECT '${'a'.repeat(20 * MiB)}'`;
    const record = await play(await dbbench.openEpisode(0), [{ kind: 'tool_calls', calls: [{ name: 'execute_sql', arguments: { query } }] }, COMMIT], { maxBodyBytes: 64 * MiB });
    expect(record.outcome).toBe('success');
    expect(record.steps[0]).toMatchObject({ round: 1, tool: 'execute_sql', status: 'invalid', observation: 'Error: Failed to parse tool call arguments.' });
    expect(String(record.steps[0]!.input)).toMatch(/…\[cut by harness-r1: \d+ characters, over max_tool_args_chars=65536; not executed\]$/);
    expect(record.detail.modelLimits).toEqual([{ round: 1, limit: 'max_tool_args_chars', cap: 65_536, actual: JSON.stringify({ query }).length, call: 0 }]);
    expect(JSON.stringify(record).length).toBeLessThan(64 * 1024);
  }, 60_000);

  it('ends a 100 MB answer as model_error naming the cap, with a record that can be written', async () => {
    const head = '{"id":"c","object":"chat.completion","created":0,"model":"fake-model","choices":[{"index":0,"message":{"role":"assistant","content":"';
    const record = await play(await dbbench.openEpisode(0), [{ kind: 'stream', head, chunk: 'x'.repeat(64 * 1024), repeat: 1600, tail: '"}}]}', declareLength: true }]);
    expect(record.outcome).toBe('model_error');
    expect(String(record.detail.error)).toContain('larger than max_body_bytes=16777216');
    expect(record.detail.modelLimits).toEqual([{ round: 1, limit: 'max_body_bytes', cap: 16 * MiB, actual: expect.any(Number) as number }]);
    expect(JSON.stringify(record).length).toBeLessThan(64 * 1024);
  }, 60_000);

  it('adds nothing to the record when no cap bites', async () => {
    const record = await play(await dbbench.openEpisode(0), [COMMIT]);
    expect(record.outcome).toBe('success');
    expect(record.detail).not.toHaveProperty('modelLimits');
  });
});

describe('cut tool calls are never executed in the ALFWorld and WebShop loops', () => {
  const padded = (key: string, value: string) => `{"${key}": "${value}"}${' '.repeat(500)}`;

  it('ALFWorld: a take_action call over the cap is invalid and the world does not move', async () => {
    const alfworld = alfworldEnvironment({ dataDir, split: 'dev' });
    const record = await play(await alfworld.openEpisode(0), [{ kind: 'tool_calls', calls: [{ name: 'take_action', arguments: padded('action', 'go to countertop 1') }] }, { kind: 'text', content: 'done' }], { maxToolArgsChars: 100 });
    await alfworld.close();
    expect(record.steps[0]).toMatchObject({ round: 1, status: 'invalid' });
    expect(record.steps.filter((s) => s.status === 'executed')).toEqual([]);
    expect(record.detail.modelLimits).toEqual([{ round: 1, limit: 'max_tool_args_chars', cap: 100, actual: padded('action', 'go to countertop 1').length, call: 0 }]);
  });

  it.skipIf(!existsSync(path.join(dataDir, 'webshop', 'items_shuffle_1000.json')))('WebShop: a search_action call over the cap is invalid and no search runs', async () => {
    const engine = loadSharedWebShopEngine(dataDir, 'synthetic');
    const webshop = webShopEnvironment({ dataDir, goals: 'synthetic', engine, maxRounds: 2 });
    const record = await play(await webshop.openEpisode(1), [{ kind: 'tool_calls', calls: [{ name: 'search_action', arguments: padded('keywords', 'black shorts') }] }, { kind: 'text', content: 'done' }], { maxToolArgsChars: 100 });
    await webshop.close();
    expect(record.steps[0]).toMatchObject({ round: 1, tool: 'search_action', status: 'invalid' });
    expect(record.steps.filter((s) => s.status === 'executed')).toEqual([]);
  });
});
