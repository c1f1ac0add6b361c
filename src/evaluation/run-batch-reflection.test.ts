import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import type { EpisodeRecord } from '../episode/index.js';
import type { HookProvider } from '../hooks/hook-provider.js';
import { NO_HOOKS } from '../hooks/native-hooks.js';
import { ModelCallError, type ChatModel, type ChatRequest } from '../models/chat-model.js';
import type { Environment } from '../runtime/environment.js';
import { MEMORY_MARKER, REFLECT_MARKER, REFLECTION_MAX_TOKENS, type ReflectionDetail } from '../runtime/strategies/index.js';
import { RUN_MANIFEST_VERSION } from '../store/run-manifest.js';
import { RunStore } from '../store/run-store.js';
import { dbbench, gold, target, taskOf, wrong } from '../testing/scripted-loop.fixture.js';
import { runBatch } from './run-batch.js';

// runBatch under the episode-level Reflection strategy, with scripted targets on real DBBench tasks: what is
// recorded for a failed first episode and its second one, when the second one is played, what the reflection
// call and the second episode are sent, the timing of all three, a second episode that cannot be opened, and
// a run stopped between the two episodes. Also the concurrency limit and the timing of a setup failure.

const root = mkdtempSync(path.join(tmpdir(), 'run-batch-reflection-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let runs = 0;
function storeDir(): string {
  return path.join(root, `run-${runs++}`);
}
function store(dir: string, taskIndices: number[]): RunStore {
  return RunStore.create(dir, {
    schemaVersion: RUN_MANIFEST_VERSION, runId: 'test', createdAt: '2026-01-01T00:00:00.000Z', bench: 'dbbench', split: 'dev',
    taskIndices, target: { spec: 'scripted', label: 'scripted-target', simulated: false }, patch: null, options: {},
  });
}
function timings(dir: string): { index: number; attempt: number; totalMs: number; modelMs: number[] }[] {
  return readFileSync(path.join(dir, 'timings.jsonl'), 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { index: number; attempt: number; totalMs: number; modelMs: number[] });
}

const isReflection = (request: ChatRequest) => String(request.messages.at(-1)?.content).includes(REFLECT_MARKER);
const hasMemory = (request: ChatRequest) => String(request.messages[0]?.content).includes(MEMORY_MARKER);
const kindOf = (request: ChatRequest) => (isReflection(request) ? 'reflection' : hasMemory(request) ? 'second' : 'first');
/** Latency reported per kind of call, so the recorded timing says which calls it holds. */
const LATENCY = { first: 5, reflection: 7, second: 11 } as const;

interface Seen {
  kind: 'first' | 'reflection' | 'second';
  task: number;
  request: ChatRequest;
  hadSignal: boolean;
}

/**
 * A DBBench target that fails `failing` tasks in their first episode, answers the reflection call with
 * `reflection`, and answers right in an episode whose system prompt carries the reflection. Every call is
 * kept with whether it carried a signal (the scripted model drops it); `before` runs ahead of each call.
 */
function reflecting(failing: readonly number[], reflection = 'Check the table name first.', before?: (seen: Seen) => void): ChatModel & { seen: Seen[] } {
  const seen: Seen[] = [];
  const inner = target((task, request) => {
    if (isReflection(request)) return { content: `  ${reflection}\n` };
    if (hasMemory(request)) return String(request.messages[0]?.content).includes(reflection) ? gold(task) : wrong;
    return failing.includes(task) ? wrong : gold(task);
  });
  return {
    label: inner.label, simulated: inner.simulated, seen,
    async complete(request) {
      const kind = kindOf(request);
      const entry: Seen = { kind, task: taskOf(request), request, hadSignal: request.signal !== undefined };
      seen.push(entry);
      before?.(entry);
      const response = await inner.complete(request);
      return { ...response, latencyMs: LATENCY[kind] };
    },
  };
}

/** The real environment, except that the `from`-th and later openings of `failing` throw `error`; closes are counted. */
function openingFails(env: Environment, failing: number, from: number, error: unknown, closes: number[] = []): Environment {
  let opened = 0;
  return {
    bench: env.bench, split: env.split, size: env.size, close: () => env.close(),
    async openEpisode(index) {
      if (index === failing && ++opened >= from) throw error;
      const episode = await env.openEpisode(index);
      return { ...episode, tools: episode.tools, start: (deps) => episode.start(deps), close: async () => { closes.push(index); await episode.close(); } };
    },
  };
}

const reflectionOf = (record: EpisodeRecord) => record.detail.reflection as ReflectionDetail | undefined;

describe('runBatch with the reflection strategy', () => {
  it('plays a failed task a second time with the reflection in context, and a solved one once', async () => {
    const env = await dbbench();
    const dir = storeDir();
    const s = store(dir, [0, 1]);
    const model = reflecting([1]);
    const controller = new AbortController();
    const result = await runBatch({
      environment: env, model, hooks: NO_HOOKS, taskIndices: [0, 1], store: s, strategy: 'reflection',
      request: { temperature: 0.3, maxTokens: 77 }, signal: controller.signal,
    });
    await env.close();
    expect(result).toMatchObject({ ran: 2, skipped: 0, interrupted: false });
    // One record per task, attempt 1 each: the second episode is part of the first one's record.
    expect(result.records.map((r) => [r.task.index, r.attempt])).toEqual([[0, 1], [1, 1]]);
    const [solved, failed] = result.records as [EpisodeRecord, EpisodeRecord];
    expect(solved.outcome).toBe('success');
    expect(reflectionOf(solved)).toBeUndefined();
    // The record stays the first episode's; the second one is in detail.reflection.retry.
    expect(failed.outcome).not.toBe('success');
    expect(failed.reward).toBe(0);
    const detail = reflectionOf(failed)!;
    expect(detail.text).toBe('Check the table name first.');
    expect(detail.error).toBeUndefined();
    expect(detail.usage).toEqual({ promptTokens: 0, completionTokens: 0, modelCalls: 1 });
    expect(detail.retry).toMatchObject({ outcome: 'success', reward: 1, rounds: 1 });
    expect(String(detail.retry!.messages[0]!.content)).toContain('Check the table name first.');

    // Calls in order: task 0 once; task 1 first episode, reflection, second episode.
    expect(model.seen.map((c) => c.kind)).toEqual(['first', 'first', 'reflection', 'second']);
    const [, firstOf1, reflect, second] = model.seen as [Seen, Seen, Seen, Seen];
    // The reflection call: no tools, the release's token cap, the run's temperature, the run's signal, and
    // the tools the target had named in its prompt.
    expect(reflect.request.tools).toBeUndefined();
    expect(reflect.request).toMatchObject({ maxTokens: REFLECTION_MAX_TOKENS, temperature: 0.3 });
    expect(reflect.hadSignal).toBe(true);
    expect(reflect.request.signal).toBe(controller.signal);
    expect(String(reflect.request.messages.at(-1)!.content)).toContain('commit_final_answer');
    expect(reflect.request.messages.slice(0, -1)).toEqual(failed.messages);
    // Both episodes get the run's request options.
    for (const c of [firstOf1, second]) expect(c.request).toMatchObject({ temperature: 0.3, maxTokens: 77 });
    expect(second.request.tools?.map((t) => t.name)).toContain('commit_final_answer');

    // The timing holds the model time of all three calls of task 1, in order, and of the one of task 0.
    const t = timings(dir);
    expect(t.map((x) => [x.index, x.attempt, x.modelMs])).toEqual([[0, 1, [LATENCY.first]], [1, 1, [LATENCY.first, LATENCY.reflection, LATENCY.second]]]);
    // The turns kept for replay hold every call the recorder saw, the reflection and the second episode's too.
    expect(s.modelTurns().get(1)?.turns).toHaveLength(3);
    expect(s.modelTurns().get(0)?.turns).toHaveLength(1);
    s.close();
  });

  it('gives a failed task no second episode without the strategy', async () => {
    const env = await dbbench();
    const dir = storeDir();
    const s = store(dir, [1]);
    const model = reflecting([1]);
    const result = await runBatch({ environment: env, model, hooks: NO_HOOKS, taskIndices: [1], store: s });
    await env.close();
    expect(model.seen.map((c) => c.kind)).toEqual(['first']);
    expect(reflectionOf(result.records[0]!)).toBeUndefined();
    expect(timings(dir)[0]!.modelMs).toEqual([LATENCY.first]);
    s.close();
  });

  it('sends the reflection call temperature 0 when the run sets no request options, and no signal when the run has none', async () => {
    const env = await dbbench();
    const s = store(storeDir(), [1]);
    const model = reflecting([1]);
    await runBatch({ environment: env, model, hooks: NO_HOOKS, taskIndices: [1], store: s, strategy: 'reflection' });
    await env.close();
    const reflect = model.seen.find((c) => c.kind === 'reflection')!;
    expect(reflect.request.temperature).toBe(0);
    expect(reflect.hadSignal).toBe(false);
    s.close();
  });

  it('records a second episode that cannot be opened as env_error at setup in the retry, with the first episode timed', async () => {
    const env = openingFails(await dbbench(), 1, 2, Object.assign(new Error('table refused'), { permanent: true }));
    const dir = storeDir();
    const s = store(dir, [1]);
    const model = reflecting([1]);
    const before = performance.now();
    const result = await runBatch({ environment: env, model, hooks: NO_HOOKS, taskIndices: [1], store: s, strategy: 'reflection' });
    const elapsed = performance.now() - before;
    await env.close();
    const record = result.records[0]!;
    expect(record.outcome).not.toBe('env_error');
    const retry = reflectionOf(record)!.retry!;
    expect(retry).toMatchObject({ outcome: 'env_error', reward: 0, rounds: 0, steps: [], hookTrace: [], messages: [], usage: { promptTokens: 0, completionTokens: 0, modelCalls: 0 } });
    expect(retry.detail).toEqual({ error: 'table refused', stage: 'setup', permanent: true });
    expect(model.seen.map((c) => c.kind)).toEqual(['first', 'reflection']);
    const [timing] = timings(dir);
    expect(timing!.modelMs).toEqual([LATENCY.first, LATENCY.reflection]);
    // Both episodes' times are spans inside the run, so their sum is no longer than the run.
    expect(timing!.totalMs).toBeGreaterThanOrEqual(0);
    expect(timing!.totalMs).toBeLessThanOrEqual(elapsed);
    s.close();
  });

  it('records second-episode hooks that cannot be opened as hook_fault in the retry and closes the episode opened for it', async () => {
    const closes: number[] = [];
    const env = openingFails(await dbbench(), -1, 1, undefined, closes);
    let opened = 0;
    const flaky: HookProvider = {
      label: 'flaky',
      openEpisode: () => (++opened >= 2 ? Promise.reject(new Error('sandbox pool closed')) : NO_HOOKS.openEpisode()),
    };
    const dir = storeDir();
    const s = store(dir, [1]);
    const model = reflecting([1]);
    const before = performance.now();
    const result = await runBatch({ environment: env, model, hooks: flaky, taskIndices: [1], store: s, strategy: 'reflection' });
    const elapsed = performance.now() - before;
    await env.close();
    const retry = reflectionOf(result.records[0]!)!.retry!;
    expect(retry.outcome).toBe('hook_fault');
    expect(retry.detail).toEqual({ error: 'sandbox pool closed', stage: 'setup' });
    // The first episode and the one opened for the second attempt are both closed.
    expect(closes).toEqual([1, 1]);
    const [timing] = timings(dir);
    expect(timing!.modelMs).toEqual([LATENCY.first, LATENCY.reflection]);
    expect(timing!.totalMs).toBeLessThanOrEqual(elapsed);
    s.close();
  });

  it('stores nothing for a task whose run stops between its two episodes, and plays both again on resume', async () => {
    const dir = storeDir();
    const s = store(dir, [0, 1]);
    const controller = new AbortController();
    // The signal is raised while task 1's first episode plays; its reflection call then fails as aborted.
    const stopping = reflecting([1], 'Check the table name first.', (c) => {
      if (c.kind === 'reflection' && c.request.signal?.aborted) throw new ModelCallError({ message: 'aborted', failure: 'aborted' });
      if (c.kind === 'first' && c.task === 1) controller.abort();
    });
    let env = await dbbench();
    await expect(runBatch({ environment: env, model: stopping, hooks: NO_HOOKS, taskIndices: [0, 1], store: s, strategy: 'reflection', signal: controller.signal })).rejects.toThrow('aborted');
    await env.close();
    s.close();
    expect(stopping.seen.map((c) => [c.kind, c.task])).toEqual([['first', 0], ['first', 1], ['reflection', 1]]);

    const again = RunStore.open(dir);
    expect(again.isDone(0)).toBe(true);
    expect(again.isDone(1)).toBe(false);
    env = await dbbench();
    const model = reflecting([1]);
    const resumed = await runBatch({ environment: env, model, hooks: NO_HOOKS, taskIndices: [0, 1], store: again, strategy: 'reflection' });
    await env.close();
    expect(resumed).toMatchObject({ ran: 1, skipped: 1, interrupted: false });
    expect(model.seen.map((c) => c.kind)).toEqual(['first', 'reflection', 'second']);
    const task1 = resumed.records.find((r) => r.task.index === 1)!;
    expect(task1.attempt).toBe(1);
    expect(reflectionOf(task1)!.retry!.outcome).toBe('success');
    again.close();
  });
});


describe('runBatch scheduling and what it reports', () => {
  it('plays `concurrency` episodes at once', async () => {
    const real = await dbbench();
    let opening = 0;
    let most = 0;
    // Each opening waits one turn of the event loop: every episode the limit lets start (p-limit starts them
    // in microtasks) has begun opening by then.
    const env: Environment = {
      bench: real.bench, split: real.split, size: real.size, close: () => real.close(),
      async openEpisode(index) {
        opening++;
        most = Math.max(most, opening);
        await new Promise<void>((resolve) => setImmediate(resolve));
        opening--;
        return real.openEpisode(index);
      },
    };
    const s = store(storeDir(), [0, 1, 2]);
    const result = await runBatch({ environment: env, model: target((task) => gold(task)), hooks: NO_HOOKS, taskIndices: [0, 1, 2], store: s, concurrency: 2 });
    await env.close();
    expect(result.records.map((r) => r.outcome)).toEqual(['success', 'success', 'success']);
    expect(most).toBe(2);
    s.close();
  });

  it('reports each finished episode with its record as stored, not as played', async () => {
    const env = await dbbench();
    const dir = storeDir();
    const s = RunStore.create(dir, {
      schemaVersion: RUN_MANIFEST_VERSION, runId: 'test', createdAt: '2026-01-01T00:00:00.000Z', bench: 'dbbench', split: 'dev',
      taskIndices: [0], target: { spec: 'scripted', label: 'scripted-target', simulated: false }, patch: null, options: {},
    }, { maxRecordBytes: 200 });
    const reported: EpisodeRecord[] = [];
    const result = await runBatch({ environment: env, model: target((task) => gold(task)), hooks: NO_HOOKS, taskIndices: [0], store: s, onProgress: (p) => { if (p.record) reported.push(p.record); } });
    await env.close();
    expect(result.records[0]!.outcome).toBe('model_error');
    expect(reported).toEqual([result.records[0]]);
    s.close();
  });

  it('times a setup failure from its start, with no model time', async () => {
    const env = openingFails(await dbbench(), 0, 1, new Error('table refused'));
    const dir = storeDir();
    const s = store(dir, [0]);
    const before = performance.now();
    await runBatch({ environment: env, model: target(() => wrong), hooks: NO_HOOKS, taskIndices: [0], store: s });
    const elapsed = performance.now() - before;
    await env.close();
    const [timing] = timings(dir);
    expect(timing!.modelMs).toEqual([]);
    expect(timing!.totalMs).toBeGreaterThanOrEqual(0);
    expect(timing!.totalMs).toBeLessThanOrEqual(elapsed);
    s.close();
  });
});
