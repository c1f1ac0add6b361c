import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import type { EpisodeRecord, Outcome } from '../episode/index.js';
import { RUN_MANIFEST_VERSION, type RunManifest } from './run-manifest.js';
import { RunStore } from './run-store.js';

// What a resumed run sees: which tasks are done, which are played again, in which order records come back,
// and what a store refuses to open.

const root = mkdtempSync(path.join(tmpdir(), 'harness-store-resume-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const manifest = (taskIndices: number[]): RunManifest => ({
  schemaVersion: RUN_MANIFEST_VERSION, runId: 'r', createdAt: 'now', bench: 'dbbench', split: 'dev', taskIndices,
  target: { spec: 'sim:dbbench', label: 'sim', simulated: true }, patch: null, options: {},
});
const record = (index: number, outcome: Outcome, extra: Partial<EpisodeRecord> = {}): EpisodeRecord => ({
  schemaVersion: 2, task: { bench: 'dbbench', split: 'dev', index }, attempt: 1, outcome, reward: outcome === 'success' ? 1 : 0, rounds: 1,
  detail: {}, steps: [], hookTrace: [], messages: [], usage: { promptTokens: 0, completionTokens: 0, modelCalls: 1 }, ...extra,
});
const timing = { totalMs: 1, modelMs: [] };
let dirs = 0;
const fresh = (tasks: number[]) => RunStore.create(path.join(root, `run-${dirs++}`), manifest(tasks));

describe('RunStore resume', () => {
  it('never retries a permanent infrastructure failure, and retries the others only when asked', () => {
    const store = fresh([0, 1, 2]);
    store.append(record(0, 'env_error', { detail: { error: 'table cannot exist', permanent: true } }), timing);
    store.append(record(1, 'env_error', { detail: { error: 'connection refused' } }), timing);
    store.append(record(2, 'hook_fault'), timing);
    expect([0, 1, 2].map((i) => store.isDone(i, true))).toEqual([true, false, false]);
    expect([0, 1, 2].map((i) => store.isDone(i))).toEqual([true, true, true]);
    expect(store.isDone(3)).toBe(false);
    store.close();
  });

  it('returns records in task order whatever order they finished in, also after reopening', () => {
    const store = fresh([0, 1, 2]);
    for (const i of [2, 0, 1]) store.append(record(i, 'success'), timing);
    expect(store.records().map((r) => r.task.index)).toEqual([0, 1, 2]);
    store.close();
    const reopened = RunStore.open(store.dir);
    expect(reopened.records().map((r) => r.task.index)).toEqual([0, 1, 2]);
    reopened.close();
  });

  it('keeps the retry that replaced an infrastructure failure when reopened, and indexes its effects and faults', () => {
    const store = fresh([0]);
    store.append(record(0, 'model_error'), timing);
    const trace = [
      { hook: 'make_pre_hint', round: 1, effect: 'hint', disposition: 'applied' },
      { hook: 'on_post_step', round: 1, effect: 'none', disposition: 'none', fault: { kind: 'timeout', message: 't' } },
    ] as unknown as EpisodeRecord['hookTrace'];
    store.append(record(0, 'success', { hookTrace: trace, attempt: 2 }), timing);
    // A second non-infrastructure ending for the same task is not recorded.
    store.append(record(0, 'wrong_answer', { attempt: 3 }), timing);
    store.close();
    expect(readFileSync(path.join(store.dir, 'episodes.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    const reopened = RunStore.open(store.dir);
    expect(reopened.records().map((r) => r.outcome)).toEqual(['success']);
    expect(reopened.isDone(0, true)).toBe(true);
    expect(reopened.index.prepare('SELECT * FROM episodes').all()).toEqual([{ task_index: 0, attempt: 2, outcome: 'success', reward: 1, rounds: 1, hook_effects: 1, hook_faults: 1 }]);
    reopened.close();
  });

  it('refuses a folder without a run, and manifests or records of another version', () => {
    expect(() => RunStore.open(path.join(root, 'nothing'))).toThrow(/holds no run \(no run\.json\)/);
    const store = fresh([0]);
    store.close();
    writeFileSync(path.join(store.dir, 'run.json'), JSON.stringify({ ...manifest([0]), schemaVersion: 99 }));
    expect(() => RunStore.open(store.dir)).toThrow(/manifest version 99 is not supported/);
    const other = fresh([0]);
    other.append({ ...record(0, 'success'), schemaVersion: 7 as 2 }, timing);
    other.close();
    expect(() => RunStore.open(other.dir)).toThrow(/episode record version 7 is not supported/);
    expect(RunStore.exists(other.dir)).toBe(true);
    expect(RunStore.exists(path.join(root, 'nothing'))).toBe(false);
  });
});
