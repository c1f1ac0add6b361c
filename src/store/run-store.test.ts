import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import type { EpisodeRecord, Outcome } from '../episode/index.js';
import { RUN_MANIFEST_VERSION, type RunManifest } from './run-manifest.js';
import { RunStore } from './run-store.js';

const root = mkdtempSync(path.join(tmpdir(), 'harness-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const manifest = (taskIndices: number[]): RunManifest => ({
  schemaVersion: RUN_MANIFEST_VERSION, runId: 'r', createdAt: 'now', bench: 'dbbench', split: 'dev', taskIndices,
  target: { spec: 'sim:dbbench', label: 'sim', simulated: true }, patch: null, options: {},
});
const record = (index: number, outcome: Outcome, attempt = 1): EpisodeRecord => ({
  schemaVersion: 2, task: { bench: 'dbbench', split: 'dev', index }, attempt, outcome, reward: outcome === 'success' ? 1 : 0, rounds: 1,
  detail: {}, steps: [], hookTrace: [], messages: [], usage: { promptTokens: 0, completionTokens: 0, modelCalls: 1 },
});
const timing = { totalMs: 1, modelMs: [] };
const fileLines = (dir: string) => readFileSync(path.join(dir, 'episodes.jsonl'), 'utf8').trim().split('\n');
const stored = (dir: string) => fileLines(dir).map((l) => JSON.parse(l) as EpisodeRecord);

const turn = (request: string) => ({ request, response: { message: { content: request, toolCalls: [] }, finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 1 } } });

describe('RunStore', () => {
  it("keeps each episode's model turns beside it: the counting attempt's are returned, the file ends in task order", () => {
    const dir = path.join(root, 'turns');
    const store = RunStore.create(dir, manifest([0, 1]));
    store.append(record(1, 'wrong_answer'), timing, { replayed: 1, turns: [turn('b0'), turn('b1')] });
    store.append(record(0, 'model_error'), timing, { replayed: 0, turns: [turn('first try')] });
    store.append(record(0, 'success', 2), timing, { replayed: 0, turns: [turn('a0')] });
    store.finish();
    store.close();
    const reopened = RunStore.open(dir);
    expect([...reopened.modelTurns()].map(([i, e]) => [i, e.replayed, e.turns.map((t) => t.request)])).toEqual([[1, 1, ['b0', 'b1']], [0, 0, ['a0']]].sort((a, b) => (a[0] as number) - (b[0] as number)));
    reopened.close();
    const lines = readFileSync(path.join(dir, 'model-turns.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { index: number; attempt: number });
    expect(lines.map((l) => [l.index, l.attempt])).toEqual([[0, 1], [0, 2], [1, 1]]);
  });

  it('repairs a torn last line, never records a task twice, and rebuilds its index from the JSONL', () => {
    const dir = path.join(root, 'a');
    const store = RunStore.create(dir, manifest([0, 1, 2]));
    store.append(record(0, 'success'), timing);
    expect(store.append(record(0, 'wrong_answer', 2), timing)).toBeUndefined();
    store.close();
    appendFileSync(path.join(dir, 'episodes.jsonl'), '{"schemaVersion":2,"task":{"bench"');
    const reopened = RunStore.open(dir, manifest([0, 1, 2]));
    expect(reopened.repairedBytes).toBeGreaterThan(0);
    expect(reopened.records().map((r) => [r.task.index, r.outcome])).toEqual([[0, 'success']]);
    expect(reopened.index.prepare('SELECT COUNT(*) AS n FROM episodes').get()).toEqual({ n: 1 });
    reopened.close();
    expect(fileLines(dir)).toHaveLength(1);
  });

  it('lets a retry replace an infrastructure failure, and only that, numbering the attempts', () => {
    const dir = path.join(root, 'b');
    const store = RunStore.create(dir, manifest([0, 1]));
    store.append(record(0, 'model_error'), timing);
    store.append(record(1, 'wrong_answer'), timing);
    expect([store.isDone(0), store.isDone(0, true), store.isDone(1, true)]).toEqual([true, false, true]);
    expect([store.nextAttempt(0), store.nextAttempt(1), store.nextAttempt(2)]).toEqual([2, 2, 1]);
    expect(() => store.append(record(0, 'success', 1), timing)).toThrow(/attempt 1, but its next attempt is 2/);
    store.append(record(0, 'success', 2), timing);
    expect(store.append(record(1, 'success', 2), timing)).toBeUndefined();
    store.close();
    const reopened = RunStore.open(dir);
    expect(reopened.records().map((r) => [r.outcome, r.attempt])).toEqual([['success', 2], ['wrong_answer', 1]]);
    expect(reopened.index.prepare('SELECT task_index, attempt FROM episodes ORDER BY task_index').all()).toEqual([{ task_index: 0, attempt: 2 }, { task_index: 1, attempt: 1 }]);
    reopened.close();
    const timings = readFileSync(path.join(dir, 'timings.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { index: number; attempt: number });
    expect(timings.map((t) => [t.index, t.attempt])).toEqual([[0, 1], [1, 1], [0, 2]]);
  });

  it('refuses to create over an existing run and to resume with other settings', () => {
    const dir = path.join(root, 'c');
    RunStore.create(dir, manifest([0])).close();
    expect(() => RunStore.create(dir, manifest([0]))).toThrow(/already holds a run/);
    expect(() => RunStore.open(dir, manifest([0, 1]))).toThrow(/Cannot resume .*\(taskIndices: \[0\] → \[0,1\]\)/);
    expect(() => RunStore.open(dir, { ...manifest([0]), options: { protocol: 'alfworld-text-v0.2' } })).toThrow(/\(options\.protocol: \(unset\) → "alfworld-text-v0\.2"\)/);
    const file = { path: '/data/mine.jsonl', sha256: 'ab' };
    expect(() => RunStore.open(dir, { ...manifest([0]), options: { dataFile: file } })).toThrow(/options\.dataFile: \(unset\) → \{"path":"\/data\/mine\.jsonl","sha256":"ab"\}/);
    const same = RunStore.open(dir, { ...manifest([0]), runId: 'other', createdAt: 'later', data: { unshipped: { count: 1, listed: 2, ids: ['x'] } } });
    expect(same.manifest.runId).toBe('r');
    same.close();
  });

  it('finish rewrites the log in task and attempt order, keeping every line as written', () => {
    const dir = path.join(root, 'd');
    const store = RunStore.create(dir, manifest([0, 1, 2, 3]));
    store.append(record(3, 'model_error'), timing);
    store.append(record(1, 'success'), timing);
    store.append(record(3, 'model_error', 2), timing);
    store.append(record(0, 'wrong_answer'), timing);
    store.append(record(3, 'success', 3), timing);
    const appended = new Set(fileLines(dir));
    store.finish();
    expect(stored(dir).map((r) => [r.task.index, r.attempt])).toEqual([[0, 1], [1, 1], [3, 1], [3, 2], [3, 3]]);
    expect(new Set(fileLines(dir))).toEqual(appended);
    expect(existsSync(path.join(dir, 'episodes.jsonl.tmp'))).toBe(false);
    // The store goes on appending to the new file after the rename.
    store.append(record(2, 'success'), timing);
    store.finish();
    store.close();
    expect(stored(dir).map((r) => r.task.index)).toEqual([0, 1, 2, 3, 3, 3]);
    const reopened = RunStore.open(dir);
    expect(reopened.records().map((r) => [r.task.index, r.attempt, r.outcome])).toEqual([[0, 1, 'wrong_answer'], [1, 1, 'success'], [2, 1, 'success'], [3, 3, 'success']]);
    reopened.close();
  });

  it('drops the leftover of a rewrite that a crash interrupted, and reads the intact log', () => {
    const dir = path.join(root, 'e');
    const store = RunStore.create(dir, manifest([0, 1]));
    store.append(record(1, 'success'), timing);
    store.append(record(0, 'success'), timing);
    store.close();
    writeFileSync(path.join(dir, 'episodes.jsonl.tmp'), `${JSON.stringify(record(0, 'success'))}\n{"schemaVer`);
    const reopened = RunStore.open(dir);
    expect(existsSync(path.join(dir, 'episodes.jsonl.tmp'))).toBe(false);
    expect(reopened.records().map((r) => r.task.index)).toEqual([0, 1]);
    reopened.finish();
    reopened.close();
    expect(stored(dir).map((r) => r.task.index)).toEqual([0, 1]);
  });

  it('reads version-1 runs with the attempt of each record inferred from file order, and lifts them on finish', () => {
    const dir = path.join(root, 'v1');
    RunStore.create(dir, manifest([0, 1])).close();
    const v1 = (index: number, outcome: Outcome) => {
      const { attempt: _attempt, ...rest } = record(index, outcome);
      return JSON.stringify({ ...rest, schemaVersion: 1 });
    };
    writeFileSync(path.join(dir, 'episodes.jsonl'), `${[v1(1, 'model_error'), v1(0, 'success'), v1(1, 'wrong_answer')].join('\n')}\n`);
    const store = RunStore.open(dir);
    expect(store.records().map((r) => [r.task.index, r.attempt, r.outcome, r.schemaVersion])).toEqual([[0, 1, 'success', 2], [1, 2, 'wrong_answer', 2]]);
    expect(store.nextAttempt(1)).toBe(3);
    store.finish();
    store.close();
    expect(stored(dir).map((r) => [r.schemaVersion, r.task.index, r.attempt])).toEqual([[2, 0, 1], [2, 1, 1], [2, 1, 2]]);
    expect(Object.keys(stored(dir)[0]!).slice(0, 4)).toEqual(['schemaVersion', 'task', 'attempt', 'outcome']);
  });

  it('refuses a record version it does not know, naming it', () => {
    const dir = path.join(root, 'v9');
    RunStore.create(dir, manifest([0])).close();
    writeFileSync(path.join(dir, 'episodes.jsonl'), `${JSON.stringify({ ...record(0, 'success'), schemaVersion: 9 })}\n`);
    expect(() => RunStore.open(dir)).toThrow(/episode record version 9 is not supported \(this version reads 1 and 2\)/);
  });

  it('stores a record over the cap, or one that cannot be serialized, as a small model_error of that attempt', () => {
    const dir = path.join(root, 'cap');
    const store = RunStore.create(dir, manifest([0, 1, 2, 3]), { maxRecordBytes: 4096 });
    const huge = { ...record(0, 'success'), messages: [{ role: 'assistant' as const, content: 'x'.repeat(10_000) }] };
    const justOver = { ...record(1, 'wrong_answer'), messages: [{ role: 'assistant' as const, content: '\u0001'.repeat(1000) }] };
    const cyclic = record(2, 'success');
    (cyclic.detail as Record<string, unknown>).self = cyclic.detail;
    const results = [store.append(huge, timing), store.append(justOver, timing), store.append(cyclic, timing), store.append(record(3, 'success'), timing)];
    store.finish();
    store.close();
    expect(results.map((r) => r?.outcome)).toEqual(['model_error', 'model_error', 'model_error', 'success']);
    const [a, b, c, d] = stored(dir);
    expect(a).toMatchObject({ attempt: 1, outcome: 'model_error', reward: 0, messages: [], steps: [], hookTrace: [] });
    expect(a!.detail.error).toMatch(/^episode record not stored: the record is over the 4096-byte cap \(more than 4096 characters of text\)/);
    expect(a!.detail.recordCap).toEqual({ capBytes: 4096, originalOutcome: 'success', messages: 1, steps: 0, hookCalls: 0, largestMessageChars: 10_020 });
    // 1000 control characters are 1000 characters of text but 6000 bytes of JSON.
    expect(b!.detail.error).toMatch(/over the 4096-byte cap \(\d{4} bytes\)/);
    expect(b!.detail.recordCap).toMatchObject({ recordBytes: expect.any(Number), originalOutcome: 'wrong_answer' });
    expect(c!.detail.error).toMatch(/cannot be serialized \(TypeError: Converting circular structure to JSON/);
    expect(d).toEqual(record(3, 'success'));
  });
});
