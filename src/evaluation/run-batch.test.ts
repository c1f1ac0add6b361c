import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import type { HookProvider } from '../hooks/hook-provider.js';
import { NO_HOOKS } from '../hooks/native-hooks.js';
import type { Environment } from '../runtime/environment.js';
import { RUN_MANIFEST_VERSION, type RunManifest } from '../store/run-manifest.js';
import { RunStore } from '../store/run-store.js';
import { dbbench, gold, target, wrong } from '../testing/scripted-loop.fixture.js';
import { runBatch, type BatchProgress } from './run-batch.js';

// runBatch on real DBBench tasks (inline SQLite) with a scripted target: what it records when an episode
// cannot be opened, when its hooks cannot be, and how it schedules, resumes and stops.

const root = mkdtempSync(path.join(tmpdir(), 'run-batch-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let runs = 0;
function store(taskIndices: number[]): RunStore {
  return RunStore.create(path.join(root, `run-${runs++}`), {
    schemaVersion: RUN_MANIFEST_VERSION, runId: 'test', createdAt: '2026-01-01T00:00:00.000Z', bench: 'dbbench', split: 'dev',
    taskIndices, target: { spec: 'scripted', label: 'scripted-target', simulated: false }, patch: null, options: {},
  });
}

/** The real environment, except that opening `failing` throws `error` (and every close is counted). */
function failingOpen(env: Environment, failing: number, error: unknown, closes: number[] = []): Environment {
  return {
    bench: env.bench, split: env.split, size: env.size, close: () => env.close(),
    async openEpisode(index) {
      if (index === failing) throw error;
      const episode = await env.openEpisode(index);
      return { ...episode, tools: episode.tools, start: (deps) => episode.start(deps), close: async () => { closes.push(index); await episode.close(); } };
    },
  };
}

describe('runBatch', () => {
  it('records an episode that cannot be opened as env_error at setup, keeps a permanent flag, and plays the others', async () => {
    const env = failingOpen(await dbbench(), 1, Object.assign(new Error('table refused'), { permanent: true }));
    const s = store([0, 1, 2]);
    const progress: BatchProgress[] = [];
    const result = await runBatch({ environment: env, model: target((task) => gold(task)), hooks: NO_HOOKS, taskIndices: [0, 1, 2], store: s, concurrency: 2, onProgress: (p) => progress.push(p) });
    await env.close();
    expect(result.ran).toBe(3);
    expect(result.skipped).toBe(0);
    expect(result.interrupted).toBe(false);
    expect(result.records.map((r) => [r.task.index, r.outcome])).toEqual([[0, 'success'], [1, 'env_error'], [2, 'success']]);
    const failed = result.records[1]!;
    expect(failed).toMatchObject({ attempt: 1, reward: 0, rounds: 0, steps: [], hookTrace: [], messages: [], usage: { promptTokens: 0, completionTokens: 0, modelCalls: 0 } });
    expect(failed.detail).toEqual({ error: 'table refused', stage: 'setup', permanent: true });
    expect(failed.task).toEqual({ bench: 'dbbench', split: 'dev', index: 1 });
    // The first report is before anything ran; then one per finished episode, carrying its record.
    expect(progress[0]).toEqual({ done: 0, total: 3 });
    expect(progress.slice(1).map((p) => p.done)).toEqual([1, 2, 3]);
    expect(progress.slice(1).map((p) => p.record?.task.index).sort()).toEqual([0, 1, 2]);
    s.close();
  });

  it('gives no permanent flag to an ordinary setup failure, and a non-Error its text', async () => {
    const env = failingOpen(await dbbench(), 0, 'backend gone');
    const s = store([0]);
    const result = await runBatch({ environment: env, model: target(() => wrong), hooks: NO_HOOKS, taskIndices: [0], store: s });
    await env.close();
    expect(result.records[0]!.outcome).toBe('env_error');
    expect(result.records[0]!.detail).toEqual({ error: 'backend gone', stage: 'setup' });
    s.close();
  });

  it('records a setup failure thrown as null with its text, not a crash', async () => {
    const env = failingOpen(await dbbench(), 0, null);
    const s = store([0]);
    const result = await runBatch({ environment: env, model: target(() => wrong), hooks: NO_HOOKS, taskIndices: [0], store: s });
    await env.close();
    expect(result.records[0]!.detail).toEqual({ error: 'null', stage: 'setup' });
    s.close();
  });

  it('records hooks that cannot be opened as hook_fault and closes the episode it had opened', async () => {
    const closes: number[] = [];
    const env = failingOpen(await dbbench(), -1, undefined, closes);
    const broken: HookProvider = { label: 'broken', openEpisode: () => Promise.reject(new Error('sandbox pool closed')) };
    const s = store([2, 3]);
    const model = target(() => wrong);
    const result = await runBatch({ environment: env, model, hooks: broken, taskIndices: [2, 3], store: s });
    await env.close();
    expect(result.records.map((r) => r.outcome)).toEqual(['hook_fault', 'hook_fault']);
    expect(result.records[0]!.detail).toEqual({ error: 'sandbox pool closed', stage: 'setup' });
    expect(closes.sort()).toEqual([2, 3]);
    expect(model.calls).toHaveLength(0);
    s.close();
  });

  it('passes the request options to every model call', async () => {
    const env = await dbbench();
    const s = store([0, 1]);
    const model = target((task) => gold(task));
    await runBatch({ environment: env, model, hooks: NO_HOOKS, taskIndices: [0, 1], store: s, request: { temperature: 0.7, maxTokens: 123 } });
    await env.close();
    expect(model.calls).toHaveLength(2);
    for (const call of model.calls) expect(call).toMatchObject({ temperature: 0.7, maxTokens: 123 });
    s.close();
  });

  it("warms the model's client once before the first episode, not when nothing is left to play, and goes on when the warm-up fails", async () => {
    const env = await dbbench();
    const events: string[] = [];
    const inner = target((task) => gold(task));
    const model = { ...inner, complete: (request: Parameters<typeof inner.complete>[0]) => (events.push('call'), inner.complete(request)), warmUp: async () => (events.push('warm-up'), true) };
    const s = store([0, 1, 2]);
    await runBatch({ environment: env, model, hooks: NO_HOOKS, taskIndices: [0, 1, 2], store: s, concurrency: 2 });
    expect(events[0]).toBe('warm-up');
    expect(events.filter((e) => e === 'warm-up')).toHaveLength(1);
    expect(events.filter((e) => e === 'call')).toHaveLength(3);
    // Resumed with every task done: no warm-up, no call.
    events.length = 0;
    await runBatch({ environment: env, model, hooks: NO_HOOKS, taskIndices: [0, 1, 2], store: s });
    expect(events).toEqual([]);
    s.close();
    const failing = { ...model, warmUp: () => Promise.reject(new Error('warm-up broke')) };
    const t = store([0]);
    const result = await runBatch({ environment: env, model: failing, hooks: NO_HOOKS, taskIndices: [0], store: t });
    expect(result.records.map((r) => r.outcome)).toEqual(['success']);
    t.close();
    await env.close();
  });

  it('skips tasks the store already holds, plays an infrastructure failure again only with retryInfra, and counts attempts', async () => {
    const dir = path.join(root, 'resume');
    const manifest: RunManifest = {
      schemaVersion: RUN_MANIFEST_VERSION, runId: 'resume', createdAt: '2026-01-01T00:00:00.000Z', bench: 'dbbench', split: 'dev',
      taskIndices: [0, 1], target: { spec: 'scripted', label: 'scripted-target', simulated: false }, patch: null, options: {},
    };
    const first = RunStore.create(dir, manifest);
    let env = failingOpen(await dbbench(), 1, new Error('flaky'));
    await runBatch({ environment: env, model: target((task) => gold(task)), hooks: NO_HOOKS, taskIndices: [0, 1], store: first });
    await env.close();
    first.close();

    const again = RunStore.open(dir);
    env = await dbbench();
    const model = target((task) => gold(task));
    const skipped = await runBatch({ environment: env, model, hooks: NO_HOOKS, taskIndices: [0, 1], store: again });
    expect(skipped).toMatchObject({ ran: 0, skipped: 2 });
    const retried = await runBatch({ environment: env, model, hooks: NO_HOOKS, taskIndices: [0, 1], store: again, retryInfra: true });
    await env.close();
    expect(retried).toMatchObject({ ran: 1, skipped: 1 });
    expect(model.calls).toHaveLength(1);
    const task1 = retried.records.find((r) => r.task.index === 1)!;
    expect(task1.attempt).toBe(2);
    expect(task1.outcome).toBe('success');
    again.close();
  });

  it('plays nothing once the signal is aborted and says it was interrupted', async () => {
    const env = await dbbench();
    const s = store([0, 1]);
    const model = target((task) => gold(task));
    const controller = new AbortController();
    controller.abort();
    const result = await runBatch({ environment: env, model, hooks: NO_HOOKS, taskIndices: [0, 1], store: s, signal: controller.signal });
    await env.close();
    expect(result).toMatchObject({ ran: 0, skipped: 0, interrupted: true, records: [] });
    expect(model.calls).toHaveLength(0);
    s.close();
  });
});
