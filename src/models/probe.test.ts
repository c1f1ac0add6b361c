import net from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { scripted, startFakeOpenAIServer } from './fake-openai-server.js';
import type { FakeOpenAIServer, FakeOpenAIServerOptions, FakeResponse } from './fake-openai-server.js';
import { createOpenAICompatibleModel } from './openai-compatible-model.js';
import type { OpenAICompatibleModel, OpenAICompatibleModelOptions } from './openai-compatible-model.js';
import { PROBE_PROMPT, formatProbeReport, probeToolCalls } from './probe.js';
import type { ProbeReport } from './probe.js';
import { createScriptedModel } from './scripted-model.js';

let server: FakeOpenAIServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: FakeOpenAIServerOptions | FakeResponse[]): Promise<FakeOpenAIServer> {
  server = await startFakeOpenAIServer(Array.isArray(options) ? { handler: scripted(options) } : options);
  return server;
}

function modelFor(baseURL: string, options: Partial<OpenAICompatibleModelOptions> = {}): OpenAICompatibleModel {
  return createOpenAICompatibleModel({
    baseURL,
    model: 'fake-model',
    env: {},
    retry: { maxAttempts: 1 },
    ...options,
  });
}

/** Runs a one-attempt probe against a server that answers `response`. */
async function probeOnce(response: FakeResponse): Promise<ProbeReport> {
  const s = await start([response]);
  return probeToolCalls(modelFor(s.url), { attempts: 1 });
}

const PARIS: FakeResponse = { kind: 'tool_calls', calls: [{ name: 'lookup_weather', arguments: { city: 'Paris' } }] };

describe('probeToolCalls', () => {
  it('passes when every attempt returns a structured lookup_weather call for Paris', async () => {
    const s = await start([PARIS, { ...PARIS, finishReason: 'stop' }, PARIS]);
    const report = await probeToolCalls(modelFor(s.url, { chatTemplateKwargs: { enable_thinking: false } }));
    expect(report).toMatchObject({ passed: true, passedAttempts: 3, toolChoice: 'auto', endpoint: { baseURL: s.url, model: 'fake-model' } });
    expect(report.attempts.map((a) => a.diagnosis)).toEqual([undefined, undefined, undefined]);
    expect(report.attempts[0]?.checks.map((c) => [c.rule, c.passed])).toEqual([
      ['function_name', true],
      ['city_argument', true],
      ['finish_reason', true],
    ]);
    const bodies = s.requests.map((r) => r.body as Record<string, unknown>);
    expect(bodies).toHaveLength(3);
    expect(bodies[0]).toEqual({
      model: 'fake-model',
      messages: [{ role: 'user', content: PROBE_PROMPT }],
      temperature: 0,
      max_tokens: 512,
      tools: [
        {
          type: 'function',
          function: {
            name: 'lookup_weather',
            description: 'Look up the current weather for a city.',
            parameters: {
              type: 'object',
              properties: { city: { type: 'string', description: 'Name of the city.' } },
              required: ['city'],
              additionalProperties: false,
            },
          },
        },
      ],
      tool_choice: 'auto',
      chat_template_kwargs: { enable_thinking: false },
    });
  });

  it('sends the requested tool_choice', async () => {
    const s = await start([PARIS]);
    await probeToolCalls(modelFor(s.url), { attempts: 1, toolChoice: 'required' });
    expect(s.requests[0]?.body).toMatchObject({ tool_choice: 'required' });
  });

  it('fails the whole probe when one attempt fails', async () => {
    const s = await start([PARIS, { kind: 'text', content: 'It is sunny.' }, PARIS]);
    const report = await probeToolCalls(modelFor(s.url));
    expect(report.passed).toBe(false);
    expect(report.passedAttempts).toBe(2);
    expect(report.attempts.map((a) => a.passed)).toEqual([true, false, true]);
  });

  it('diagnoses a tool call left as <tool_call> text (misconfigured vLLM)', async () => {
    const report = await probeOnce({ kind: 'tool_calls_as_text', calls: [{ name: 'lookup_weather', arguments: { city: 'Paris' } }] });
    const diagnosis = report.attempts[0]?.diagnosis;
    expect(diagnosis?.kind).toBe('tool_call_as_text');
    expect(diagnosis?.explanation).toContain('<tool_call>');
    const fixes = diagnosis?.fixes.join('\n') ?? '';
    expect(fixes).toContain('--enable-auto-tool-choice --tool-call-parser');
    expect(fixes).toContain('SGLang: start it with --tool-call-parser');
    expect(fixes).toContain('--jinja');
    expect(report.attempts[0]?.checks.find((c) => c.rule === 'function_name')).toMatchObject({ passed: false, detail: 'no tool call' });
  });

  it('points XML-style tool text at the qwen3_coder parser', async () => {
    const report = await probeOnce({ kind: 'tool_calls_as_text', format: 'qwen3_coder', calls: [{ name: 'lookup_weather', arguments: { city: 'Paris' } }] });
    expect(report.attempts[0]?.diagnosis?.kind).toBe('tool_call_as_text');
    expect(report.attempts[0]?.diagnosis?.fixes[0]).toContain('--tool-call-parser qwen3_coder');
  });

  it('diagnoses a tool call hidden in the reasoning field', async () => {
    const report = await probeOnce({ kind: 'text', content: '', reasoning: 'I will call <tool_call>{"name": "lookup_weather"}</tool_call>' });
    expect(report.attempts[0]?.diagnosis?.kind).toBe('tool_call_in_reasoning');
    expect(report.attempts[0]?.diagnosis?.fixes.join(' ')).toContain('enable_thinking');
  });

  it('diagnoses a plain text answer', async () => {
    const report = await probeOnce({ kind: 'text', content: 'The weather in Paris is mild.' });
    expect(report.attempts[0]?.diagnosis?.kind).toBe('no_tool_call');
    expect(report.attempts[0]?.diagnosis?.fixes.join(' ')).toContain('tool_choice=required');
  });

  it('diagnoses an answer cut off at max_tokens', async () => {
    const report = await probeOnce({ kind: 'text', content: '', reasoningContent: 'Let me think'.repeat(50), finishReason: 'length' });
    expect(report.attempts[0]?.diagnosis?.kind).toBe('truncated');
  });

  it('diagnoses a wrong function name', async () => {
    const report = await probeOnce({ kind: 'tool_calls', calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] });
    expect(report.attempts[0]?.diagnosis).toMatchObject({ kind: 'wrong_function', title: 'called "get_weather" instead of lookup_weather' });
    expect(report.attempts[0]?.checks.map((c) => c.passed)).toEqual([false, true, true]);
  });

  it('diagnoses arguments that are not JSON', async () => {
    const report = await probeOnce({ kind: 'tool_calls', calls: [{ name: 'lookup_weather', arguments: '{"city": "Paris"' }] });
    expect(report.attempts[0]?.diagnosis?.kind).toBe('arguments_not_json');
    expect(report.attempts[0]?.diagnosis?.explanation).toContain('{"city": "Paris"');
    expect(report.attempts[0]?.diagnosis?.fixes[0]).toContain('--tool-call-parser');
  });

  it('diagnoses a wrong city', async () => {
    const report = await probeOnce({ kind: 'tool_calls', calls: [{ name: 'lookup_weather', arguments: { city: 'paris' } }] });
    expect(report.attempts[0]?.diagnosis).toMatchObject({ kind: 'wrong_arguments', explanation: 'Expected arguments {"city":"Paris"}, got {"city":"paris"}.' });
  });

  it('diagnoses a finish_reason other than tool_calls or stop', async () => {
    const report = await probeOnce({ ...PARIS, finishReason: 'content_filter' });
    expect(report.attempts[0]?.diagnosis).toMatchObject({ kind: 'bad_finish_reason', title: 'finish_reason "content_filter"' });
    expect(report.attempts[0]?.checks.map((c) => c.passed)).toEqual([true, true, false]);
  });

  it('diagnoses an unknown model and lists the served ones', async () => {
    const s = await start({ handler: scripted([]), models: ['Qwen/Qwen3-8B', 'other'], rejectUnknownModels: true });
    const report = await probeToolCalls(modelFor(s.url, { model: 'qwen3' }), { attempts: 2 });
    expect(report.availableModels).toEqual(['Qwen/Qwen3-8B', 'other']);
    const diagnosis = report.attempts[1]?.diagnosis;
    expect(diagnosis).toMatchObject({ kind: 'model_not_found', title: "model 'qwen3' not found" });
    expect(diagnosis?.fixes[0]).toBe(`Use a model name the server serves (GET ${s.url}/models): Qwen/Qwen3-8B, other.`);
    expect(report.attempts[0]?.error).toMatchObject({ status: 404, failure: 'http_status' });
  });

  it('diagnoses a base URL without /v1', async () => {
    const s = await start([PARIS]);
    const origin = s.url.replace(/\/v1$/, '');
    const report = await probeToolCalls(modelFor(origin), { attempts: 1 });
    const diagnosis = report.attempts[0]?.diagnosis;
    expect(diagnosis?.kind).toBe('endpoint_not_found');
    expect(diagnosis?.fixes[0]).toBe(`The base URL ${origin} does not end in /v1; try ${origin}/v1.`);
    expect(diagnosis?.fixes.join(' ')).toContain('must include the API prefix, usually /v1');
  });

  it('diagnoses a missing API key', async () => {
    const s = await start({ handler: scripted([PARIS]), apiKey: 'sk-needed' });
    const report = await probeToolCalls(modelFor(s.url), { attempts: 1 });
    expect(report.attempts[0]?.diagnosis?.kind).toBe('unauthorized');
    expect(report.attempts[0]?.diagnosis?.fixes[0]).toContain('OPENAI_API_KEY');
  });

  it('diagnoses llama.cpp without --jinja and vLLM without auto tool choice', async () => {
    const llama = await probeOnce({ kind: 'http_error', status: 500, body: { error: { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' } } });
    expect(llama.attempts[0]?.diagnosis).toMatchObject({ kind: 'tools_not_enabled' });
    expect(llama.attempts[0]?.diagnosis?.fixes[0]).toContain('--jinja');
    await server?.close();
    const vllm = await probeOnce({
      kind: 'http_error',
      status: 400,
      body: { object: 'error', message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', type: 'BadRequestError', code: 400 },
    });
    expect(vllm.attempts[0]?.diagnosis?.kind).toBe('tools_not_enabled');
    expect(vllm.attempts[0]?.diagnosis?.fixes[0]).toContain('--enable-auto-tool-choice --tool-call-parser');
  });

  it('diagnoses other HTTP errors with the server message', async () => {
    const report = await probeOnce({ kind: 'http_error', status: 500, body: { error: { message: 'CUDA out of memory' } } });
    expect(report.attempts[0]?.diagnosis).toMatchObject({ kind: 'http_error', title: 'HTTP 500' });
    expect(report.attempts[0]?.diagnosis?.explanation).toContain('CUDA out of memory');
  });

  it('diagnoses connection refused', async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const report = await probeToolCalls(modelFor(`http://127.0.0.1:${port}/v1`), { attempts: 3 });
    expect(report.attempts[0]?.diagnosis).toMatchObject({ kind: 'connection_refused', title: 'connection refused' });
    expect(report.attempts[0]?.diagnosis?.explanation).toContain(`Nothing is listening at http://127.0.0.1:${port}/v1.`);
    // A refused connection is permanent: the remaining attempts are not made, and the report says so.
    expect(report).toMatchObject({ requestedAttempts: 3, passed: false });
    expect(report.attempts).toHaveLength(1);
    expect(formatProbeReport(report)).toContain('(attempts 2-3 were not made: the error above is permanent and would repeat)');
  });

  it('diagnoses a timeout and a malformed answer', async () => {
    const s = await start([{ ...PARIS, delayMs: 60_000 }, { kind: 'raw', body: '<html>login</html>' }]);
    const report = await probeToolCalls(modelFor(s.url, { timeoutMs: 100 }), { attempts: 2 });
    expect(report.attempts.map((a) => a.diagnosis?.kind)).toEqual(['timeout', 'malformed_response']);
  });

  it('diagnoses an answer over max_body_bytes and names the SPEC option', async () => {
    const s = await start([{ kind: 'stream', head: '{"choices":[{"message":{"content":"', chunk: 'x'.repeat(4096), repeat: 'endless', limitBytes: 8 * 1024 * 1024 }]);
    const report = await probeToolCalls(modelFor(s.url, { limits: { maxBodyBytes: 65_536 } }), { attempts: 1 });
    expect(report.attempts[0]?.diagnosis).toMatchObject({ kind: 'response_too_large', fixes: expect.arrayContaining([expect.stringContaining('max_body_bytes=<bytes>')]) });
  });

  it('works with any ChatModel', async () => {
    const model = createScriptedModel([{ toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Paris' } }] }]);
    const report = await probeToolCalls(model, { attempts: 1 });
    expect(report).toMatchObject({ model: 'scripted', passed: true });
    expect(report).not.toHaveProperty('endpoint');
  });
});

describe('formatProbeReport', () => {
  it('prints the cause and the fixes once per diagnosis first, then one line per attempt, then the verdict', async () => {
    const textCall: FakeResponse = { kind: 'tool_calls_as_text', calls: [{ name: 'lookup_weather', arguments: { city: 'Paris' } }] };
    const s = await start([{ ...PARIS, usage: { promptTokens: 1, completionTokens: 1 } }, textCall, textCall]);
    const report = await probeToolCalls(modelFor(s.url));
    const text = formatProbeReport({ ...report, attempts: report.attempts.map((a) => (a.response ? { ...a, response: { ...a.response, latencyMs: 12 } } : a)) });
    const lines = text.split('\n');
    expect(lines[0]).toBe(`Tool-call probe of openai:${s.url}#fake-model (tool_choice=auto, 3 attempt(s))`);
    expect(lines[1]).toBe('Tool call returned as text in message.content (attempts 2, 3):');
    const attempts = lines.indexOf('Attempts:');
    expect(attempts).toBeGreaterThan(1);
    expect(lines[attempts + 1]).toBe('  #1 PASS  lookup_weather({"city":"Paris"})  finish_reason=tool_calls  12 ms');
    expect(lines[attempts + 2]).toBe('  #2 FAIL  tool call returned as text in message.content');
    expect(lines.at(-1)).toBe('FAIL: 1 of 3 attempt(s) passed. The server must return structured message.tool_calls.');
    expect(text.match(/What to fix:/g)).toHaveLength(1);
    expect(text).toContain('  - vLLM: start it with --enable-auto-tool-choice --tool-call-parser <parser>');
  });

  it('prints a one-line verdict when everything passed', async () => {
    const s = await start([PARIS]);
    const text = formatProbeReport(await probeToolCalls(modelFor(s.url), { attempts: 1 }));
    expect(text.split('\n').at(-1)).toBe('PASS: all 1 attempt(s) returned a structured lookup_weather call for Paris.');
  });
});
