import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import type { ScriptedModel } from '../../models/scripted-model.js';
import type { RunManifest } from '../../store/run-manifest.js';
import { playBaseline, recordedTurnsOf, type BaselineManifest, type PlayBaselineOptions } from './play-baseline.js';
import { dbbench, gold, infra, taskOf, target, wrong } from '../../testing/scripted-loop.fixture.js';

// The baseline store on its own: scripted DBBench targets, no sandbox (the baseline runs no hooks).

const root = mkdtempSync(path.join(tmpdir(), 'play-baseline-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;

const MANIFEST: BaselineManifest = { bench: 'dbbench', split: 'dev', target: { spec: 'scripted', label: 'scripted-target', simulated: true }, options: {} };

type Progress = { done: number; total: number; outcome?: string };

/** Plays a baseline of `tasks` with `model` into `dir`, collecting the progress it reports. */
async function play(model: ScriptedModel, over: Partial<PlayBaselineOptions> & { dir: string; taskIndices: number[] }) {
  const environment = await dbbench();
  const progress: Progress[] = [];
  try {
    const records = await playBaseline({ environment, target: model, manifest: MANIFEST, concurrency: 1, maxInfraRetries: 1, onProgress: (p) => progress.push(p), ...over });
    return { records, progress };
  } finally {
    await environment.close();
  }
}

/** How many episodes `model` played of `task` (one call per episode: these targets answer in one turn). */
const plays = (model: ScriptedModel, task: number) => model.calls.filter((c) => taskOf(c) === task).length;
const fresh = () => path.join(root, `baseline-${dirs++}`);

describe('playBaseline', () => {
  it('stores the baseline under its own manifest (no patch, the tasks asked for) and reports each finished episode', async () => {
    const dir = fresh();
    const model = target((task) => (task === 0 ? gold(task) : wrong));
    const { records, progress } = await play(model, { dir, taskIndices: [0, 1] });
    expect(records.map((r) => [r.task.index, r.outcome])).toEqual([[0, 'success'], [1, 'wrong_answer']]);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')) as RunManifest;
    expect(manifest).toMatchObject({ ...MANIFEST, runId: 'baseline', taskIndices: [0, 1], patch: null });
    expect(Number.isNaN(Date.parse(manifest.createdAt))).toBe(false);
    // The store is closed on return: its index has no write-ahead log left open beside it.
    expect(readdirSync(dir).filter((f) => f.startsWith('index.sqlite-'))).toEqual([]);
    // Strict: the opening event carries no outcome key at all.
    expect(progress).toStrictEqual([{ done: 0, total: 2 }, { done: 1, total: 2, outcome: 'success' }, { done: 2, total: 2, outcome: 'wrong_answer' }]);
  });

  it('replays an infrastructure failure at most maxInfraRetries times, and stops once every task is done', async () => {
    const always = target((task) => (task === 1 ? infra : wrong));
    const { records, progress } = await play(always, { dir: fresh(), taskIndices: [0, 1], maxInfraRetries: 2 });
    expect(records.find((r) => r.task.index === 1)?.outcome).toBe('model_error');
    expect([plays(always, 0), plays(always, 1)]).toEqual([1, 3]);
    // One opening event per attempt.
    expect(progress.filter((p) => p.outcome === undefined)).toHaveLength(3);

    let failures = 0;
    const flaky = target((task) => (task === 1 && failures++ === 0 ? infra : wrong));
    const second = await play(flaky, { dir: fresh(), taskIndices: [0, 1], maxInfraRetries: 5 });
    expect(second.records.map((r) => r.outcome)).toEqual(['wrong_answer', 'wrong_answer']);
    expect(plays(flaky, 1)).toBe(2);
    // Done after the first retry: no further attempt is opened.
    expect(second.progress.filter((p) => p.outcome === undefined)).toHaveLength(2);

    const never = target((task) => (task === 1 ? infra : wrong));
    await play(never, { dir: fresh(), taskIndices: [0, 1], maxInfraRetries: 0 });
    expect(plays(never, 1)).toBe(1);
  });

  it('resumes a stored baseline: finished tasks are kept, an infrastructure failure is replayed only by a retry', async () => {
    const dir = fresh();
    const first = target((task) => (task === 1 ? infra : wrong));
    await play(first, { dir, taskIndices: [0, 1], maxInfraRetries: 0 });
    // Resumed without retries: the stored failure is the baseline's result, nothing is played.
    const idle = target(() => wrong);
    const kept = await play(idle, { dir, taskIndices: [0, 1], maxInfraRetries: 0 });
    expect(idle.calls).toHaveLength(0);
    expect(kept.records.map((r) => r.outcome)).toEqual(['wrong_answer', 'model_error']);
    // Resumed with one retry: only the failed task is played again.
    const retry = target((task) => gold(task));
    const healed = await play(retry, { dir, taskIndices: [0, 1], maxInfraRetries: 1 });
    expect([plays(retry, 0), plays(retry, 1)]).toEqual([0, 1]);
    expect(healed.records.map((r) => r.outcome)).toEqual(['wrong_answer', 'success']);
  });

  it('refuses a stored baseline of another target', async () => {
    const dir = fresh();
    await play(target(() => wrong), { dir, taskIndices: [0] });
    await expect(play(target(() => wrong), { dir, taskIndices: [0], manifest: { ...MANIFEST, target: { ...MANIFEST.target, spec: 'scripted:other' } } })).rejects.toThrow(/Cannot resume .*target: "scripted" → "scripted:other"/);
  });

  it('plays nothing and opens no retry once stopped', async () => {
    const controller = new AbortController();
    controller.abort();
    const model = target(() => infra);
    const { records, progress } = await play(model, { dir: fresh(), taskIndices: [0, 1], maxInfraRetries: 3, signal: controller.signal });
    expect(records).toEqual([]);
    expect(model.calls).toHaveLength(0);
    expect(progress).toEqual([{ done: 0, total: 2 }]);
  });

  it('plays every episode with the strategy asked for', async () => {
    const model = target((task) => (task === 0 ? gold(task) : wrong));
    const { records } = await play(model, { dir: fresh(), taskIndices: [0], strategy: 'react' });
    expect(records[0]?.detail?.strategyTurns).toBeDefined();
    // Without a strategy, and without a progress callback.
    const plain = await play(target(() => wrong), { dir: fresh(), taskIndices: [0], onProgress: undefined });
    expect(plain.records[0]?.detail?.strategyTurns).toBeUndefined();
  });
});

describe('recordedTurnsOf', () => {
  it('reads the model turns of a stored run per task, and nothing from a folder without a run', async () => {
    const dir = fresh();
    await play(target((task) => gold(task)), { dir, taskIndices: [0, 1] });
    const turns = recordedTurnsOf(dir);
    expect([...turns.keys()].sort()).toEqual([0, 1]);
    expect(turns.get(0)?.length).toBe(1);
    // Read and closed again: no write-ahead log left open beside the index.
    expect(readdirSync(dir).filter((f) => f.startsWith('index.sqlite-'))).toEqual([]);
    const missing = path.join(root, 'no-run-here');
    expect(recordedTurnsOf(missing)).toEqual(new Map());
    expect(existsSync(missing)).toBe(false);
  });
});
