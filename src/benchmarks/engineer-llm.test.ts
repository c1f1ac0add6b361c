import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { sandboxCompiler } from '../app/sandbox-compiler.js';
import type { ChatMessage, EpisodeRecord } from '../episode/index.js';
import { createOpenAICompatibleModel } from '../models/openai-compatible-model.js';
import { scripted, startFakeOpenAIServer, type FakeOpenAIServer, type FakeResponse } from '../models/fake-openai-server.js';
import { validateEngineerResponse, type HookCompiler, type PatchVerdict } from '../patch/index.js';
import { createSandboxPool, type SandboxPool } from '../sandbox/index.js';
import type { EngineerResult } from '../engineer/engineer.js';
import { buildEngineerPrompt, EVIDENCE_MARKER, PREFILL_THINK } from '../engineer/engineer-prompt.js';
import { createLlmEngineer, type LlmEngineerOptions } from '../engineer/llm-engineer.js';
import { engineerInput, runSimBaseline, runSimTraceBaseline, TEST_REGISTRY } from '../testing/sim-baseline.fixture.js';

let records: EpisodeRecord[];
let pool: SandboxPool;
let compiler: HookCompiler;
let server: FakeOpenAIServer | undefined;
const sleeps: number[] = [];

beforeAll(async () => {
  pool = createSandboxPool({ size: 1 });
  [records] = await Promise.all([runSimBaseline(Array.from({ length: 12 }, (_, i) => i)), pool.ready()]);
  compiler = sandboxCompiler(pool);
});

afterAll(async () => {
  await pool.close();
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  sleeps.length = 0;
});

/** An engineer talking to a fake vLLM-like server over HTTP, with fast, recorded retry sleeps. */
async function engineerWith(responses: FakeResponse[], options: Partial<LlmEngineerOptions> = {}) {
  server = await startFakeOpenAIServer({ handler: scripted(responses), models: ['engineer'] });
  const model = createOpenAICompatibleModel({
    baseURL: server.url,
    model: 'engineer',
    continueFinalMessage: true,
    chatTemplateKwargs: { enable_thinking: true },
    extraBody: { top_p: 1 },
    retry: { maxAttempts: 3, random: () => 0, sleep: async (ms) => void sleeps.push(ms) },
  });
  const engineer = createLlmEngineer({ model, protocol: 'prefill_think_patch', ...options });
  return { engineer, server };
}

const validate = (text: string, protocol = 'prefill_think_patch'): Promise<PatchVerdict> =>
  validateEngineerResponse(text, { protocol, bench: 'dbbench', benchmarks: TEST_REGISTRY.patchRules(), compiler, codeHookOnly: true, rejectRuntimeNoop: true });

const POST_STEP = `def hook(ctx, nb):
    preds = ctx.get("predicates", {})
    state = ctx.get("state", {})
    if preds.get("unknown_column_error"):
        nb["stage"] = "fixing_unknown_column"
    elif preds.get("repeated_sql"):
        nb["stage"] = "repeated_query_loop"
    elif preds.get("candidate_answer_available") and not state.get("last_result_was_error"):
        nb["stage"] = "ready_to_commit_candidate"
    return None
`;

const PRE_HINT = `def hint_for(stage):
    if stage == "fixing_unknown_column":
        return "The last query named a column that does not exist. Run DESCRIBE on the table and copy the column names exactly, in backticks."
    if stage == "repeated_query_loop":
        return "You already ran this query. If its result answers the question, commit it now; otherwise change the query."
    if stage == "ready_to_commit_candidate":
        return "A result is available. If it answers the question, commit those values exactly as shown."
    return ""

def hook(ctx, nb):
    text = hint_for(nb.get("stage", ""))
    if not text or nb.get("last_hint") == text:
        return None
    nb["last_hint"] = text
    return {"message": text}
`;

const BEFORE_ACTION = `def hook(ctx, nb):
    preds = ctx.get("predicates", {})
    if preds.get("commit_before_sql") and not preds.get("mutation_task") and not nb.get("early_commit_blocked"):
        nb["early_commit_blocked"] = True
        return {"kind": "block_and_prompt", "message": "Run at least one SQL query on the table before committing an answer."}
    return None
`;

function patchJson(hooks: Array<[string, string]>): string {
  return JSON.stringify({
    benchmark: 'dbbench',
    description: 'Track a small stage machine after each query, hint once per stage, and block a commit sent before any SQL on question tasks.',
    actions: hooks.map(([hook, code]) => ({ type: 'add_code_hook', hook, code })),
  });
}

const GOOD_PATCH = patchJson([
  ['on_post_step', POST_STEP],
  ['make_pre_hint', PRE_HINT],
  ['on_before_action', BEFORE_ACTION],
]);
const REASONING = [
  '- Pattern: commits before any SQL, and query loops that never commit.',
  '- nb keeps a stage and the last hint.',
  '- on_post_step moves the stage, make_pre_hint speaks, on_before_action guards the early commit only.',
  '- Risk: blocking good commits; the guard fires once and never on mutations.',
].join('\n');

function ok(result: EngineerResult): Extract<EngineerResult, { status: 'ok' }> {
  expect(result.status, result.status === 'request_failed' ? result.detail : '').toBe('ok');
  return result as Extract<EngineerResult, { status: 'ok' }>;
}

function responseText(result: EngineerResult): string {
  const proposal = ok(result).proposal;
  if (proposal.kind !== 'response') throw new Error('expected a response proposal');
  expect(proposal.protocol).toBe('prefill_think_patch');
  return proposal.text;
}

describe('createLlmEngineer against an OpenAI-compatible server (prefill_think_patch)', () => {
  it('sends system + user + the <think> prefill to continue, and rebuilds a reasoning-split answer into a valid patch', async () => {
    const { engineer, server } = await engineerWith([{ kind: 'text', reasoningContent: REASONING, content: `\n\n<patch>\n${GOOD_PATCH}\n</patch>` }]);
    const result = ok(await engineer.propose(engineerInput(records)));
    expect(engineer).toMatchObject({ label: expect.stringMatching(/^llm:openai:http:\/\/127\.0\.0\.1:\d+\/v1#engineer$/), kind: 'llm' });

    const body = server.requests[0]!.body as Record<string, unknown> & { messages: Array<{ role: string; content: string }> };
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
    expect(body.messages[2]).toEqual({ role: 'assistant', content: '<think>\n' });
    expect(body.messages[1]!.content).toContain(`\n${EVIDENCE_MARKER}\n\n# DBBench no-harness evidence for batch_000`);
    expect(body).toMatchObject({ model: 'engineer', temperature: 0, max_tokens: 12288, continue_final_message: true, add_generation_prompt: false, chat_template_kwargs: { enable_thinking: true }, top_p: 1 });
    expect(body.tools).toBeUndefined();
    expect(result.prompt).toEqual([
      { role: 'system', content: body.messages[0]!.content },
      { role: 'user', content: body.messages[1]!.content },
      { role: 'assistant', content: '<think>\n' },
    ] satisfies ChatMessage[]);
    expect(result.raw).toEqual({ content: `\n\n<patch>\n${GOOD_PATCH}\n</patch>`, reasoning: REASONING });
    expect(result.notes?.[0]).toMatch(/^prompt harness-r1-engineer-prompt-v1 dbbench\/prefill_think_patch static-prefix sha256 [0-9a-f]{64}$/);
    expect(result.notes?.[1]).toMatch(/^packet dbbench-evidence-v1: \d of \d+ failure traces, 1 infrastructure-failed episode\(s\) excluded$/);

    const text = responseText(result);
    expect(text).toBe(`${REASONING}\n</think>\n<patch>\n${GOOD_PATCH}\n</patch>`);
    const verdict = await validate(text);
    expect(verdict.kind, verdict.kind === 'invalid' ? verdict.rejection.message : '').toBe('valid');
    if (verdict.kind === 'valid') expect(verdict.patch.actions.map((a) => (a.type === 'add_code_hook' ? a.hook : a.type))).toEqual(['on_post_step', 'make_pre_hint', 'on_before_action']);
  });

  it('accepts the same answer from a server without a reasoning parser (everything in content)', async () => {
    const { engineer } = await engineerWith([{ kind: 'text', content: `${REASONING}\n</think>\n\n<patch>\n${GOOD_PATCH}\n</patch>` }]);
    const text = responseText(await engineer.propose(engineerInput(records)));
    expect((await validate(text)).kind).toBe('valid');
  });

  it('returns malformed answers as they are; validation then names what is wrong', async () => {
    const cases: Array<[string, string]> = [
      [`${REASONING}\n<patch>\n${GOOD_PATCH}\n</patch>`, 'missing_think_block'],
      [`<think>\n${REASONING}\n</think>\n<patch>\n${GOOD_PATCH}\n</patch>`, 'prefill_starts_with_think'],
      [`${REASONING}\n</think>\nHere is my analysis, but no patch.`, 'missing_patch_block'],
      [`${REASONING}\n</think>\n<patch>\n${GOOD_PATCH}\n`, 'missing_patch_block'],
      [`${REASONING}\n</think>\n<patch>\n{"benchmark": "dbbench", "description": "x", "actions": [add_code_hook]}\n</patch>`, 'no_json_object'],
      [`${REASONING}\n</think>\n<patch>\n${patchJson([['on_init', 'import os\ndef hook(ctx, nb):\n    return None\n'], ['make_pre_hint', PRE_HINT]])}\n</patch>`, 'hook_compile'],
    ];
    const { engineer } = await engineerWith(cases.map(([content]) => ({ kind: 'text', content })));
    for (const [content, rule] of cases) {
      const text = responseText(await engineer.propose(engineerInput(records)));
      expect(text).toBe(content);
      const verdict = await validate(text);
      expect(verdict.kind, rule).toBe('invalid');
      if (verdict.kind === 'invalid') expect(verdict.rejection.rule, content.slice(-80)).toBe(rule);
      if (rule === 'hook_compile' && verdict.kind === 'invalid') expect(verdict.rejection.message).toMatch(/Import/);
    }
  });

  it('maps an HTTP 500 that outlasts the retries to request_failed, without throwing', async () => {
    const error: FakeResponse = { kind: 'http_error', status: 500, body: { error: { message: 'engine overloaded' } } };
    const { engineer, server } = await engineerWith([error, error, error]);
    const result = await engineer.propose(engineerInput(records));
    expect(result).toMatchObject({ status: 'request_failed', detail: expect.stringMatching(/^engineer request failed: Model call failed after 3 attempts; last error: HTTP 500 .*engine overloaded/) });
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toEqual([1000, 2000]);
    expect(result.status === 'request_failed' && result.prompt?.at(-1)).toEqual({ role: 'assistant', content: '<think>\n' });
  });

  it('asks once more after an empty answer, and gives up after a second one', async () => {
    const first = await engineerWith([{ kind: 'text', content: '' }, { kind: 'text', content: `${REASONING}\n</think>\n<patch>\n${GOOD_PATCH}\n</patch>` }]);
    const result = ok(await first.engineer.propose(engineerInput(records)));
    expect(first.server.requests).toHaveLength(2);
    expect(result.notes).toContain('empty response on attempt 1; asked again');
    expect((await validate(responseText(result))).kind).toBe('valid');
    await server?.close();

    const second = await engineerWith([{ kind: 'text', content: '  \n' }, { kind: 'text', content: '', reasoningContent: '' }]);
    expect(await second.engineer.propose(engineerInput(records))).toMatchObject({ status: 'request_failed', detail: 'engineer returned an empty response 2 time(s)' });
    expect(second.server.requests).toHaveLength(2);
  });

  it('reports the cost of an answer: every request, with the tokens the server counted', async () => {
    const { engineer } = await engineerWith([
      { kind: 'text', content: '', usage: { promptTokens: 900, completionTokens: 0 } },
      { kind: 'text', content: `${REASONING}\n</think>\n<patch>\n${GOOD_PATCH}\n</patch>`, usage: { promptTokens: 901, completionTokens: 57 } },
    ]);
    expect(ok(await engineer.propose(engineerInput(records))).usage).toEqual({ modelCalls: 2, promptTokens: 1801, completionTokens: 57 });
    await server?.close();
    const error: FakeResponse = { kind: 'http_error', status: 500, body: { error: { message: 'down' } } };
    const failing = await engineerWith([error, error, error]);
    expect(await failing.engineer.propose(engineerInput(records))).toMatchObject({ status: 'request_failed', usage: { modelCalls: 1, promptTokens: 0, completionTokens: 0 } });
  });

  it('adds the second-pass revision context when given a previous attempt', async () => {
    const previous = {
      result: { tasks: 11, baselinePass: 7, patchedPass: 8, delta: 1 / 11 },
      flips: { correctToWrong: [4], wrongToCorrect: [2, 11] },
      rawOutput: `${REASONING}\n</think>\n<patch>\n${GOOD_PATCH}\n</patch>`,
      patch: JSON.parse(GOOD_PATCH) as unknown,
    };
    const { engineer, server } = await engineerWith([{ kind: 'text', content: `${REASONING}\n</think>\n<patch>\n${GOOD_PATCH}\n</patch>` }], { revision: () => previous });
    const result = ok(await engineer.propose(engineerInput(records)));
    const user = (server.requests[0]!.body as { messages: Array<{ content: string }> }).messages[1]!.content;
    expect(user.indexOf('## Second-pass revision context')).toBeGreaterThan(user.indexOf(EVIDENCE_MARKER));
    expect(user).toContain('- correct → wrong: 4\n- wrong → correct: 2, 11');
    expect(result.notes).toContain('second-pass revision context included');
  });

  it('dispatches on the benchmark: WebShop and ALFWorld get their own packet, prompt and revision context', async () => {
    for (const bench of ['webshop', 'alfworld'] as const) {
      const episodes = await runSimTraceBaseline(bench, [0, 1, 2, 3]);
      const input = engineerInput(episodes, { bench });
      const previous = {
        result: { tasks: 4, baselinePass: 2, patchedPass: 1 },
        flips: { correctToWrong: [1], wrongToCorrect: [] },
        rawOutput: 'x',
        patch: {},
        regressions: episodes.filter((e) => e.task.index === 1),
      };
      const { engineer, server: fake } = await engineerWith([{ kind: 'text', content: `${REASONING}\n</think>\n<patch>\n{}\n</patch>` }], { revision: previous });
      const result = ok(await engineer.propose(input));
      const { prompt, packet } = buildEngineerPrompt(input, { protocol: 'prefill_think_patch', previous });
      const body = fake.requests[0]!.body as { messages: Array<{ role: string; content: string }> };
      expect(body.messages).toEqual([
        { role: 'system', content: prompt.system },
        { role: 'user', content: prompt.user },
        { role: 'assistant', content: PREFILL_THINK },
      ]);
      expect(prompt.user).toContain(`${EVIDENCE_MARKER}\n\n${packet.text}\n\n## Second-pass revision context\n`);
      expect(prompt.user).toContain('- regressed (passed without the patch, fail with it): 2\n');
      expect(result.notes ?? []).toContain('second-pass revision context included');
      expect((result.notes ?? []).some((n) => n.startsWith(`packet ${bench}-trace-packet-v1:`))).toBe(true);
      await fake.close();
      server = undefined;
    }
  });
});

describe('createLlmEngineer with full_think_patch', () => {
  it('sends no prefill and returns the whole answer', async () => {
    const content = `<think>\n${REASONING}\n</think>\n<patch>\n${GOOD_PATCH}\n</patch>`;
    const { engineer, server } = await engineerWith([{ kind: 'text', content }], { protocol: 'full_think_patch', maxTokens: 4096, temperature: 0.7 });
    const result = ok(await engineer.propose(engineerInput(records)));
    const body = server.requests[0]!.body as Record<string, unknown> & { messages: Array<{ role: string }> };
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(body.continue_final_message).toBeUndefined();
    expect(body).toMatchObject({ max_tokens: 4096, temperature: 0.7 });
    expect(result.proposal).toEqual({ kind: 'response', text: content, protocol: 'full_think_patch' });
    expect((await validate(content, 'full_think_patch')).kind).toBe('valid');
  });
});
