import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createSandboxPool, type SandboxPool } from '../../sandbox/index.js';
import { validatePatch, type HarnessPatch } from '../../patch/index.js';
import type { RecordedTurn } from '../../models/replaying-model.js';
import { REACT_MARKER } from '../../runtime/strategies/index.js';
import { RunStore } from '../../store/run-store.js';
import { alfworldEnvironment } from '../../benchmarks/alfworld/environment.js';
import { createScriptedModel } from '../../models/scripted-model.js';
import { BUILTIN_PATCH_RULES } from '../../testing/builtin-patch-rules.js';
import { sandboxCompiler } from '../../app/sandbox-compiler.js';
import { rerunPatch } from './judge-proposal.js';
import { contextMaker, dataDir, engineer, followingSkill, gold, hook, infra, proposing, SKILL_PATCH, target, taskOf } from '../../testing/scripted-loop.fixture.js';
import { TEST_REGISTRY } from '../../testing/sim-baseline.fixture.js';

// What the reward path's options do to a rerun, driven through rerunPatch: exact replay of the baseline's
// turns, the baseline strategy, switched-off lifecycle positions, progress events and interruption.
// Scripted targets, the real sandbox.

const root = mkdtempSync(path.join(tmpdir(), 'rerun-options-'));
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

const rerunDir = (rootDir: string, name: string) => path.join(rootDir, 'reruns', name);

/** The recorded model turns of a finished rerun, per task, as a baseline recording to replay. */
function turnsOf(dir: string): Map<number, readonly RecordedTurn[]> {
  const store = RunStore.open(dir);
  try {
    return new Map([...store.modelTurns()].map(([index, entry]) => [index, entry.turns]));
  } finally {
    store.close();
  }
}

describe('rerunPatch options', () => {
  it('answers from the recorded turns with replay exact, and calls the target with replay off or with nothing to replay', async () => {
    const first = context({ target: followingSkill(), engineer: engineer(proposing(SKILL_PATCH)) });
    const recorded = rerunDir(first.rootDir, 'recorded');
    await rerunPatch(first, 'batch_000', patch, [0, 1], recorded);
    const turns = turnsOf(recorded);
    expect([...turns.keys()]).toEqual([0, 1]);

    const replaying = followingSkill();
    const exact = await rerunPatch({ ...first, target: replaying, replay: 'exact' }, 'batch_000', patch, [0, 1], rerunDir(first.rootDir, 'exact'), turns);
    expect(exact.replay).toStrictEqual({ mode: 'exact', turns: 2, replayed: 2 });
    expect(replaying.calls).toHaveLength(0);
    expect(exact.records.map((r) => r.reward)).toEqual([1, 1]);

    const calling = followingSkill();
    const off = await rerunPatch({ ...first, target: calling }, 'batch_000', patch, [0, 1], rerunDir(first.rootDir, 'off'), turns);
    expect(off.replay).toStrictEqual({ mode: 'off', turns: 2, replayed: 0 });
    expect(calling.calls.map(taskOf)).toEqual([0, 1]);

    const unrecorded = followingSkill();
    const nothing = await rerunPatch({ ...first, target: unrecorded, replay: 'exact' }, 'batch_000', patch, [0], rerunDir(first.rootDir, 'nothing'));
    expect(nothing.replay).toStrictEqual({ mode: 'exact', turns: 1, replayed: 0 });
    expect(unrecorded.calls.map(taskOf)).toEqual([0]);
  });

  it('plays the rerun with the baseline strategy of the context', async () => {
    const model = followingSkill();
    const ctx = context({ target: model, engineer: engineer(proposing(SKILL_PATCH)), strategy: 'react' });
    await rerunPatch(ctx, 'batch_000', patch, [0], rerunDir(ctx.rootDir, 'react'));
    expect(model.calls).toHaveLength(1);
    expect(String(model.calls[0]!.messages[0]!.content)).toContain(REACT_MARKER);

    const plain = followingSkill();
    await rerunPatch({ ...ctx, target: plain, strategy: undefined }, 'batch_000', patch, [0], rerunDir(ctx.rootDir, 'plain'));
    expect(String(plain.calls[0]!.messages[0]!.content)).not.toContain(REACT_MARKER);
  });

  it('never calls the hooks at switched-off positions: no effect, no trace, the patch does not help', async () => {
    const ctx = context({ target: followingSkill(), engineer: engineer(proposing(SKILL_PATCH)), disabledHooks: ['on_init'] });
    const off = await rerunPatch(ctx, 'batch_000', patch, [0, 1], rerunDir(ctx.rootDir, 'disabled'));
    expect(off.records.map((r) => r.reward)).toEqual([0, 0]);
    expect(off.records.flatMap((r) => r.hookTrace)).toEqual([]);

    const on = await rerunPatch({ ...ctx, target: followingSkill(), disabledHooks: ['make_pre_hint'] }, 'batch_000', patch, [0, 1], rerunDir(ctx.rootDir, 'other-disabled'));
    expect(on.records.map((r) => r.reward)).toEqual([1, 1]);
    expect(on.records.every((r) => r.hookTrace.some((t) => t.hook === 'on_init'))).toBe(true);
  });

  it('reports each episode as it finishes, with the batch tag and its outcome', async () => {
    const events: unknown[] = [];
    const ctx = context({ target: target((task) => gold(task)), engineer: engineer(proposing(SKILL_PATCH)), onProgress: (e) => events.push(e) });
    const r = await rerunPatch(ctx, 'batch_042', patch, [0, 1], rerunDir(ctx.rootDir, 'progress'));
    expect(r.records.map((x) => x.outcome)).toEqual(['success', 'success']);
    expect(events).toStrictEqual([
      { kind: 'episode', batchTag: 'batch_042', done: 0, total: 2 },
      { kind: 'episode', batchTag: 'batch_042', done: 1, total: 2, outcome: 'success' },
      { kind: 'episode', batchTag: 'batch_042', done: 2, total: 2, outcome: 'success' },
    ]);
  });

  it('stops on the signal: the episode in flight is stored, no other task is played and no retry is attempted', async () => {
    const controller = new AbortController();
    const model = target((task) => gold(task));
    const ctx = context({
      target: model, engineer: engineer(proposing(SKILL_PATCH)), maxInfraRetries: 2, signal: controller.signal,
      onProgress: (e) => { if (e.kind === 'episode' && e.outcome !== undefined) controller.abort(); },
    });
    const r = await rerunPatch(ctx, 'batch_000', patch, [0, 1, 2], rerunDir(ctx.rootDir, 'interrupted'));
    expect(r.records.map((x) => x.task.index)).toEqual([0]);
    expect(r.attempts).toBe(1);
    expect(model.calls.map(taskOf)).toEqual([0]);
  });

  it("installs the hooks by the benchmark's compile rules: under ALFWorld's, a hook naming a numbered instance is dropped and never called", async () => {
    // Validation would refuse such a patch first; experiments' reruns install what they are given, by the same rules.
    const naming = { ...hook('def hook(ctx, nb):\n    return {"skills": ["go to cabinet 1 first"]}\n'), benchmark: 'alfworld' };
    const plain = { ...hook('def hook(ctx, nb):\n    return {"skills": ["go to every cabinet first"]}\n'), benchmark: 'alfworld' };
    const ctx = context({
      benchmark: TEST_REGISTRY.get('alfworld'), openEnvironment: () => Promise.resolve(alfworldEnvironment({ dataDir, split: 'dev' })),
      target: createScriptedModel([infra, infra]), engineer: engineer(proposing(naming)), maxInfraRetries: 0,
    });
    const dropped = await rerunPatch(ctx, 'batch_000', naming as HarnessPatch, [0], rerunDir(ctx.rootDir, 'numbered'));
    expect(dropped.records.map((r) => [r.outcome, r.hookTrace.length])).toEqual([['model_error', 0]]);
    const kept = await rerunPatch(ctx, 'batch_000', plain as HarnessPatch, [0], rerunDir(ctx.rootDir, 'unnumbered'));
    expect(kept.records.map((r) => [r.outcome, r.hookTrace.map((t) => t.hook)])).toEqual([['model_error', ['on_init']]]);
  });
});
