import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { ConfigError } from '../episode/index.js';
import { ModelCallError } from './chat-model.js';
import { ScriptExhaustedError, createScriptedModel, loadScriptedModelFile } from './scripted-model.js';

const USER = [{ role: 'user' as const, content: 'go' }];

describe('createScriptedModel', () => {
  it('replays turns in order with deterministic defaults', async () => {
    const model = createScriptedModel([
      { toolCalls: [{ name: 'execute_sql', arguments: { query: 'SELECT 1' } }, { name: 'noop' }] },
      { content: 'final', reasoning: 'thought', usage: { promptTokens: 3, completionTokens: 4 } },
    ]);
    expect(model.simulated).toBe(true);
    expect(model.remaining()).toBe(2);
    expect(await model.complete({ messages: USER })).toEqual({
      message: {
        content: null,
        toolCalls: [
          { id: 'call_0_0', name: 'execute_sql', arguments: '{"query":"SELECT 1"}' },
          { id: 'call_0_1', name: 'noop', arguments: '{}' },
        ],
      },
      finishReason: 'tool_calls',
      usage: { promptTokens: 0, completionTokens: 0 },
      latencyMs: 0,
    });
    expect(await model.complete({ messages: USER })).toEqual({
      message: { content: 'final', toolCalls: [], reasoning: 'thought' },
      finishReason: 'stop',
      usage: { promptTokens: 3, completionTokens: 4 },
      latencyMs: 0,
    });
    expect(model.remaining()).toBe(0);
  });

  it('records copies of the requests it receives, without the signal', async () => {
    const model = createScriptedModel([{ content: 'a' }]);
    const messages = [...USER];
    await model.complete({ messages, toolChoice: 'required', signal: new AbortController().signal });
    messages.push({ role: 'user', content: 'mutated later' });
    expect(model.calls).toEqual([{ messages: USER, toolChoice: 'required' }]);
  });

  it('plays scripted failures as ModelCallError', async () => {
    const model = createScriptedModel([{ error: { message: 'server down', status: 503, retryable: true } }]);
    const error = (await model.complete({ messages: USER }).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ message: 'server down', status: 503, retryable: true, failure: 'http_status' });
  });

  it('computes a turn from the request when given a function', async () => {
    const model = createScriptedModel([(request, index) => ({ content: `${index}:${request.messages.length}` })]);
    expect((await model.complete({ messages: USER })).message.content).toBe('0:1');
  });

  it('throws a named error when the script runs out', async () => {
    const model = createScriptedModel([{ content: 'only' }], { label: 'agent' });
    await model.complete({ messages: USER });
    const error = (await model.complete({ messages: [{ role: 'user', content: 'one more?' }] }).catch((e: unknown) => e)) as ScriptExhaustedError;
    expect(error).toBeInstanceOf(ScriptExhaustedError);
    expect(error.code).toBe('script_exhausted');
    expect(error.name).toBe('ScriptExhaustedError');
    expect(error.message).toBe(`Scripted model 'agent' ran out of turns: call #2 arrived but the script has 1 turn(s). Last message of that call: user: "one more?".`);
    expect(model.calls).toHaveLength(2);
  });
});

describe('loadScriptedModelFile', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'scripted-model-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function write(name: string, content: unknown): string {
    const file = path.join(dir, name);
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    return file;
  }

  function loadError(file: string): ConfigError {
    try {
      loadScriptedModelFile(file);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return error as ConfigError;
    }
    throw new Error('expected a ConfigError');
  }

  it('loads the versioned format', async () => {
    const file = write('ok.json', {
      schemaVersion: 1,
      label: 'engineer',
      turns: [{ toolCalls: [{ name: 'execute_sql', arguments: '{"query":"SELECT 1"}' }] }, { error: { message: 'boom' } }, { content: 'end' }],
    });
    const model = loadScriptedModelFile(file);
    expect(model.label).toBe('engineer');
    expect((await model.complete({ messages: USER })).message.toolCalls[0]?.arguments).toBe('{"query":"SELECT 1"}');
    await expect(model.complete({ messages: USER })).rejects.toThrow('boom');
    expect((await model.complete({ messages: USER })).message.content).toBe('end');
  });

  it('loads a bare array of turns and labels the model after the file', () => {
    const file = write('bare.json', [{ content: 'x' }]);
    const model = loadScriptedModelFile(file);
    expect(model.label).toBe(`scripted:${file}`);
    expect(model.remaining()).toBe(1);
  });

  it('names the bad field', () => {
    const error = loadError(write('bad-name.json', { schemaVersion: 1, turns: [{ content: 'a' }, { toolCalls: [{ name: 3 }] }] }));
    expect(error.field).toBe('turns[1].toolCalls[0].name');
    expect(error.message).toContain('turns[1].toolCalls[0].name: Invalid input: expected string, received number');
    expect(error.message).toContain('bad-name.json');
  });

  it('names unknown fields and suggests the camelCase spelling', () => {
    const error = loadError(write('snake.json', [{ tool_calls: [] }]));
    expect(error.field).toBe('[0].tool_calls');
    expect(error.message).toContain('[0].tool_calls: unknown field (did you mean "toolCalls"?)');
  });

  it('checks failure turns, arguments and the version', () => {
    expect(loadError(write('status.json', [{ error: { message: 'x', status: 99 } }])).field).toBe('[0].error.status');
    expect(loadError(write('args.json', [{ toolCalls: [{ name: 'f', arguments: 5 }] }])).message).toContain(
      '[0].toolCalls[0].arguments: expected a JSON string or an object',
    );
    expect(loadError(write('version.json', { schemaVersion: 2, turns: [] })).field).toBe('schemaVersion');
    expect(loadError(write('no-turns.json', { schemaVersion: 1 })).field).toBe('turns');
  });

  it('reports unreadable files and invalid JSON', () => {
    expect(loadError(path.join(dir, 'missing.json')).message).toMatch(/Cannot read scripted model file .*missing\.json/);
    expect(loadError(write('broken.json', '{"turns": [')).message).toMatch(/is not valid JSON/);
  });
});
