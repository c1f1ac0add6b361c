import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { ConfigError, type EpisodeRecord, type Outcome } from '../episode/index.js';
import { RUN_MANIFEST_VERSION, type RunManifest } from './run-manifest.js';
import { RunStore } from './run-store.js';

// The store's edges: logs out of attempt order, rewrites that are not needed, model turns of attempts that
// do not count, the index columns, and the exact errors a user sees.

const root = mkdtempSync(path.join(tmpdir(), 'harness-store-edges-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const manifest = (taskIndices: number[]): RunManifest => ({
  schemaVersion: RUN_MANIFEST_VERSION, runId: 'r', createdAt: 'now', bench: 'dbbench', split: 'dev', taskIndices,
  target: { spec: 'sim:dbbench', label: 'sim', simulated: true }, patch: null, options: {},
});
const record = (index: number, outcome: Outcome, attempt = 1, extra: Partial<EpisodeRecord> = {}): EpisodeRecord => ({
  schemaVersion: 2, task: { bench: 'dbbench', split: 'dev', index }, attempt, outcome, reward: outcome === 'success' ? 1 : 0, rounds: 1,
  detail: {}, steps: [], hookTrace: [], messages: [], usage: { promptTokens: 0, completionTokens: 0, modelCalls: 1 }, ...extra,
});
const timing = { totalMs: 1, modelMs: [] };
const turn = (request: string) => ({ request, response: { message: { content: request, toolCalls: [] }, finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 1 } } });
let dirs = 0;
const freshDir = () => path.join(root, `run-${dirs++}`);
const readLines = (file: string) => readFileSync(file, 'utf8').trim().split('\n');
const configError = (run: () => unknown): ConfigError => {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('no error thrown');
};

describe('RunStore order by attempt', () => {
  it('reads a log whose attempts are out of file order: the last non-infrastructure attempt counts, finish sorts by attempt', () => {
    const dir = freshDir();
    RunStore.create(dir, manifest([0, 1])).close();
    // A log assembled by hand (or by another tool): task 0's retry is written before its failed first attempt.
    const lines = [record(0, 'success', 2), record(1, 'wrong_answer'), record(0, 'model_error', 1)].map((r) => JSON.stringify(r));
    writeFileSync(path.join(dir, 'episodes.jsonl'), `${lines.join('\n')}\n`);
    const store = RunStore.open(dir);
    expect(store.records().map((r) => [r.task.index, r.attempt, r.outcome])).toEqual([[0, 2, 'success'], [1, 1, 'wrong_answer']]);
    expect([store.isDone(0, true), store.nextAttempt(0)]).toEqual([true, 3]);
    store.finish();
    store.close();
    expect(readLines(path.join(dir, 'episodes.jsonl'))).toEqual([lines[2], lines[0], lines[1]]);
  });

  it('sorts model turns by attempt too, and a log whose first line is already in place', () => {
    const dir = freshDir();
    RunStore.create(dir, manifest([0, 1, 2])).close();
    const entry = (index: number, attempt: number) => JSON.stringify({ index, attempt, replayed: 0, turns: [turn(`${index}.${attempt}`)] });
    writeFileSync(path.join(dir, 'model-turns.jsonl'), `${[entry(0, 1), entry(2, 1), entry(1, 2), entry(1, 1)].join('\n')}\n`);
    const store = RunStore.open(dir);
    store.finish();
    store.close();
    expect(readLines(path.join(dir, 'model-turns.jsonl'))).toEqual([entry(0, 1), entry(1, 1), entry(1, 2), entry(2, 1)]);
  });

  it('finish leaves logs already in canonical order untouched, and keeps a current-version line byte for byte', () => {
    const dir = freshDir();
    const store = RunStore.create(dir, manifest([0, 1]));
    store.append(record(0, 'success'), timing, { replayed: 0, turns: [turn('a')] });
    store.append(record(1, 'success'), timing, { replayed: 0, turns: [turn('b')] });
    const episodes = path.join(dir, 'episodes.jsonl');
    const turns = path.join(dir, 'model-turns.jsonl');
    const before = [statSync(episodes).ino, statSync(turns).ino];
    store.finish();
    // A rewrite renames a new file over the old one: the inode would change.
    expect([statSync(episodes).ino, statSync(turns).ino]).toEqual(before);
    store.close();

    // A line spaced differently from JSON.stringify's output is kept as written when the log is rewritten.
    const spaced = JSON.stringify(record(1, 'success')).replace('"schemaVersion":2', '"schemaVersion": 2');
    writeFileSync(episodes, `${spaced}\n${JSON.stringify(record(0, 'success'))}\n`);
    const reopened = RunStore.open(dir);
    reopened.finish();
    reopened.close();
    expect(readLines(episodes)).toEqual([JSON.stringify(record(0, 'success')), spaced]);
  });
});

describe('RunStore model turns', () => {
  it('leaves out a task whose counting attempt kept no turns, and turns whose record was lost', () => {
    const dir = freshDir();
    const store = RunStore.create(dir, manifest([0, 1, 2]));
    store.append(record(0, 'model_error'), timing, { replayed: 0, turns: [turn('first try')] });
    // The retry never reached the model: no turns are stored for it.
    store.append(record(0, 'env_error', 2), timing);
    store.append(record(1, 'success'), timing, { replayed: 2, turns: [turn('b')] });
    store.append(record(2, 'success'), timing, { replayed: 0, turns: [turn('c')] });
    expect([...store.modelTurns().keys()]).toEqual([1, 2]);
    store.close();
    expect(readLines(path.join(dir, 'model-turns.jsonl')).map((l) => (JSON.parse(l) as { attempt: number }).attempt)).toEqual([1, 1, 1]);
    // A crash tore the last record's line, but its turns had been written: they belong to no record.
    const episodes = path.join(dir, 'episodes.jsonl');
    const text = readFileSync(episodes, 'utf8');
    writeFileSync(episodes, text.slice(0, text.length - 20));
    const reopened = RunStore.open(dir);
    expect([...reopened.modelTurns()].map(([index, e]) => [index, e.replayed])).toEqual([[1, 2]]);
    reopened.close();
  });
});

describe('RunStore index', () => {
  it('counts applied effects and faults per episode', () => {
    const store = RunStore.create(freshDir(), manifest([0]));
    const entry = (disposition: string, fault?: object) => ({ hook: 'on_post_step', round: 1, effect: 'inject_hint', disposition, ...(fault ? { fault } : {}) });
    const trace = [entry('applied'), entry('applied'), entry('ignored'), entry('applied'), entry('none', { kind: 'timeout', message: 't' })] as unknown as EpisodeRecord['hookTrace'];
    store.append(record(0, 'success', 1, { hookTrace: trace }), timing);
    expect(store.index.prepare('SELECT hook_effects, hook_faults FROM episodes').get()).toEqual({ hook_effects: 3, hook_faults: 1 });
    store.close();
    expect(store.index.open).toBe(false);
  });
});

describe('RunStore directories and errors', () => {
  it('creates a run in a new nested folder or in an empty existing one; exists needs run.json', () => {
    const nested = path.join(freshDir(), 'a', 'b');
    RunStore.create(nested, manifest([0])).close();
    expect(RunStore.exists(nested)).toBe(true);
    const empty = freshDir();
    mkdirSync(empty);
    expect(RunStore.exists(empty)).toBe(false);
    RunStore.create(empty, manifest([0])).close();
    expect(JSON.parse(readFileSync(path.join(empty, 'run.json'), 'utf8'))).toEqual(manifest([0]));
  });

  it('says what is wrong and which setting to change', () => {
    const dir = freshDir();
    RunStore.create(dir, manifest([0])).close();
    const taken = configError(() => RunStore.create(dir, manifest([0])));
    expect([taken.message, taken.field]).toEqual([`${dir} already holds a run. Pass --resume to continue it, or choose another --run-dir.`, 'runDir']);
    const other = configError(() => RunStore.open(dir, { ...manifest([1]), split: 'test' }));
    expect([other.message, other.field]).toEqual([
      `Cannot resume ${dir}: it was started with different settings (split: "dev" → "test"; taskIndices: [0] → [1]). Resume with the same flags, or start a new --run-dir.`,
      'resume',
    ]);
    const missing = configError(() => RunStore.open(path.join(dir, 'nothing')));
    expect([missing.message, missing.field]).toEqual([`${path.join(dir, 'nothing')} holds no run (no run.json).`, 'runDir']);
    writeFileSync(path.join(dir, 'run.json'), JSON.stringify({ ...manifest([0]), schemaVersion: 'x' }));
    const manifestVersion = configError(() => RunStore.open(dir));
    expect([manifestVersion.message, manifestVersion.field]).toEqual([`${path.join(dir, 'run.json')}: manifest version x is not supported.`, 'runDir']);
  });

  it('refuses record versions it cannot read, a string or a missing one included', () => {
    for (const version of ['2', undefined, 3]) {
      const dir = freshDir();
      RunStore.create(dir, manifest([0])).close();
      writeFileSync(path.join(dir, 'episodes.jsonl'), `${JSON.stringify({ ...record(0, 'success'), schemaVersion: version })}\n`);
      const error = configError(() => RunStore.open(dir));
      expect([error.message, error.field]).toEqual([`${dir}: episode record version ${String(version)} is not supported (this version reads 1 and 2).`, 'runDir']);
    }
  });
});
