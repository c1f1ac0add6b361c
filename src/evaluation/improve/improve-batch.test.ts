import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { sandboxCompiler } from '../../app/sandbox-compiler.js';
import { webShopEnvironment } from '../../benchmarks/webshop/environment.js';
import { BUILTIN_PATCH_RULES } from '../../testing/builtin-patch-rules.js';
import { TEST_REGISTRY } from '../../testing/sim-baseline.fixture.js';
import type { EpisodeRecord } from '../../episode/index.js';
import type { Environment } from '../../runtime/environment.js';
import type { ChatRequest } from '../../models/chat-model.js';
import { createScriptedModel, type ScriptedReply } from '../../models/scripted-model.js';
import { validatePatch } from '../../patch/index.js';
import { createSandboxPool, type SandboxPool } from '../../sandbox/index.js';
import type { RunManifest } from '../../store/run-manifest.js';
import { EVIDENCE_MARKER } from '../../engineer/engineer-prompt.js';
import { createLlmEngineer } from '../../engineer/llm-engineer.js';
import { ImproveRunDir } from '../../run-dir/improve-run-dir.js';
import { improveBatch, type BatchResult, type ImproveContext } from './improve-batch.js';
import { baselineOf, BATCH, contextMaker, dataDir, engineer, followingSkill, gold, hook, infra, proposing, sawSkill, SILENT_PATCH, SKILL_PATCH, target, wrong } from '../../testing/scripted-loop.fixture.js';

// Each decision of the batch pipeline, driven by scripted targets and scripted engineers on real DBBench and
// WebShop tasks, with patches compiled and run in the real sandbox. No simulated target.

const root = mkdtempSync(path.join(tmpdir(), 'improve-batch-'));
let pool: SandboxPool;
const context = contextMaker(root, () => pool);

beforeAll(async () => {
  // A generous hook budget: these tests are about decisions, not about the wall clock.
  pool = createSandboxPool({ size: 1, hookTimeoutMs: 1000 });
  await pool.ready();
});

afterAll(async () => {
  await pool.close();
  rmSync(root, { recursive: true, force: true });
});

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
const rerunDirs = (ctx: ImproveContext) => (existsSync(path.join(ctx.rootDir, 'reruns')) ? readdirSync(path.join(ctx.rootDir, 'reruns')) : []);

describe('improveBatch: what a rerun is credited with', () => {
  let failing: Map<number, EpisodeRecord>;
  beforeAll(async () => {
    failing = await baselineOf(target((task) => (task % 2 === 0 ? gold(task) : wrong)));
  });

  it('credits the delta of a patch whose effects applied (scored)', async () => {
    const ctx = context({ target: followingSkill(), engineer: engineer(proposing(SKILL_PATCH)) });
    const r = await improveBatch(ctx, BATCH, failing);
    expect(r.status).toBe('scored');
    expect(r.baseline.pass).toBe(2);
    expect(r.patched?.pass).toBe(4);
    expect(r.reward.score).toBe(0.5);
    expect(r.reward.raw?.rescued).toEqual([1, 3]);
    expect(r.hookEffects).toEqual({ 'on_init:init': 4 });
    expect(readJson<BatchResult>(path.join(ctx.rootDir, 'batches', 'batch_000', 'result.json'))).toEqual(r);
  });

  it('credits 0 to an inert patch even when the rerun moved, and keeps the raw delta', async () => {
    // The rerun target answers right whatever it is shown (a sampling target having a good day): the +0.5
    // is not the patch's doing, since its hook never returned an effect.
    const lucky = target((task) => gold(task));
    const ctx = context({ target: lucky, engineer: engineer(proposing(SILENT_PATCH)) });
    const r = await improveBatch(ctx, BATCH, failing);
    expect(r.status).toBe('inert');
    expect(r.validPatch).toBe(true);
    expect(r.reward.score).toBe(0);
    expect(r.reward.raw).toMatchObject({ deltaPassRate: 0.5, patchedPass: 4, rescued: [1, 3] });
    expect(r.hookEffects).toEqual({});
    expect(r.patched?.pass).toBe(4);
  });

  it('scores a rerun whose infrastructure failure went away on a retry', async () => {
    let failures = 0;
    const flaky = target((task, request) => (task === 2 && failures++ === 0 ? infra : sawSkill(request) ? gold(task) : wrong));
    const ctx = context({ target: flaky, engineer: engineer(proposing(SKILL_PATCH)) });
    const r = await improveBatch(ctx, BATCH, failing);
    expect(r.status).toBe('scored');
    expect(r.rerun).toMatchObject({ attempts: 2, infraFailures: 0 });
    expect(r.reward.score).toBe(0.5);
  });

  it('reports a rerun whose infrastructure failure outlived the retries as a missing evaluation naming the task', async () => {
    // Task #2 passed in the baseline: scored, its failed rerun would be a regression of −0.25.
    const broken = target((task, request) => (task === 2 ? infra : sawSkill(request) ? gold(task) : wrong));
    const ctx = context({ target: broken, engineer: engineer(proposing(SKILL_PATCH)), maxInfraRetries: 2 });
    const r = await improveBatch(ctx, BATCH, failing);
    expect(r.status).toBe('missing_evaluation');
    expect(r.validPatch).toBe(true);
    expect(r.reward.score).toBe(0);
    expect(r.rerun).toMatchObject({ attempts: 3, infraFailures: 1 });
    expect(r.notes.at(-1)).toBe('1 rerun episode(s) still failed for infrastructure reasons after 3 attempt(s): #2 model_error');
    expect(r.reward.raw?.regressed).toEqual([]);
    expect(Object.keys(r.patched?.rewards ?? {})).toEqual(['0', '1', '3']);
  });
});

describe('improveBatch: the stages before a rerun', () => {
  it('asks no engineer about a batch without failures', async () => {
    const all = await baselineOf(target((task) => gold(task)));
    const e = engineer(proposing(SKILL_PATCH));
    const ctx = context({ target: followingSkill(), engineer: e });
    const r = await improveBatch(ctx, BATCH, all);
    expect(r).toMatchObject({ status: 'no_failures', reward: { score: 0, raw: null }, patched: null, rerun: null });
    expect(e.seen).toHaveLength(0);
    expect(rerunDirs(ctx)).toEqual([]);
  });

  it('treats a failed engineer request and an empty proposal as no patch, keeping what the engineer said', async () => {
    const failing = await baselineOf(target(() => wrong));
    const failed = await improveBatch(context({ target: followingSkill(), engineer: engineer({ status: 'request_failed', detail: 'HTTP 500 after 2 attempts' }) }), BATCH, failing);
    expect(failed).toMatchObject({ status: 'engineer_request_failed_treated_as_no_patch', validPatch: false, reward: { score: 0 }, notes: ['HTTP 500 after 2 attempts'] });
    const none = await improveBatch(context({ target: followingSkill(), engineer: engineer({ status: 'ok', proposal: { kind: 'patch', patch: null }, notes: ['no recurring failure'] }) }), BATCH, failing);
    expect(none).toMatchObject({ status: 'no_patch_proposed', reward: { score: 0 }, notes: ['no recurring failure'], rerun: null });
  });

  it('generate-only: validates the patch and writes it where --patch-source reads it, with no rerun and no reward', async () => {
    const failing = await baselineOf(target(() => wrong));
    const ctx = { ...context({ target: followingSkill(), engineer: engineer(proposing(SKILL_PATCH)) }), generateOnly: true };
    const r = await improveBatch(ctx, BATCH, failing);
    expect(r).toMatchObject({ status: 'generated', validPatch: true, patched: null, reward: { score: 0, raw: null }, rerun: null, hookEffects: {} });
    expect(rerunDirs(ctx)).toEqual([]);
    const written = readFileSync(path.join(ctx.rootDir, 'patches', 'batch_000', 'dbbench.json'), 'utf8');
    expect(written).toBe(readFileSync(path.join(ctx.rootDir, 'batches', 'batch_000', 'patch.json'), 'utf8'));
    expect(r.notes.at(-1)).toBe(`generate-only: patch written to ${path.join('patches', 'batch_000', 'dbbench.json')}, not rerun`);
  });

  it('rejects an invalid patch with its reason and runs nothing', async () => {
    const failing = await baselineOf(target(() => wrong));
    const ctx = context({ target: followingSkill(), engineer: engineer(proposing(hook('import os\ndef hook(ctx, nb):\n    return None\n'))) });
    const r = await improveBatch(ctx, BATCH, failing);
    expect(r).toMatchObject({ status: 'invalid_patch_treated_as_no_patch', validPatch: false, reward: { score: 0 }, rerun: null });
    expect(r.rejection).toBe('actions[0].code: hook_compile: hook uses forbidden syntax: Import');
    expect(rerunDirs(ctx)).toEqual([]);
  });

  it('rejects a runtime no-op answer (a DBBench skill, which code-hook RL never runs) and creates no rerun directory', async () => {
    const failing = await baselineOf(target(() => wrong));
    const noop = { benchmark: 'dbbench', actions: [{ type: 'add_or_edit_skill', skill_id: 'quote_names', task_types: ['*'], text: 'Quote every identifier with backticks.' }] };
    // Valid as a patch: only the runtime no-op check of the options improveBatch builds rejects it.
    expect((await validatePatch(noop, { bench: 'dbbench', benchmarks: BUILTIN_PATCH_RULES, compiler: sandboxCompiler(pool) })).kind).toBe('valid');
    const answer = `The agent never quotes names.\n</think>\n<patch>${JSON.stringify(noop)}</patch>`;
    const model = followingSkill();
    const ctx = context({ target: model, engineer: engineer({ status: 'ok', proposal: { kind: 'response', text: `<think>\n${answer}`, protocol: 'full_think_patch' } }) });
    const r = await improveBatch(ctx, BATCH, failing);
    expect(r).toMatchObject({ status: 'runtime_noop_patch_treated_as_no_patch', validPatch: false, reward: { score: 0, raw: null }, rerun: null, patched: null });
    expect(r.rejection).toMatch(/^actions\[0\]\.type: runtime_noop: /);
    expect(existsSync(path.join(ctx.rootDir, 'reruns'))).toBe(false);
    expect(existsSync(path.join(ctx.rootDir, 'batches', 'batch_000', 'patch.json'))).toBe(false);
    expect(model.calls).toHaveLength(0);
  });
});

describe('improveBatch: baseline infrastructure failures', () => {
  it('leaves tasks whose baseline failed for infrastructure reasons out of the engineer, the rerun and the reward', async () => {
    const baseline = await baselineOf(target((task) => (task === 1 ? infra : task === 0 ? gold(task) : wrong)));
    expect(baseline.get(1)?.outcome).toBe('model_error');
    const e = engineer(proposing(SKILL_PATCH));
    const ctx = context({ target: followingSkill(), engineer: e });
    const r = await improveBatch(ctx, BATCH, baseline);
    expect(r.excludedTasks).toEqual([1]);
    expect(r.taskIndices).toEqual([0, 1, 2, 3]);
    expect(r.baseline).toEqual({ pass: 1, rewards: { 0: 1, 2: 0, 3: 0 } });
    expect(e.seen[0]!.episodes.map((x) => x.task.index)).toEqual([0, 2, 3]);
    const [key] = rerunDirs(ctx);
    expect(readJson<RunManifest>(path.join(ctx.rootDir, 'reruns', key!, 'run.json')).taskIndices).toEqual([0, 2, 3]);
    // Three usable tasks, two rescued: the excluded task is neither a failure nor part of the denominator.
    expect(r).toMatchObject({ status: 'scored', reward: { score: 2 / 3 }, patched: { pass: 3 } });
  });
});

describe('improveBatch: resume', () => {
  it('returns a finished batch as recorded, and reuses a complete rerun without playing it again', async () => {
    const failing = await baselineOf(target(() => wrong));
    const e = engineer(proposing(SKILL_PATCH));
    const first = target((task, request) => (sawSkill(request) ? gold(task) : wrong));
    const ctx = context({ target: first, engineer: e });
    const r = await improveBatch(ctx, BATCH, failing);
    expect(r.rerun?.cacheHit).toBe(false);
    const played = first.calls.length;
    expect(await improveBatch(ctx, BATCH, failing)).toEqual(r);
    expect(first.calls.length).toBe(played);
    expect(e.seen).toHaveLength(1);

    rmSync(path.join(ctx.rootDir, 'batches', 'batch_000', 'result.json'));
    const again = await improveBatch(ctx, BATCH, failing);
    expect(first.calls.length).toBe(played);
    expect(e.seen).toHaveLength(1); // the engineer's answer is kept too
    // A cache hit plays no attempt of its own.
    expect(again).toEqual({ ...r, rerun: { ...r.rerun, cacheHit: true, attempts: 0 } });
  });
});

describe('improveBatch: WebShop task identity', () => {
  it('refuses a legacy patch off DBBench, and a rerun whose task manifests differ from the baseline, writing no result', async () => {
    const shop = (goalSeed: number) => (): Promise<Environment> => Promise.resolve(webShopEnvironment({ dataDir, goals: 'synthetic', goalSeed }));
    // One search, then the first result is bought: an ordinary (wrong) purchase with a task manifest.
    // Search, open the first product, buy it: an ordinary purchase, whose record carries the task manifest.
    const buyer = () =>
      createScriptedModel(
        Array.from({ length: 16 }, () => (request: ChatRequest): ScriptedReply => {
          const shown = String(request.messages.at(-1)?.content ?? '');
          const clickables = /'clickables': \[(.*)\]/.exec(shown)?.[1]?.split(', ').map((c) => c.slice(1, -1)) ?? [];
          if (shown.includes("'has_search_bar': True")) return { toolCalls: [{ name: 'search_action', arguments: { keywords: 'gift set' } }] };
          const next = clickables.includes('buy now') ? 'buy now' : clickables.find((c) => /^b0/.test(c))!;
          return { toolCalls: [{ name: 'click_action', arguments: { value: next } }] };
        }),
      );
    const tasks = [0, 1];
    const baseline = await baselineOf(buyer(), shop(233), tasks);
    expect(baseline.get(0)).toMatchObject({ outcome: expect.stringMatching(/^(success|wrong_answer)$/), rounds: 3, detail: { webshopTaskManifest: { goal_seed: 233, index: 0 } } });
    const ctx = context({
      benchmark: TEST_REGISTRY.get('webshop'),
      split: 'synthetic',
      metric: 'delta_average_reward',
      // The rerun is played on another goal seed: the same indices are other tasks.
      openEnvironment: shop(234),
      target: buyer(),
      engineer: engineer(proposing({ benchmark: 'webshop', actions: [{ type: 'add_code_hook', hook: 'make_pre_hint', code: 'def hook(ctx, nb):\n    return {"message": "Check the options."}\n' }] })),
    });
    // Off DBBench a patch must be code hooks only: a legacy skill is rejected before any rerun.
    const legacy = context({ ...ctx, rootDir: `${ctx.rootDir}-legacy`, engineer: engineer(proposing({ benchmark: 'webshop', actions: [{ type: 'add_or_edit_skill', skill_id: 'check_options', task_types: ['*'], keywords: ['buy'], text: 'Check the options first.' }] })) });
    const refused = await improveBatch(legacy, { tag: 'batch_000', taskIndices: tasks }, baseline);
    expect(refused).toMatchObject({ status: 'invalid_patch_treated_as_no_patch', rerun: null, rejection: expect.stringMatching(/code_hook_only/) });
    await expect(improveBatch(ctx, { tag: 'batch_000', taskIndices: tasks }, baseline)).rejects.toThrow(/identity mismatch: missing=\[\], unexpected=\[\], mismatched=\[0,1\]/);
    expect(existsSync(path.join(ctx.rootDir, 'batches', 'batch_000', 'result.json'))).toBe(false);
    expect(existsSync(path.join(ctx.rootDir, 'summary.json'))).toBe(false);
  });
});

describe('improveBatch: the failure packet as a stage file', () => {
  it('stores the packet the engineer saw, built from the usable baseline episodes, before the engineer is asked', async () => {
    const failing = await baselineOf(target((task) => (task === 1 ? infra : wrong)));
    const answers = createScriptedModel([{ content: `<think>\nQuote names.\n</think>\n<patch>${JSON.stringify(SKILL_PATCH)}</patch>` }]);
    const llm = createLlmEngineer({ model: answers, protocol: 'full_think_patch' });
    const ctx = context({ target: followingSkill(), engineer: llm });
    const result = await improveBatch(ctx, BATCH, failing);
    expect(result.excludedTasks).toEqual([1]);
    const dir = new ImproveRunDir(ctx.rootDir).batch(BATCH.tag);
    const packet = dir.readPacket()!;
    expect(packet).toMatchObject({ schemaVersion: 1, bench: 'dbbench', format: 'dbbench-evidence-v1', stats: { tasks: 4, failures: 3 } });
    // The engineer's prompt carries exactly the stored text after the evidence marker.
    const user = String(dir.readPrompt()!.find((m) => m.role === 'user')?.content);
    expect(user).toContain(`${EVIDENCE_MARKER}\n\n${packet.text}`);
    // A resumed batch keeps the stored packet and asks nobody again.
    expect(await improveBatch(ctx, BATCH, failing)).toEqual(result);
    expect(answers.calls).toHaveLength(1);
  });
});
