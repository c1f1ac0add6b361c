import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createScriptedModel } from '../../models/scripted-model.js';
import { createLlmEngineer } from '../../engineer/llm-engineer.js';
import { createSandboxPool, type SandboxPool } from '../../sandbox/index.js';
import { BATCH_RESULT_VERSION } from '../../run-dir/batch-artifacts.js';
import { ImproveRunDir } from '../../run-dir/improve-run-dir.js';
import { improveBatch, type ImproveContext, type ImproveEvent } from './improve-batch.js';
import { baselineOf, BATCH, contextMaker, dbbench, engineer, followingSkill, gold, hook, infra, proposing, sawSkill, SKILL_PATCH, target, wrong } from '../../testing/scripted-loop.fixture.js';

// What a batch records besides its status and reward: the stage files, the progress events, the hook fault
// count, the notes, and which tasks it measured. Scripted targets and engineers on real DBBench tasks, patches
// run in the real sandbox.

const root = mkdtempSync(path.join(tmpdir(), 'improve-batch-records-'));
let pool: SandboxPool;
const context = contextMaker(root, () => pool);

beforeAll(async () => {
  pool = createSandboxPool({ size: 1, hookTimeoutMs: 1000 });
  await pool.ready();
});

afterAll(async () => {
  await pool.close();
  rmSync(root, { recursive: true, force: true });
});

/** A context that also collects the progress events. */
function recording(over: Partial<ImproveContext> & Pick<ImproveContext, 'target' | 'engineer'>): { ctx: ImproveContext; events: ImproveEvent[] } {
  const events: ImproveEvent[] = [];
  return { ctx: context({ ...over, onProgress: (e) => events.push(e) }), events };
}

const stage = (s: 'engineer' | 'validate' | 'rerun' | 'done', detail?: string): ImproveEvent => ({ kind: 'stage', batchTag: BATCH.tag, stage: s, ...(detail === undefined ? {} : { detail }) });
// A finished episode's event names its outcome; the opening event (done 0) has none.
const episode = (done: number): ImproveEvent => ({ kind: 'episode', batchTag: BATCH.tag, done, total: 4, ...(done > 0 ? { outcome: expect.any(String) as unknown as 'success' } : {}) });

describe('improveBatch: the stage files and progress of a scored batch', () => {
  it('writes metadata, engineer answer, verdict and patch, reports each stage, and keeps the engineer notes', async () => {
    // Tasks 0 and 2 pass in the baseline.
    const failing = await baselineOf(target((task) => (task % 2 === 0 ? gold(task) : wrong)));
    const answer = { status: 'ok' as const, proposal: { kind: 'patch' as const, patch: SKILL_PATCH }, notes: ['the agent never quotes names'] };
    const { ctx, events } = recording({ target: followingSkill(), engineer: engineer(answer) });
    const r = await improveBatch(ctx, BATCH, failing);
    const dir = new ImproveRunDir(ctx.rootDir).batch(BATCH.tag);

    expect(r).toMatchObject({ status: 'scored', hookFaults: 0, rejection: null, engineer: { label: 'fixed-engineer', symbolic: false } });
    expect(r.notes).toEqual(['the agent never quotes names']);
    expect(r.patched).toEqual({ pass: 4, rewards: { 0: 1, 1: 1, 2: 1, 3: 1 } });
    expect(r.rerun).toEqual({ cacheKey: expect.stringMatching(/^[0-9a-f]{16}$/), cacheHit: false, attempts: 1, infraFailures: 0, replay: { mode: 'off', turns: 4, replayed: 0 } });
    expect(existsSync(new ImproveRunDir(ctx.rootDir).rerunDir(r.rerun!.cacheKey))).toBe(true);

    expect(dir.readMetadata()).toEqual({
      schemaVersion: BATCH_RESULT_VERSION,
      batchTag: BATCH.tag,
      taskIndices: [0, 1, 2, 3],
      excludedTasks: [],
      baseline: { pass: 2, rewards: { 0: 1, 1: 0, 2: 1, 3: 0 } },
      engineer: { label: 'fixed-engineer', symbolic: false },
      split: 'dev',
      target: 'scripted-target',
      targetSimulated: true,
      threshold: 1,
      metric: 'delta_pass_rate',
    });
    expect(dir.readEngineer()).toEqual(answer);
    const verdict = dir.readVerdict();
    expect(verdict?.kind).toBe('valid');
    expect(dir.readPatch()).toEqual(verdict?.kind === 'valid' ? verdict.patch : undefined);
    expect(JSON.stringify(dir.readPatch())).toContain('QUOTE-EVERY-IDENTIFIER');
    // A patch engineer sends no prompt and returns no raw text.
    expect(existsSync(dir.file('prompt'))).toBe(false);
    expect(dir.readRawResponse()).toBeUndefined();

    expect(events).toEqual([stage('engineer'), stage('validate'), stage('rerun'), episode(0), episode(1), episode(2), episode(3), episode(4), stage('done', 'scored')]);
  });

  it('keeps the raw answer of an LLM engineer as returned', async () => {
    const failing = await baselineOf(target(() => wrong));
    const text = `<think>\nQuote names.\n</think>\n<patch>${JSON.stringify(SKILL_PATCH)}</patch>`;
    const ctx = context({ target: followingSkill(), engineer: createLlmEngineer({ model: createScriptedModel([{ content: text }]), protocol: 'full_think_patch' }) });
    const r = await improveBatch(ctx, BATCH, failing);
    expect(r.status).toBe('scored');
    expect(new ImproveRunDir(ctx.rootDir).batch(BATCH.tag).readRawResponse()).toBe(text);
  });
});

describe('improveBatch: the records of batches that end early', () => {
  it('records a batch without failures in full, with a symbolic engineer named as such', async () => {
    const all = await baselineOf(target((task) => gold(task)));
    const symbolic = { ...engineer(proposing(SKILL_PATCH)), label: 'rules', kind: 'symbolic' as const };
    const { ctx, events } = recording({ target: followingSkill(), engineer: symbolic });
    const r = await improveBatch(ctx, BATCH, all);
    expect(r).toEqual({
      schemaVersion: BATCH_RESULT_VERSION,
      batchTag: BATCH.tag,
      taskIndices: [0, 1, 2, 3],
      excludedTasks: [],
      baseline: { pass: 4, rewards: { 0: 1, 1: 1, 2: 1, 3: 1 } },
      engineer: { label: 'rules', symbolic: true },
      status: 'no_failures',
      validPatch: false,
      patched: null,
      reward: { score: 0, metric: 'delta_pass_rate', raw: null },
      hookEffects: {},
      hookFaults: 0,
      rejection: null,
      rerun: null,
      notes: [],
    });
    expect(new ImproveRunDir(ctx.rootDir).batch(BATCH.tag).readMetadata()?.engineer).toEqual({ label: 'rules', symbolic: true });
    expect(events).toEqual([stage('done', 'no_failures')]);
  });

  it('reports the engineer and validation stages of a rejected patch, and no rerun', async () => {
    const failing = await baselineOf(target(() => wrong));
    const { ctx, events } = recording({ target: followingSkill(), engineer: engineer(proposing(hook('import os\ndef hook(ctx, nb):\n    return None\n'))) });
    const r = await improveBatch(ctx, BATCH, failing);
    expect(r.status).toBe('invalid_patch_treated_as_no_patch');
    expect(new ImproveRunDir(ctx.rootDir).batch(BATCH.tag).readVerdict()?.kind).toBe('invalid');
    expect(events).toEqual([stage('engineer'), stage('validate'), stage('done', 'invalid_patch_treated_as_no_patch')]);
  });
});

describe('improveBatch: hook faults and rerun notes', () => {
  it('counts every faulting hook call, and credits nothing to a patch whose hook only fails', async () => {
    const failing = await baselineOf(target(() => wrong));
    const raising = hook('def hook(ctx, nb):\n    skills = []\n    return {"skills": [skills[1]]}\n');
    const r = await improveBatch(context({ target: followingSkill(), engineer: engineer(proposing(raising)) }), BATCH, failing);
    expect(r).toMatchObject({ status: 'inert', validPatch: true, hookFaults: 4, hookEffects: {}, notes: [], reward: { score: 0 } });
  });

  it('names every task whose rerun still failed for infrastructure reasons, after the engineer notes', async () => {
    const failing = await baselineOf(target(() => wrong));
    const broken = target((task, request) => (task >= 2 ? infra : sawSkill(request) ? gold(task) : wrong));
    const answer = { status: 'ok' as const, proposal: { kind: 'patch' as const, patch: SKILL_PATCH }, notes: ['quote names'] };
    const r = await improveBatch(context({ target: broken, engineer: engineer(answer) }), BATCH, failing);
    expect(r.status).toBe('missing_evaluation');
    expect(r.rerun).toMatchObject({ attempts: 2, infraFailures: 2 });
    expect(r.notes).toEqual(['quote names', '2 rerun episode(s) still failed for infrastructure reasons after 2 attempt(s): #2 model_error, #3 model_error']);
  });
});

describe('improveBatch: which results and baselines it uses', () => {
  it('recomputes a stored result of another schema version, keeping the stored packet and engineer answer', async () => {
    const failing = await baselineOf(target(() => wrong));
    const e = engineer(proposing(SKILL_PATCH));
    const ctx = context({ target: followingSkill(), engineer: e });
    const first = await improveBatch(ctx, BATCH, failing);
    const dir = new ImproveRunDir(ctx.rootDir).batch(BATCH.tag);
    dir.writeResult({ ...first, schemaVersion: 0 as unknown as typeof BATCH_RESULT_VERSION, status: 'no_failures' });
    dir.writePacket({ ...dir.readPacket()!, text: 'the packet as stored' });
    const again = await improveBatch(ctx, BATCH, failing);
    expect(again).toEqual({ ...first, rerun: { ...first.rerun, cacheHit: true, attempts: 0 } });
    expect(dir.readResult()).toEqual(again);
    expect(dir.readPacket()?.text).toBe('the packet as stored');
    expect(e.seen).toHaveLength(1);
  });

  it('leaves out a task that has no baseline record', async () => {
    const partial = await baselineOf(target(() => wrong), dbbench, [0, 1, 2]);
    const e = engineer(proposing(SKILL_PATCH));
    const r = await improveBatch(context({ target: followingSkill(), engineer: e }), BATCH, partial);
    expect(r.excludedTasks).toEqual([3]);
    expect(r.baseline).toEqual({ pass: 0, rewards: { 0: 0, 1: 0, 2: 0 } });
    expect(e.seen[0]!.episodes.map((x) => x.task.index)).toEqual([0, 1, 2]);
    expect(r).toMatchObject({ status: 'scored', patched: { pass: 3 }, reward: { score: 1 } });
  });
});
