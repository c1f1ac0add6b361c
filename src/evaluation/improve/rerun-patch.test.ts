import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createSandboxPool, type SandboxPool } from '../../sandbox/index.js';
import type { RunManifest } from '../../store/run-manifest.js';
import type { Environment } from '../../runtime/environment.js';
import { validatePatch, type HarnessPatch } from '../../patch/index.js';
import { BUILTIN_PATCH_RULES } from '../../testing/builtin-patch-rules.js';
import { sandboxCompiler } from '../../app/sandbox-compiler.js';
import { rerunPatch } from './judge-proposal.js';
import { contextMaker, dbbench, engineer, followingSkill, gold, infra, proposing, SKILL_PATCH, target, taskOf, wrong } from '../../testing/scripted-loop.fixture.js';

// The rerun store of a patch, driven directly: its manifest, its completeness check (a cache hit only when
// every task is done) and its bounded infrastructure retries. Scripted targets, the real sandbox.

const root = mkdtempSync(path.join(tmpdir(), 'rerun-patch-'));
let pool: SandboxPool;
const context = contextMaker(root, () => pool);
let patch: HarnessPatch;

beforeAll(async () => {
  pool = createSandboxPool({ size: 1, hookTimeoutMs: 1000 });
  await pool.ready();
  const verdict = await validatePatch(SKILL_PATCH, { bench: 'dbbench', benchmarks: BUILTIN_PATCH_RULES, compiler: sandboxCompiler(pool) });
  if (verdict.kind !== 'valid') throw new Error('the skill patch should be valid');
  patch = verdict.patch;
});

afterAll(async () => {
  await pool.close();
  rmSync(root, { recursive: true, force: true });
});

describe('rerunPatch', () => {
  it('records the target and the rerun context in the manifest of a new rerun store', async () => {
    const model = followingSkill();
    const ctx = context({ target: model, engineer: engineer(proposing(SKILL_PATCH)), rerunContext: { target: 'scripted:spec', grading: 'strict' } });
    const dir = path.join(ctx.rootDir, 'reruns', 'manifest-case');
    const r = await rerunPatch(ctx, 'batch_007', patch, [0, 1], dir);
    expect(r.cacheHit).toBe(false);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')) as RunManifest;
    expect(manifest.target).toEqual({ spec: 'scripted:spec', label: 'scripted-target', simulated: true });
    expect(manifest.options).toEqual({ batchTag: 'batch_007', rerunOf: 'patch', target: 'scripted:spec', grading: 'strict' });
    expect(manifest).toMatchObject({ bench: 'dbbench', split: 'dev', taskIndices: [0, 1], runId: 'manifest-case', patch: null });
  });

  it('plays only the missing tasks of a store that holds some of them, and calls that no cache hit', async () => {
    const model = followingSkill();
    const ctx = context({ target: model, engineer: engineer(proposing(SKILL_PATCH)) });
    const dir = path.join(ctx.rootDir, 'reruns', 'partial');
    await rerunPatch(ctx, 'batch_000', patch, [0], dir);
    const before = model.calls.length;
    const r = await rerunPatch(ctx, 'batch_000', patch, [0, 1], dir);
    expect(r.cacheHit).toBe(false);
    expect(r.attempts).toBe(1);
    expect(r.records.map((x) => x.task.index).sort()).toEqual([0, 1]);
    expect(model.calls.length).toBe(before + 1);
    // Now complete: a cache hit, no attempt, nothing played.
    const again = await rerunPatch(ctx, 'batch_000', patch, [0, 1], dir);
    expect(again).toMatchObject({ cacheHit: true, attempts: 0 });
    expect(model.calls.length).toBe(before + 1);
  });

  it('retries an infrastructure failure at most maxInfraRetries times, and keeps only the asked tasks', async () => {
    const model = target((task) => (task === 1 ? infra : wrong));
    const ctx = context({ target: model, engineer: engineer(proposing(SKILL_PATCH)), maxInfraRetries: 2 });
    const dir = path.join(ctx.rootDir, 'reruns', 'retries');
    const r = await rerunPatch(ctx, 'batch_000', patch, [0, 1], dir);
    expect(r.attempts).toBe(3);
    expect(r.records.filter((x) => x.task.index === 1).map((x) => [x.outcome, x.attempt])).toEqual([['model_error', 3]]);
    // The first play and two retries of task 1; task 0, answered, is played once.
    expect(model.calls.map(taskOf)).toEqual([0, 1, 1, 1]);
    const fine = await rerunPatch(ctx, 'batch_000', patch, [0], dir);
    expect(fine.records.map((x) => x.task.index)).toEqual([0]);
  });

  it('leaves the target spec empty in the manifest when the rerun context names no target', async () => {
    const ctx = context({ target: followingSkill(), engineer: engineer(proposing(SKILL_PATCH)), rerunContext: { grading: 'strict' } });
    const dir = path.join(ctx.rootDir, 'reruns', 'no-target');
    await rerunPatch(ctx, 'batch_000', patch, [0], dir);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')) as RunManifest;
    expect(manifest.target).toEqual({ spec: '', label: 'scripted-target', simulated: true });
  });

  it('resumes a rerun whose stored episode failed for infrastructure reasons: no cache hit, the failure retried as a later attempt', async () => {
    const failing = target((task) => (task === 1 ? infra : gold(task)));
    const first = context({ target: failing, engineer: engineer(proposing(SKILL_PATCH)), maxInfraRetries: 0 });
    const dir = path.join(first.rootDir, 'reruns', 'resumed-infra');
    const r = await rerunPatch(first, 'batch_000', patch, [0, 1], dir);
    expect(r).toMatchObject({ cacheHit: false, attempts: 1 });
    expect(r.records.map((x) => [x.task.index, x.outcome, x.attempt])).toEqual([[0, 'success', 1], [1, 'model_error', 1]]);
    // Resumed with a healthy target: the first attempt plays what is missing (nothing), the retry replaces the failure.
    const healthy = followingSkill();
    const again = await rerunPatch({ ...first, target: healthy, maxInfraRetries: 1 }, 'batch_000', patch, [0, 1], dir);
    expect(again).toMatchObject({ cacheHit: false, attempts: 2 });
    expect(again.records.map((x) => [x.task.index, x.outcome, x.attempt, x.reward])).toEqual([[0, 'success', 1, 1], [1, 'success', 2, 1]]);
    expect(healthy.calls.map(taskOf)).toEqual([1]);
  });

  it('closes the environment it opened and the run store (no SQLite write-ahead log left behind), also on a cache hit', async () => {
    let opened = 0;
    let closed = 0;
    const openEnvironment = async (): Promise<Environment> => {
      const env = await dbbench();
      opened++;
      return { bench: env.bench, split: env.split, size: env.size, openEpisode: (index) => env.openEpisode(index), close: () => { closed++; return env.close(); } };
    };
    const ctx = context({ target: followingSkill(), engineer: engineer(proposing(SKILL_PATCH)), openEnvironment });
    const dir = path.join(ctx.rootDir, 'reruns', 'closed');
    await rerunPatch(ctx, 'batch_000', patch, [0], dir);
    expect([opened, closed]).toEqual([1, 1]);
    expect(existsSync(path.join(dir, 'index.sqlite-wal'))).toBe(false);
    // Resumed with one more task (the completeness check opens the store first), then a cache hit.
    await rerunPatch(ctx, 'batch_000', patch, [0, 1], dir);
    expect([opened, closed]).toEqual([2, 2]);
    expect(existsSync(path.join(dir, 'index.sqlite-wal'))).toBe(false);
    const hit = await rerunPatch(ctx, 'batch_000', patch, [0, 1], dir);
    expect(hit.cacheHit).toBe(true);
    expect([opened, closed]).toEqual([2, 2]);
    expect(existsSync(path.join(dir, 'index.sqlite-wal'))).toBe(false);
  });
});
