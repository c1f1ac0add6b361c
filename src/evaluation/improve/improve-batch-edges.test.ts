import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { EpisodeRecord } from '../../episode/index.js';
import { createSandboxPool, type SandboxPool } from '../../sandbox/index.js';
import { ImproveRunDir } from '../../run-dir/improve-run-dir.js';
import { improveBatch } from './improve-batch.js';
import { playBaseline, recordedTurnsOf } from './play-baseline.js';
import { baselineOf, BATCH, contextMaker, dbbench, engineer, followingSkill, infra, proposing, SILENT_PATCH, SKILL_PATCH, target, wrong } from '../../testing/scripted-loop.fixture.js';

// The edges of one batch: a baseline with nothing scored, a stop before the engineer or during the rerun,
// and the baseline's recorded turns handed to an exact-replay rerun. Scripted targets and engineers on real
// DBBench tasks, patches run in the real sandbox.

const root = mkdtempSync(path.join(tmpdir(), 'improve-batch-edges-'));
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

const resultFile = (rootDir: string) => path.join(rootDir, 'batches', BATCH.tag, 'result.json');

describe('improveBatch: a baseline with nothing scored', () => {
  it('asks nobody about a batch whose every baseline episode failed for infrastructure reasons, and names them', async () => {
    const broken = await baselineOf(target(() => infra));
    const e = engineer(proposing(SKILL_PATCH));
    const r = await improveBatch(context({ target: followingSkill(), engineer: e }), BATCH, broken);
    expect(r).toMatchObject({ status: 'no_scored_baseline', validPatch: false, excludedTasks: [0, 1, 2, 3], baseline: { pass: 0, rewards: {} }, reward: { score: 0, raw: null }, rerun: null, patched: null });
    expect(r.notes).toEqual(['every baseline episode of the batch ended in an infrastructure failure: #0 model_error, #1 model_error, #2 model_error, #3 model_error']);
    expect(e.seen).toHaveLength(0);
  });

  it('says so when the batch has no baseline record at all', async () => {
    const r = await improveBatch(context({ target: followingSkill(), engineer: engineer(proposing(SKILL_PATCH)) }), BATCH, new Map<number, EpisodeRecord>());
    expect(r.status).toBe('no_scored_baseline');
    expect(r.notes).toEqual(['every baseline episode of the batch ended in an infrastructure failure: none recorded']);
  });
});

describe('improveBatch: stopped', () => {
  it('stops before asking the engineer, deciding nothing', async () => {
    const failing = await baselineOf(target(() => wrong));
    const controller = new AbortController();
    controller.abort();
    const e = engineer(proposing(SKILL_PATCH));
    const ctx = context({ target: followingSkill(), engineer: e, signal: controller.signal });
    await expect(improveBatch(ctx, BATCH, failing)).rejects.toThrow(/^interrupted before the engineer of batch_000$/);
    expect(e.seen).toHaveLength(0);
    expect(existsSync(resultFile(ctx.rootDir))).toBe(false);
  });

  it('stops during the rerun, keeping the engineer answer and deciding nothing', async () => {
    const failing = await baselineOf(target(() => wrong));
    const controller = new AbortController();
    const model = followingSkill();
    const ctx = context({ target: model, engineer: engineer(proposing(SKILL_PATCH)), signal: controller.signal, onProgress: (e) => e.kind === 'stage' && e.stage === 'rerun' && controller.abort() });
    await expect(improveBatch(ctx, BATCH, failing)).rejects.toThrow(/^interrupted during the rerun of batch_000$/);
    expect(model.calls).toHaveLength(0);
    expect(existsSync(resultFile(ctx.rootDir))).toBe(false);
    expect(new ImproveRunDir(ctx.rootDir).batch(BATCH.tag).readEngineer()).toEqual(proposing(SKILL_PATCH));
  });
});

describe('improveBatch: the baseline turns', () => {
  it('hands the baseline turns to an exact-replay rerun, which answers every unchanged request from them', async () => {
    const dir = path.join(root, 'stored-baseline');
    const environment = await dbbench();
    let records: EpisodeRecord[];
    try {
      records = await playBaseline({ dir, environment, target: target(() => wrong), taskIndices: BATCH.taskIndices, manifest: { bench: 'dbbench', split: 'dev', target: { spec: 'scripted', label: 'scripted-target', simulated: true }, options: {} }, concurrency: 1, maxInfraRetries: 0 });
    } finally {
      await environment.close();
    }
    const byIndex = new Map(records.map((r) => [r.task.index, r]));
    const model = target(() => wrong);
    const r = await improveBatch(context({ target: model, engineer: engineer(proposing(SILENT_PATCH)), replay: 'exact' }), BATCH, byIndex, recordedTurnsOf(dir));
    expect(r.status).toBe('inert');
    expect(r.rerun?.replay).toEqual({ mode: 'exact', turns: 4, replayed: 4 });
    expect(model.calls).toHaveLength(0);
  });
});
