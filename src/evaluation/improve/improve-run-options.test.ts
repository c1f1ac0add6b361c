import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { tmpdir } from 'node:os';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Engineer } from '../../engineer/engineer.js';
import type { PreviousAttempt } from '../../engineer/previous-attempt.js';
import { createSandboxPool, type SandboxPool } from '../../sandbox/index.js';
import { improveRun } from './improve-run.js';
import type { ImproveContext, ImproveEvent } from './improve-batch.js';
import { contextMaker, dbbench, engineer, gold, infra, proposing, sawSkill, SILENT_PATCH, SKILL_PATCH, target, wrong } from '../../testing/scripted-loop.fixture.js';

// What improveRun hands on besides the batches: its progress, the stop signal, the replay of the baseline's
// turns, the baseline strategy, the summary's identity, and when a revision pass runs and what it is told.
// Scripted targets and engineers on real DBBench tasks, patches run in the real sandbox.

const root = mkdtempSync(path.join(tmpdir(), 'improve-run-options-'));
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

const ONE = [{ tag: 'batch_000', taskIndices: [0, 1] }];
const TWO = [...ONE, { tag: 'batch_001', taskIndices: [2, 3] }];

async function run(ctx: ImproveContext, batches = ONE) {
  const baselineEnvironment = await dbbench();
  try {
    return await improveRun({ context: ctx, batches, baselineEnvironment, baselineManifest: { bench: 'dbbench', split: 'dev', target: { spec: 'scripted', label: 'scripted-target', simulated: true }, options: {} } });
  } finally {
    await baselineEnvironment.close();
  }
}

/** Tasks 0 and 2 pass untouched; the skill rescues the others. */
const passingEven = () => target((task, request) => (sawSkill(request) || task % 2 === 0 ? gold(task) : wrong));

describe('improveRun: progress, summary identity and stopping', () => {
  it('reports the baseline episodes under the tag "baseline", and names the target and engineer in the summary', async () => {
    const events: ImproveEvent[] = [];
    const symbolic = { ...engineer(proposing(SKILL_PATCH)), label: 'rules', kind: 'symbolic' as const };
    const ctx = context({ target: passingEven(), engineer: symbolic, onProgress: (e) => events.push(e) });
    const { summary } = await run(ctx);
    // Strict: the opening event carries no outcome key at all.
    expect(events.filter((e) => e.batchTag === 'baseline')).toStrictEqual([
      { kind: 'episode', batchTag: 'baseline', done: 0, total: 2 },
      { kind: 'episode', batchTag: 'baseline', done: 1, total: 2, outcome: 'success' },
      { kind: 'episode', batchTag: 'baseline', done: 2, total: 2, outcome: 'wrong_answer' },
    ]);
    expect(events.at(-1)).toEqual({ kind: 'stage', batchTag: 'batch_000', stage: 'done', detail: 'scored' });
    expect(summary).toMatchObject({ bench: 'dbbench', split: 'dev', target: { label: 'scripted-target', simulated: true }, engineer: { label: 'rules', symbolic: true } });

    const llm = await run(context({ target: passingEven(), engineer: engineer(proposing(SKILL_PATCH)) }));
    expect(llm.summary.engineer).toEqual({ label: 'fixed-engineer', symbolic: false });
  });

  it('stops after the baseline, or before the next batch, when the signal fires', async () => {
    const stopped = new AbortController();
    stopped.abort();
    const idle = target(() => wrong);
    await expect(run(context({ target: idle, engineer: engineer(proposing(SKILL_PATCH)), signal: stopped.signal }))).rejects.toThrow(/^interrupted during the baseline$/);
    expect(idle.calls).toHaveLength(0);

    // Stopped when the first batch is done: the second is never started.
    const controller = new AbortController();
    const e = engineer(proposing(SKILL_PATCH));
    const ctx = context({ target: passingEven(), engineer: e, signal: controller.signal, onProgress: (ev) => ev.kind === 'stage' && ev.stage === 'done' && controller.abort() });
    await expect(run(ctx, TWO)).rejects.toThrow(/^interrupted before batch_001$/);
    expect(e.seen).toHaveLength(1);
    expect(existsSync(path.join(ctx.rootDir, 'batches', 'batch_000', 'result.json'))).toBe(true);
    expect(existsSync(path.join(ctx.rootDir, 'summary.json'))).toBe(false);
  });
});

describe('improveRun: generate-only', () => {
  it('marks the summary of a generate-only run, and only that one', async () => {
    const generated = await run({ ...context({ target: passingEven(), engineer: engineer(proposing(SKILL_PATCH)) }), generateOnly: true });
    expect(generated.results.map((r) => r.status)).toEqual(['generated']);
    expect(generated.summary.generateOnly).toBe(true);
    const measured = await run(context({ target: passingEven(), engineer: engineer(proposing(SKILL_PATCH)) }));
    expect(measured.results.map((r) => r.status)).toEqual(['scored']);
    expect('generateOnly' in measured.summary).toBe(false);
  });
});

describe('improveRun: replay and strategy', () => {
  it('replays the baseline turns in the reruns only when replay is exact', async () => {
    // A silent patch leaves every request as the baseline's: an exact replay answers all of them from the baseline.
    const exact = await run(context({ target: target(() => wrong), engineer: engineer(proposing(SILENT_PATCH)), replay: 'exact' }));
    expect(exact.results[0]?.rerun?.replay).toEqual({ mode: 'exact', turns: 2, replayed: 2 });
    const off = await run(context({ target: target(() => wrong), engineer: engineer(proposing(SILENT_PATCH)) }));
    expect(off.results[0]?.rerun?.replay).toEqual({ mode: 'off', turns: 2, replayed: 0 });
  });

  it('plays the baseline with the strategy of the run', async () => {
    const { baseline } = await run(context({ target: passingEven(), engineer: engineer(proposing(SKILL_PATCH)), strategy: 'react' }));
    expect(baseline.every((r) => r.detail?.strategyTurns !== undefined)).toBe(true);
  });
});

describe('improveRun: when a revision pass runs', () => {
  /** A patch engineer whose revision pass records what it was shown and proposes `second`. */
  function revising(first: unknown, second: unknown): Engineer & { previous: PreviousAttempt[] } {
    const previous: PreviousAttempt[] = [];
    return { ...engineer(proposing(first)), previous, revise: (attempt) => (previous.push(attempt), engineer(proposing(second))) };
  }

  it('revises a scored batch, telling it the delta and the patched passes, and an inert one too', async () => {
    const e = revising(SKILL_PATCH, SILENT_PATCH);
    const { results } = await run(context({ target: passingEven(), engineer: e, revise: true }), TWO);
    expect(results.map((r) => [r.batchTag, r.status])).toEqual([['batch_000', 'scored'], ['batch_000-revision', 'inert'], ['batch_001', 'scored'], ['batch_001-revision', 'inert']]);
    expect(e.previous[0]!.result).toEqual({ tasks: 2, baselinePass: 1, patchedPass: 2, delta: 0.5, status: 'scored', baselineMean: 0.5, patchedMean: 1 });
    // A patch engineer gave no raw answer.
    expect(e.previous[0]!.rawOutput).toBe('');
    expect(e.previous[0]!.improvements?.map((r) => r.task.index)).toEqual([1]);

    const silent = revising(SILENT_PATCH, SKILL_PATCH);
    const inert = await run(context({ target: passingEven(), engineer: silent, revise: true }));
    expect(inert.results.map((r) => r.status)).toEqual(['inert', 'scored']);
    expect(silent.previous[0]!.result).toMatchObject({ status: 'inert', delta: 0, patchedPass: 1 });
  });

  it('does not revise a missing evaluation, nor with an engineer that cannot revise', async () => {
    // The rerun of task 1 fails for infrastructure reasons on every attempt.
    const broken = target((task, request) => (!sawSkill(request) ? wrong : task === 1 ? infra : gold(task)));
    const e = revising(SKILL_PATCH, SILENT_PATCH);
    const { results } = await run(context({ target: broken, engineer: e, revise: true, maxInfraRetries: 0 }));
    expect(results.map((r) => r.status)).toEqual(['missing_evaluation']);
    expect(e.previous).toHaveLength(0);

    const plain = await run(context({ target: passingEven(), engineer: engineer(proposing(SKILL_PATCH)), revise: true }));
    expect(plain.results.map((r) => r.status)).toEqual(['scored']);
  });
});
