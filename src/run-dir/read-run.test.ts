import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { EpisodeRecord } from '../episode/index.js';
import { loadRunArtifacts, RunArtifactError } from './read-run.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function episode(index: number, reward: number, outcome: EpisodeRecord['outcome'] = reward >= 1 ? 'success' : 'wrong_answer'): EpisodeRecord {
  return {
    schemaVersion: 2,
    task: { bench: 'dbbench', split: 'dev', index },
    attempt: 1,
    outcome,
    reward,
    rounds: 1,
    detail: {},
    steps: [],
    hookTrace: [],
    messages: [],
    usage: { promptTokens: 0, completionTokens: 0, modelCalls: 1 },
  };
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

function writeRunStore(dir: string, records: EpisodeRecord[]): void {
  writeJson(path.join(dir, 'run.json'), {
    schemaVersion: 1,
    runId: path.basename(dir),
    createdAt: '2026-01-01T00:00:00.000Z',
    bench: 'dbbench',
    split: 'dev',
    taskIndices: records.map((r) => r.task.index),
    target: { spec: 'sim:dbbench', label: 'sim:dbbench (simulated target)', simulated: true },
    patch: null,
    options: {},
  });
  writeFileSync(path.join(dir, 'episodes.jsonl'), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
}

/** A small improve run directory: one scored batch with a rerun, one batch with no failures. */
function makeImproveRun(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'report-load-'));
  dirs.push(root);
  const run = path.join(root, 'improve-run');
  // Task 1 first failed for infrastructure reasons and was retried: the retry wins.
  writeRunStore(path.join(run, 'baseline'), [episode(0, 1), episode(1, 0, 'model_error'), episode(1, 0), episode(2, 1), episode(3, 1)]);
  writeRunStore(path.join(run, 'reruns', 'key0'), [episode(0, 1), episode(1, 1)]);
  const engineer = { label: 'symbolic', symbolic: true };
  const base = { schemaVersion: 1, excludedTasks: [], engineer, notes: [], hookFaults: 0, rejection: null };
  writeJson(path.join(run, 'batches', 'batch_000', 'result.json'), {
    ...base,
    batchTag: 'batch_000',
    taskIndices: [0, 1],
    status: 'scored',
    validPatch: true,
    baseline: { pass: 1, rewards: { 0: 1, 1: 0 } },
    patched: { pass: 2, rewards: { 0: 1, 1: 1 } },
    reward: { score: 0.5, metric: 'delta_pass_rate', raw: { rescued: [1], regressed: [] } },
    hookEffects: { 'on_init:init': 2 },
    rerun: { cacheKey: 'key0', cacheHit: false, attempts: 1, infraFailures: 0 },
  });
  writeJson(path.join(run, 'batches', 'batch_000', 'metadata.json'), { batchTag: 'batch_000', targetSimulated: true, threshold: 1 });
  writeJson(path.join(run, 'batches', 'batch_000', 'verdict.json'), { kind: 'valid', notes: [], patch: { actions: [{ type: 'add_code_hook', hook: 'on_init', code: 'x' }] } });
  writeJson(path.join(run, 'batches', 'batch_000', 'patch.json'), { actions: [{ type: 'add_code_hook', hook: 'on_init', code: 'x' }] });
  writeJson(path.join(run, 'batches', 'batch_001', 'result.json'), {
    ...base,
    batchTag: 'batch_001',
    taskIndices: [2, 3],
    status: 'no_failures',
    validPatch: false,
    baseline: { pass: 2, rewards: { 2: 1, 3: 1 } },
    patched: null,
    reward: { score: 0, metric: 'delta_pass_rate', raw: null },
    hookEffects: {},
    rerun: null,
  });
  writeJson(path.join(run, 'summary.json'), {
    schemaVersion: 1,
    bench: 'dbbench',
    split: 'dev',
    target: { label: 'sim:dbbench (simulated target)', simulated: true },
    engineer,
    batches: [
      { tag: 'batch_000', status: 'scored', baselinePass: 1, patchedPass: 2, tasks: 2, score: 0.5, rescued: [1], regressed: [], hookEffects: 2 },
      { tag: 'batch_001', status: 'no_failures', baselinePass: 2, patchedPass: null, tasks: 2, score: 0, rescued: [], regressed: [], hookEffects: 0 },
    ],
    totals: { batches: 2, scored: 1, meanScore: 0.25, baselinePass: 3, patchedPass: 4, tasks: 4, missingEvaluations: 0, byStatus: { scored: 1, no_failures: 1 } },
  });
  return run;
}

function batchResultFile(run: string): string {
  return path.join(run, 'batches', 'batch_000', 'result.json');
}

function expectArtifactError(run: string, file: string, problem: RunArtifactError['problem'], message?: RegExp): void {
  let caught: unknown;
  try {
    loadRunArtifacts(run);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(RunArtifactError);
  const error = caught as RunArtifactError;
  expect(error.code).toBe('config_error');
  expect(error.problem).toBe(problem);
  expect(error.file).toBe(path.join('improve-run', file));
  expect(error.message).toContain(path.join('improve-run', file));
  if (message) expect(error.message).toMatch(message);
}

describe('loadRunArtifacts', () => {
  it('reads an improve run: summary, baseline, batches and the reruns they name', () => {
    const run = makeImproveRun();
    const before = readdirSync(path.join(run, 'baseline')).sort();
    const a = loadRunArtifacts(run);
    expect(a.kind).toBe('improve');
    if (a.kind !== 'improve') return;
    expect(a.name).toBe('improve-run');
    expect(a.baseline.records.map((r) => [r.task.index, r.outcome])).toEqual([[0, 'success'], [1, 'wrong_answer'], [2, 'success'], [3, 'success']]);
    expect(a.batches.map((b) => [b.tag, b.result.status, b.rerun?.dir ?? null, b.patch !== null, b.engineer])).toEqual([
      ['batch_000', 'scored', 'reruns/key0', true, null],
      ['batch_001', 'no_failures', null, false, null],
    ]);
    expect(a.batches[0]?.rerun?.records).toHaveLength(2);
    // Reading never writes: no SQLite index, no repair.
    expect(readdirSync(path.join(run, 'baseline')).sort()).toEqual(before);
  });

  it('reads a plain run directory', () => {
    const run = makeImproveRun();
    const a = loadRunArtifacts(path.join(run, 'baseline'));
    expect(a.kind).toBe('run');
    if (a.kind === 'run') expect(a.run.records).toHaveLength(4);
  });

  it('reads version-1 records of older runs, their attempt being their position among the task\'s records', () => {
    const run = makeImproveRun();
    const v1 = (r: EpisodeRecord) => {
      const { attempt: _attempt, ...rest } = r;
      return JSON.stringify({ ...rest, schemaVersion: 1 });
    };
    writeFileSync(path.join(run, 'baseline', 'episodes.jsonl'), `${[v1(episode(1, 0, 'model_error')), v1(episode(0, 1)), v1(episode(1, 1))].join('\n')}\n`);
    const a = loadRunArtifacts(path.join(run, 'baseline'));
    if (a.kind !== 'run') throw new Error('expected a plain run');
    expect(a.run.records.map((r) => [r.task.index, r.attempt, r.outcome, r.schemaVersion])).toEqual([[0, 1, 'success', 2], [1, 2, 'success', 2]]);
    writeFileSync(path.join(run, 'baseline', 'episodes.jsonl'), `${JSON.stringify({ ...episode(0, 1), attempt: 0 })}\n`);
    expectArtifactError(run, 'baseline/episodes.jsonl', 'invalid_shape', /line 1: attempt must be a positive integer/);
  });

  it('leaves out a torn last line with a warning, as the store would', () => {
    const run = makeImproveRun();
    appendFileSync(path.join(run, 'reruns', 'key0', 'episodes.jsonl'), '{"schemaVersion":1,"task":{"ind');
    const a = loadRunArtifacts(run);
    expect(a.warnings).toEqual([`${path.join('improve-run', 'reruns', 'key0', 'episodes.jsonl')}: the last line was cut off by a crash and is left out.`]);
  });

  it('names the missing file', () => {
    const run = makeImproveRun();
    const summary = readFileSync(path.join(run, 'summary.json'), 'utf8');
    rmSync(path.join(run, 'summary.json'));
    expectArtifactError(run, 'summary.json', 'missing', /has not finished.*resume/);
    writeFileSync(path.join(run, 'summary.json'), summary);
    rmSync(path.join(run, 'batches', 'batch_001', 'result.json'));
    expectArtifactError(run, 'batches/batch_001/result.json', 'missing', /is missing/);
    rmSync(path.join(run, 'reruns', 'key0', 'episodes.jsonl'));
    expectArtifactError(run, 'reruns/key0/episodes.jsonl', 'missing');
  });

  it('names a file that is not JSON, a corrupt JSONL line, and an unknown version', () => {
    let run = makeImproveRun();
    writeFileSync(path.join(run, 'summary.json'), '{"schemaVersion": 1, "bench": ');
    expectArtifactError(run, 'summary.json', 'invalid_json', /is not valid JSON/);

    run = makeImproveRun();
    const file = path.join(run, 'baseline', 'episodes.jsonl');
    writeFileSync(file, `not json\n${JSON.stringify(episode(0, 1))}\n`);
    expectArtifactError(run, 'baseline/episodes.jsonl', 'invalid_json', /line 1 is not valid JSON/);

    run = makeImproveRun();
    writeJson(path.join(run, 'baseline', 'run.json'), { schemaVersion: 99 });
    expectArtifactError(run, 'baseline/run.json', 'unsupported_version', /schema version 99 is not supported \(expected 1\)/);
  });

  it('rejects artifacts of the wrong shape, including rerun keys that would leave the run directory', () => {
    let run = makeImproveRun();
    writeFileSync(path.join(run, 'baseline', 'episodes.jsonl'), `${JSON.stringify({ ...episode(0, 1), steps: 'none' })}\n`);
    expectArtifactError(run, 'baseline/episodes.jsonl', 'invalid_shape', /line 1: steps must be a list/);

    run = makeImproveRun();
    writeJson(batchResultFile(run), { schemaVersion: 1, batchTag: 'batch_000', status: 'scored' });
    expectArtifactError(run, 'batches/batch_000/result.json', 'invalid_shape');

    run = makeImproveRun();
    writeFileSync(batchResultFile(run), readFileSync(batchResultFile(run), 'utf8').replace('"cacheKey": "key0"', '"cacheKey": "../../../etc"'));
    expectArtifactError(run, 'batches/batch_000/result.json', 'invalid_shape', /rerun cache key/);
  });

  it('says when a directory holds no run, or does not exist', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'report-empty-'));
    dirs.push(root);
    expect(() => loadRunArtifacts(root)).toThrow(/holds no run: expected summary.json .* or run.json/);
    expect(() => loadRunArtifacts(path.join(root, 'nope'))).toThrow(/Run directory not found/);
  });
});

