import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { resolveEngineer } from '../app/resolve-engineer.js';
import { resolveTarget } from '../app/resolve-target.js';
import { sandboxCompiler } from '../app/sandbox-compiler.js';
import type { EpisodeRecord } from '../episode/index.js';
import type { EngineerResult } from '../engineer/engineer.js';
import { parseModelSpec } from '../models/model-spec.js';
import { startFakeOpenAIServer, type FakeChatRequest, type FakeOpenAIServer, type FakeResponse } from '../models/fake-openai-server.js';
import { validateEngineerResponse } from '../patch/index.js';
import { createSandboxPool, type SandboxPool } from '../sandbox/index.js';
import { engineerInput, runSimBaseline, TEST_REGISTRY } from '../testing/sim-baseline.fixture.js';

let records: EpisodeRecord[];
let pool: SandboxPool;
let server: FakeOpenAIServer | undefined;

beforeAll(async () => {
  pool = createSandboxPool({ size: 1 });
  [records] = await Promise.all([runSimBaseline(Array.from({ length: 10 }, (_, i) => i)), pool.ready()]);
});
afterAll(async () => pool.close());
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const PATCH = JSON.stringify({
  benchmark: 'dbbench',
  description: 'Hint once to check column names with DESCRIBE after an unknown-column error.',
  actions: [
    {
      type: 'add_code_hook',
      hook: 'on_post_step',
      code: 'def hook(ctx, nb):\n    if ctx.get("predicates", {}).get("unknown_column_error") and not nb.get("hinted"):\n        nb["hinted"] = True\n        return {"message": "A column name was wrong: run DESCRIBE on the table and copy the names exactly."}\n    return None\n',
    },
  ],
});
const FULL_ANSWER = `<think>\nUnknown columns recur; one hint after the error.\n</think>\n<patch>\n${PATCH}\n</patch>`;

/** Extensions a hosted API does not know; a request carrying any of them is refused as OpenAI does. */
function usesPrefillExtensions(body: FakeChatRequest): boolean {
  const last = body.messages.at(-1) as { role?: string } | undefined;
  return 'continue_final_message' in body || 'add_generation_prompt' in body || 'chat_template_kwargs' in body || last?.role === 'assistant';
}

/** A hosted-API-like server: refuses the prefill extensions with 400, answers a plain request in full_think_patch. */
function strictServer(): Promise<FakeOpenAIServer> {
  return startFakeOpenAIServer({
    models: ['engineer'],
    handler: (body): FakeResponse =>
      usesPrefillExtensions(body)
        ? { kind: 'http_error', status: 400, body: { error: { message: 'Unrecognized request argument supplied: continue_final_message', type: 'invalid_request_error' } } }
        : { kind: 'text', content: FULL_ANSWER },
  });
}

function ok(result: EngineerResult): Extract<EngineerResult, { status: 'ok' }> {
  expect(result.status, result.status === 'request_failed' ? result.detail : '').toBe('ok');
  return result as Extract<EngineerResult, { status: 'ok' }>;
}

describe('the LLM engineer on a server that refuses the prefill extensions', () => {
  it('auto (default): refused once with HTTP 400, then full_think_patch without extensions; the answer validates; later batches ask plainly at once', async () => {
    server = await strictServer();
    const { engineer } = await resolveEngineer(`openai:${server.url}#engineer`);
    const first = ok(await engineer.propose(engineerInput(records)));
    expect(first.proposal).toMatchObject({ kind: 'response', protocol: 'full_think_patch' });
    expect(first.notes?.[0]).toMatch(/refused the prefill request \(HTTP 400: Unrecognized request argument supplied: continue_final_message\); full_think_patch protocol used instead/);
    expect(server.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(2);
    const plain = server.requests.at(-1)!.body as FakeChatRequest;
    expect(usesPrefillExtensions(plain)).toBe(false);
    expect(plain.messages.map((m) => (m as { role: string }).role)).toEqual(['system', 'user']);
    if (first.proposal.kind !== 'response') throw new Error('expected a response');
    const verdict = await validateEngineerResponse(first.proposal.text, {
      protocol: 'full_think_patch', bench: 'dbbench', benchmarks: TEST_REGISTRY.patchRules(), compiler: sandboxCompiler(pool), codeHookOnly: true, rejectRuntimeNoop: true,
    });
    expect(verdict.kind, JSON.stringify(verdict)).toBe('valid');

    const before = server.requests.length;
    ok(await engineer.propose(engineerInput(records, { batchTag: 'batch_001' })));
    expect(server.requests.length - before).toBe(1); // no second refusal: the switch holds
  });

  it('engineer_protocol=prefill keeps the reference protocol and reports the refusal as a request failure that names it', async () => {
    server = await strictServer();
    const { engineer } = await resolveEngineer(`openai:${server.url}#engineer?engineer_protocol=prefill&attempts=1`);
    const result = await engineer.propose(engineerInput(records));
    expect(result.status).toBe('request_failed');
    if (result.status !== 'request_failed') return;
    expect(result.detail).toMatch(/400/);
    expect(result.detail).toMatch(/continue_final_message/);
  });

  it('engineer_protocol=full asks plainly from the first request', async () => {
    server = await strictServer();
    const { engineer } = await resolveEngineer(`openai:${server.url}#engineer?engineer_protocol=full`);
    const result = ok(await engineer.propose(engineerInput(records)));
    expect(result.proposal).toMatchObject({ protocol: 'full_think_patch' });
    expect(server.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(1);
  });

  it('a server that accepts the extensions is asked with the prefill, as the reference', async () => {
    server = await startFakeOpenAIServer({ models: ['engineer'], handler: () => ({ kind: 'text', content: `Unknown columns recur.\n</think>\n<patch>\n${PATCH}\n</patch>` }) });
    const { engineer } = await resolveEngineer(`openai:${server.url}#engineer`);
    const result = ok(await engineer.propose(engineerInput(records)));
    expect(result.proposal).toMatchObject({ protocol: 'prefill_think_patch' });
    const body = server.requests.at(-1)!.body as FakeChatRequest;
    expect(body).toMatchObject({ continue_final_message: true, add_generation_prompt: false, chat_template_kwargs: { enable_thinking: true } });
  });

  it('engineer_protocol: unknown values and use on a target are usage errors naming the allowed values', async () => {
    expect(() => parseModelSpec('openai:http://127.0.0.1:1/v1#m?engineer_protocol=maybe', { field: 'engineer' })).toThrow(/engineer_protocol must be one of auto, prefill, full/);
    await expect(resolveTarget('openai:http://127.0.0.1:1/v1#m?engineer_protocol=full', { registry: TEST_REGISTRY })).rejects.toThrow(/engineer_protocol is an engineer option/);
  });
});
