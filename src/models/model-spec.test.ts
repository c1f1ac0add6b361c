import { describe, expect, it } from 'vitest';

import { ConfigError } from '../episode/index.js';
import { MODEL_SPEC_FORMS, parseModelSpec } from './model-spec.js';

function specError(spec: string, field?: string): ConfigError {
  try {
    parseModelSpec(spec, field === undefined ? {} : { field });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`expected '${spec}' to be rejected`);
}

describe('parseModelSpec', () => {
  it('parses an OpenAI-compatible endpoint', () => {
    expect(parseModelSpec('openai:http://localhost:8000/v1#Qwen/Qwen3-8B')).toEqual({
      kind: 'openai',
      baseURL: 'http://localhost:8000/v1',
      model: 'Qwen/Qwen3-8B',
      settings: {},
    });
    expect(parseModelSpec('openai:http://127.0.0.1:11434/v1#qwen3:8b')).toMatchObject({ model: 'qwen3:8b' });
  });

  it('parses endpoint options into adapter settings', () => {
    const spec = parseModelSpec(
      'openai:https://api.example.com/v1#m?reasoning=reasoning_content&temperature=0&max_tokens=4096&top_p=0.9&seed=7' +
        '&tool_choice=required&parallel_tool_calls=false&enable_thinking=false&continue_final_message=true&timeout=90&attempts=3&key_env=EXAMPLE_KEY',
    );
    expect(spec).toEqual({
      kind: 'openai',
      baseURL: 'https://api.example.com/v1',
      model: 'm',
      settings: {
        reasoningField: 'reasoning_content',
        temperature: 0,
        maxTokens: 4096,
        toolChoice: 'required',
        parallelToolCalls: false,
        chatTemplateKwargs: { enable_thinking: false },
        extraBody: { top_p: 0.9, seed: 7 },
        continueFinalMessage: true,
        timeoutMs: 90_000,
        retry: { maxAttempts: 3 },
        apiKeyEnv: 'EXAMPLE_KEY',
      },
    });
  });

  it('parses the response caps into adapter limits and rejects caps that are not positive integers', () => {
    const spec = parseModelSpec('openai:http://h/v1#m?max_body_bytes=1048576&max_content_chars=1000&max_reasoning_chars=2000&max_tool_args_chars=300&max_tool_calls=4');
    expect(spec).toMatchObject({ settings: { limits: { maxBodyBytes: 1_048_576, maxContentChars: 1000, maxReasoningChars: 2000, maxToolArgsChars: 300, maxToolCalls: 4 } } });
    expect(parseModelSpec('openai:http://h/v1#m?max_tool_calls=1')).toEqual({ kind: 'openai', baseURL: 'http://h/v1', model: 'm', settings: { limits: { maxToolCalls: 1 } } });
    for (const bad of ['max_body_bytes=0', 'max_tool_calls=1.5', 'max_content_chars=-3', 'max_tool_args_chars=lots']) {
      const name = bad.split('=')[0]!;
      expect(specError(`openai:http://h/v1#m?${bad}`).message).toContain(`${name} must be a positive integer`);
    }
    expect(specError('openai:http://h/v1#m?max_calls=3').allowed).toEqual(expect.arrayContaining(['max_body_bytes', 'max_tool_calls']));
  });

  it('parses simulated targets', () => {
    expect(parseModelSpec('sim:dbbench')).toEqual({ kind: 'sim', bench: 'dbbench', seed: undefined, faults: undefined, params: {} });
    expect(parseModelSpec('sim:alfworld?seed=42&faults=skip_heat,wrong_destination')).toEqual({
      kind: 'sim',
      bench: 'alfworld',
      seed: 42,
      faults: 'skip_heat,wrong_destination',
      params: { seed: '42', faults: 'skip_heat,wrong_destination' },
    });
  });

  it('parses scripted and symbolic', () => {
    expect(parseModelSpec('scripted:fixtures/agent turns.json')).toEqual({ kind: 'scripted', path: 'fixtures/agent turns.json' });
    expect(parseModelSpec('  symbolic ')).toEqual({ kind: 'symbolic' });
  });

  it('rejects bad specs with a ConfigError listing the accepted forms', () => {
    for (const spec of ['', 'gpt-4o', 'anthropic:claude', 'openai:', 'scripted:', 'sim:']) {
      const error = specError(spec);
      expect(error.field).toBe('model');
      expect(error.allowed).toBeDefined();
    }
    const error = specError('gpt-4o', '--target');
    expect(error.field).toBe('--target');
    expect(error.message).toContain("Invalid --target SPEC 'gpt-4o': unknown kind 'gpt-4o'.");
    for (const form of MODEL_SPEC_FORMS) expect(error.message).toContain(form);
  });

  it('explains what is wrong with an openai: SPEC', () => {
    expect(specError('http://localhost:8000/v1#m').message).toContain('needs the openai: prefix');
    expect(specError('openai:http://localhost:8000/v1').message).toContain('needs a model name after #');
    expect(specError('openai:http://localhost:8000/v1#').message).toContain('model name after # is empty');
    expect(specError('openai:localhost:8000#m').message).toContain("base URL 'localhost:8000' is not an http(s) URL");
  });

  it('rejects unknown, repeated and malformed options, naming the allowed values', () => {
    const unknown = specError('openai:http://h/v1#m?temp=0');
    expect(unknown.message).toContain("unknown option 'temp'");
    expect(unknown.allowed).toContain('temperature');
    expect(specError('openai:http://h/v1#m?temperature=0&temperature=1').message).toContain("option 'temperature' is given twice");
    expect(specError('openai:http://h/v1#m?temperature=hot').message).toContain("temperature must be a number >= 0, got 'hot'");
    expect(specError('openai:http://h/v1#m?max_tokens=1.5').message).toContain('max_tokens must be a positive integer');
    expect(specError('openai:http://h/v1#m?reasoning=think').allowed).toEqual(['reasoning', 'reasoning_content', 'auto', 'none']);
    expect(specError('openai:http://h/v1#m?tool_choice=any').allowed).toEqual(['auto', 'required', 'none']);
    expect(specError('openai:http://h/v1#m?enable_thinking=maybe').allowed).toEqual(['true', 'false']);
    expect(specError('openai:http://h/v1#m?key_env=not a name').message).toContain('key_env must be an environment variable name');
    expect(specError('openai:http://h/v1#m?attempts=0').message).toContain('attempts must be an integer >= 1');
  });

  it('parses any benchmark name for sim: (the registry decides which exist) and checks the shared parameters', () => {
    expect(parseModelSpec('sim:swebench')).toMatchObject({ kind: 'sim', bench: 'swebench' });
    expect(specError('sim:Bad').message).toContain("'Bad' is not a benchmark name");
    expect(specError('sim:').message).toContain('sim: needs a benchmark name');
    expect(specError('sim:dbbench?seed=-1').message).toContain('seed must be an integer >= 0');
    expect(specError('sim:dbbench?faults=').message).toContain('faults is empty');
  });
});
