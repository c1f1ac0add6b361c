import { mkdtempSync, readFileSync, rmSync, appendFileSync } from 'node:fs';
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
const record = (index: number, outcome: Outcome): EpisodeRecord => ({
  schemaVersion: 1, task: { bench: 'dbbench', split: 'dev', index }, outcome, reward: outcome === 'success' ? 1 : 0, rounds: 1,
  detail: {}, steps: [], hookTrace: [], messages: [], usage: { promptTokens: 0, completionTokens: 0, modelCalls: 1 },
});

describe('RunStore', () => {
  it('repairs a torn last line, never records a task twice, and rebuilds its index from the JSONL', () => {
    const dir = path.join(root, 'a');
    const store = RunStore.create(dir, manifest([0, 1, 2]));
    store.append(record(0, 'success'), { totalMs: 1, modelMs: [] });
    store.append(record(0, 'wrong_answer'), { totalMs: 1, modelMs: [] });
    store.close();
    appendFileSync(path.join(dir, 'episodes.jsonl'), '{"schemaVersion":1,"task":{"bench"');
    const reopened = RunStore.open(dir, manifest([0, 1, 2]));
    expect(reopened.repairedBytes).toBeGreaterThan(0);
    expect(reopened.records().map((r) => [r.task.index, r.outcome])).toEqual([[0, 'success']]);
    expect(reopened.index.prepare('SELECT COUNT(*) AS n FROM episodes').get()).toEqual({ n: 1 });
    reopened.close();
    expect(readFileSync(path.join(dir, 'episodes.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('lets a retry replace an infrastructure failure, and only that', () => {
    const dir = path.join(root, 'b');
    const store = RunStore.create(dir, manifest([0, 1]));
    store.append(record(0, 'model_error'), { totalMs: 1, modelMs: [] });
    store.append(record(1, 'wrong_answer'), { totalMs: 1, modelMs: [] });
    expect([store.isDone(0), store.isDone(0, true), store.isDone(1, true)]).toEqual([true, false, true]);
    store.append(record(0, 'success'), { totalMs: 1, modelMs: [] });
    store.append(record(1, 'success'), { totalMs: 1, modelMs: [] });
    store.close();
    const reopened = RunStore.open(dir);
    expect(reopened.records().map((r) => r.outcome)).toEqual(['success', 'wrong_answer']);
    reopened.close();
  });

  it('refuses to create over an existing run and to resume with other settings', () => {
    const dir = path.join(root, 'c');
    RunStore.create(dir, manifest([0])).close();
    expect(() => RunStore.create(dir, manifest([0]))).toThrow(/already holds a run/);
    expect(() => RunStore.open(dir, manifest([0, 1]))).toThrow(/Cannot resume .*\(taskIndices: \[0\] → \[0,1\]\)/);
    expect(() => RunStore.open(dir, { ...manifest([0]), options: { protocol: 'alfworld-text-v0.2' } })).toThrow(/\(options\.protocol: \(unset\) → "alfworld-text-v0\.2"\)/);
    const same = RunStore.open(dir, { ...manifest([0]), runId: 'other', createdAt: 'later' });
    expect(same.manifest.runId).toBe('r');
    same.close();
  });
});
