import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import type { TransferArtifact } from '../../src/experiments/transfer/transfer-summary.js';
import { runCli } from './cli-helpers.js';

const root = mkdtempSync(path.join(tmpdir(), 'harness-transfer-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Line { task: { index: number }; reward: number; outcome: string; usage: { modelCalls: number } }
const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);
/** The counting record per task: the last attempt. */
const lastPerTask = (file: string) => new Map(lines(file).map((l) => [l.task.index, l]));

/** Independently of the summary: the cell's baseline and patched passes from its run stores and batch results. */
function passesFromRecords(cell: string, tasks: number[]): { baseline: number; patched: number } {
  const baseline = lastPerTask(path.join(cell, 'baseline', 'episodes.jsonl'));
  const patched = new Map([...baseline].map(([t, r]) => [t, r.reward]));
  for (const tag of readdirSync(path.join(cell, 'batches'))) {
    const result = JSON.parse(readFileSync(path.join(cell, 'batches', tag, 'result.json'), 'utf8')) as { rerun: { cacheKey: string } | null; validPatch: boolean };
    if (!result.rerun || !result.validPatch) continue;
    for (const [t, r] of lastPerTask(path.join(cell, 'reruns', result.rerun.cacheKey, 'episodes.jsonl'))) patched.set(t, r.reward);
  }
  return { baseline: tasks.filter((t) => baseline.get(t)!.reward >= 1).length, patched: tasks.filter((t) => patched.get(t)! >= 1).length };
}

describe('harness-r1 experiment transfer (real CLI process, simulated targets, symbolic engineer, real sandbox)', () => {
  it('gives each target its own baseline and patches, a matrix whose cells match the run stores, labelled and resumable', async () => {
    const out = path.join(root, 'dbbench');
    const targets = 'sim:dbbench?seed=1,sim:dbbench?seed=2&faults=backticks:0.9,early_commit:0.5';
    const args = ['experiment', 'transfer', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:6', '--batch-size', '3', '--targets', targets, '--resamples', '300', '--out', out];
    const r = await runCli([...args, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const a = JSON.parse(r.stdout) as TransferArtifact;
    expect(a.labels).toEqual(['simulated target', 'symbolic engineer']);
    expect(a.targets.map((t) => t.spec)).toEqual(['sim:dbbench?seed=1', 'sim:dbbench?seed=2&faults=backticks:0.9,early_commit:0.5']);
    expect(a.cells).toHaveLength(2);
    // dev #5 cannot be set up: left out of the column for every target, so the cells stay matched.
    expect(a.excludedTasks.map((t) => t.task)).toEqual([5]);
    const tasks = [0, 1, 2, 3, 4];
    for (const [i, cell] of a.cells.entries()) {
      expect(cell.dir).toBe(path.join('cells', 'dbbench', `t${i + 1}`));
      expect(cell.counts.tasks).toBe(5);
      const fromRecords = passesFromRecords(path.join(out, cell.dir), tasks);
      expect([cell.counts.baselinePass, cell.counts.patchedPass]).toEqual([fromRecords.baseline, fromRecords.patched]);
      expect(cell.counts.paired.delta).toBeCloseTo((fromRecords.patched - fromRecords.baseline) / 5, 12);
      expect(cell.counts.paired.mcnemar).toMatchObject({ b: cell.counts.rescued, c: cell.counts.regressed });
      expect(cell.direction).toBe(fromRecords.patched > fromRecords.baseline ? 'improved' : fromRecords.patched < fromRecords.baseline ? 'regressed' : 'unchanged');
    }
    // The two targets differ: their own baselines are not the same.
    expect(a.cells[0]!.counts.baselinePass).not.toBe(a.cells[1]!.counts.baselinePass);
    expect(a.overall.improved + a.overall.unchanged + a.overall.regressed).toBe(2);
    // Cost: every episode line recorded, and a symbolic engineer that calls no model.
    const episodeFiles = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? episodeFiles(path.join(dir, e.name)) : e.name === 'episodes.jsonl' ? [path.join(dir, e.name)] : []));
    const all = episodeFiles(out).flatMap(lines);
    expect(a.cost.target.items).toBe(all.length);
    expect(a.cost.target.modelCalls).toBe(all.reduce((s, l) => s + l.usage.modelCalls, 0));
    expect(a.cost.engineer.modelCalls).toBe(0);
    expect(existsSync(path.join(out, 'transfer.json'))).toBe(true);

    const again = await runCli(args);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/: engineer/);
    expect(again.stdout).toMatch(/SIMULATED TARGET · SYMBOLIC ENGINEER/);
    expect(again.stdout).toMatch(/^sim:dbbench\?seed=1 +[+−]\d+\.\d \(\d→\d\/5\) +[+−]\d+\.\d$/m);
    expect(again.stdout).toMatch(/cells: 2; improved \d, unchanged \d, regressed \d/);
    expect(again.stdout).toMatch(/McNemar p=/);
    const { runDir: _r, summary: _s, ...stored } = JSON.parse(r.stdout) as TransferArtifact & { runDir: string; summary: string };
    expect(JSON.parse(readFileSync(path.join(out, 'transfer.json'), 'utf8'))).toEqual(stored);

    const other = await runCli([...args.slice(0, -2), '--batch-size', '2', '--out', out]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/holds another experiment.*batchSize/);
  }, 600_000);

  it.each([
    [['--targets', 'sim:dbbench,sim:dbbench'], /--targets must be distinct SPECs/],
    [['--targets', 'sim:dbbench', '--goal-seed', '3'], /applies to none of dbbench/],
  ])('exits 2 for %j', async (extra, message) => {
    const r = await runCli(['experiment', 'transfer', '--bench', 'dbbench', '--tasks', '0:2', '--out', path.join(root, `bad-${extra.length}`), ...extra]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  }, 120_000);
});
