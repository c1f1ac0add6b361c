import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { EpisodeRecord } from '../../episode/index.js';
import { createSandboxPool, type SandboxPool } from '../../sandbox/index.js';
import { judgeProposal, type JudgedBatch } from './judge-proposal.js';
import { baselineOf, BATCH, contextMaker, engineer, followingSkill, gold, proposing, SILENT_PATCH, SKILL_PATCH, target, wrong } from '../../testing/scripted-loop.fixture.js';

// judgeProposal driven directly (the reward path improve and GRPO groups share): scripted targets, the real sandbox.

const root = mkdtempSync(path.join(tmpdir(), 'judge-proposal-'));
let pool: SandboxPool;
const context = contextMaker(root, () => pool);
let failing: Map<number, EpisodeRecord>;

beforeAll(async () => {
  pool = createSandboxPool({ size: 1, hookTimeoutMs: 1000 });
  await pool.ready();
  failing = await baselineOf(target((task) => (task % 2 === 0 ? gold(task) : wrong)));
});

afterAll(async () => {
  await pool.close();
  rmSync(root, { recursive: true, force: true });
});

const batchOf = (records: Map<number, EpisodeRecord>): JudgedBatch => ({
  tag: BATCH.tag,
  episodes: [...records.values()],
  evidence: { baseline: new Map([...records.values()].map((r) => [r.task.index, r.reward])), threshold: 1, metric: 'delta_pass_rate' },
});

describe('judgeProposal', () => {
  it('judges a failed engineer request without validating or rerunning anything', async () => {
    const ctx = context({ target: followingSkill(), engineer: engineer(proposing(SKILL_PATCH)) });
    const judged = await judgeProposal(ctx, batchOf(failing), { status: 'request_failed', detail: 'engineer returned an empty response' });
    expect(judged).toMatchObject({ verdict: null, patch: null, patchedRewards: null, hookEffects: {}, hookFaults: 0, rejection: null, rerun: null });
    expect(judged.notes).toEqual(['engineer returned an empty response']);
    expect(judged.decision).toMatchObject({ status: 'engineer_request_failed_treated_as_no_patch', score: 0 });
  });

  it('gives two different patches on one batch two reruns, each judged on its own', async () => {
    // One run folder for both: a shared cache key would hand the silent patch the skill patch's rerun.
    const ctx = context({ target: followingSkill(), engineer: engineer(proposing(SKILL_PATCH)) });
    const skill = await judgeProposal(ctx, batchOf(failing), proposing(SKILL_PATCH));
    const silent = await judgeProposal(ctx, batchOf(failing), proposing(SILENT_PATCH));
    expect(skill.rerun?.cacheKey).not.toBe(silent.rerun?.cacheKey);
    expect(silent.rerun?.cacheHit).toBe(false);
    expect(skill.decision).toMatchObject({ status: 'scored', score: 0.5 });
    expect(skill.hookEffects).toEqual({ 'on_init:init': 4 });
    expect(silent.decision).toMatchObject({ status: 'inert', score: 0 });
    expect(silent.hookEffects).toEqual({});
    // The same patch again shares the first rerun.
    const again = await judgeProposal(ctx, batchOf(failing), proposing(SKILL_PATCH));
    expect(again.rerun).toMatchObject({ cacheKey: skill.rerun?.cacheKey, cacheHit: true });
    expect(again.decision).toEqual(skill.decision);
  });

  it('gives the same patch another rerun for another batch tag or another rerun context', async () => {
    const ctx = context({ target: followingSkill(), engineer: engineer(proposing(SKILL_PATCH)) });
    const first = await judgeProposal(ctx, batchOf(failing), proposing(SKILL_PATCH));
    const otherTag = await judgeProposal(ctx, { ...batchOf(failing), tag: 'batch_001' }, proposing(SKILL_PATCH));
    const otherContext = await judgeProposal({ ...ctx, rerunContext: { target: 'scripted', options: { strategy: 'react' } } }, batchOf(failing), proposing(SKILL_PATCH));
    expect(new Set([first.rerun?.cacheKey, otherTag.rerun?.cacheKey, otherContext.rerun?.cacheKey]).size).toBe(3);
    expect([otherTag.rerun?.cacheHit, otherContext.rerun?.cacheHit]).toEqual([false, false]);
  });

  it('hands the verdict and the normalized patch to the sinks, and keeps the engineer notes', async () => {
    const ctx = context({ target: followingSkill(), engineer: engineer(proposing(SKILL_PATCH)) });
    const seen: string[] = [];
    const r = await judgeProposal(ctx, batchOf(failing), { status: 'ok', proposal: { kind: 'patch', patch: SKILL_PATCH }, notes: ['quote names'] }, { onVerdict: (v) => seen.push(`verdict:${v.kind}`), onPatch: (p) => seen.push(`patch:${p.actions.length}`) });
    expect(seen).toEqual(['verdict:valid', 'patch:1']);
    expect(r.notes).toEqual(['quote names']);
    expect(r.hookFaults).toBe(0);
    expect(r.rejection).toBeNull();
    expect(r.patchedRewards).toEqual(new Map([[0, 1], [1, 1], [2, 1], [3, 1]]));
  });
});
