import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { PROJECT_ROOT, runCli } from './cli-helpers.js';

const root = mkdtempSync(path.join(tmpdir(), 'harness-exp-strategy-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const dataDir = process.env.HARNESS_DATA_DIR ?? path.join(PROJECT_ROOT, '..', 'shared', 'data');

interface Rec { task: { index: number }; reward: number; detail: { strategyTurns?: unknown[]; reflection?: { retry?: unknown } } }
/** The counting record of every task of a run store (the last one written). */
const store = (dir: string): Map<number, Rec> => new Map(readFileSync(path.join(dir, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Rec).map((r) => [r.task.index, r]));
const json = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
const passes = (m: Map<number, Rec>, tasks: readonly number[]) => tasks.filter((t) => m.get(t)!.reward >= 1).length;
interface Counts { tasks: number; baselinePass: number; patchedPass: number }
interface StrategyJson { name: string; reward: string; successAt2?: { label: string; dir: string; success1: number; success2: number; tasks: number }[] }

describe('experiment heldout / ablation / transfer --strategy (real CLI process, simulated targets, symbolic engineer)', () => {
  it('heldout --strategy reflection: baseline and held-out rerun played with it, deltas on success@1 from the stores, success@2 apart; another strategy refused', async () => {
    const out = path.join(root, 'heldout');
    const args = ['experiment', 'heldout', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:10', '--target', 'sim:dbbench?seed=1', '--evidence', '2', '--seeds', '11', '--resamples', '200', '--hook-timeout-ms', '1000', '--out', out];
    const r = await runCli([...args, '--strategy', 'reflection', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const a = JSON.parse(r.stdout) as { strategy: StrategyJson; seeds: { seed: number; valid: boolean; evidenceTaskIds: number[]; heldOut: Counts }[] };
    expect(a.strategy).toMatchObject({ name: 'reflection', reward: 'success@1' });
    expect(json<{ settings: { strategy?: string } }>(path.join(out, 'experiment.json')).settings.strategy).toBe('reflection');
    expect(json<{ options: { strategy?: string } }>(path.join(out, 'baseline', 'run.json')).options.strategy).toBe('reflection');
    const baseline = store(path.join(out, 'baseline'));
    expect([...baseline.values()].some((x) => x.detail.reflection?.retry !== undefined)).toBe(true);
    const seed = a.seeds[0]!;
    const rerunDir = path.join(out, 'arms', 'seed11-heldout');
    const rerun = seed.valid ? store(rerunDir) : undefined;
    // The held-out tasks are the rerun's (a valid patch), else every scored task outside the evidence.
    const heldOut = rerun ? [...rerun.keys()] : [...baseline.keys()].filter((t) => !seed.evidenceTaskIds.includes(t));
    expect(heldOut.length).toBe(seed.heldOut.tasks);
    expect(seed.heldOut.baselinePass).toBe(passes(baseline, heldOut));
    if (rerun) {
      expect(json<{ options: { strategy?: string } }>(path.join(rerunDir, 'run.json')).options.strategy).toBe('reflection');
      expect(seed.heldOut.patchedPass).toBe(passes(rerun, heldOut));
    } else expect(seed.heldOut.patchedPass).toBe(seed.heldOut.baselinePass);
    const at2 = a.strategy.successAt2!;
    expect(at2[0]).toMatchObject({ label: 'baseline', success1: passes(baseline, [...baseline.keys()]) });
    expect(at2.length).toBe(existsSync(rerunDir) ? 2 : 1);

    const text = await runCli([...args, '--strategy', 'reflection']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.split('\n')[0]).toMatch(/^strategy: reflection \(the baseline and every rerun played with it/);
    expect(text.stdout).toMatch(/reflection: success@2 .*never paired or ranked/);
    const other = await runCli([...args, '--strategy', 'react']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/strategy.*reflection.*react/);
  }, 300_000);

  it('ablation --strategy react: every arm played with it, arm pass rates from the stores, another strategy refused', async () => {
    const out = path.join(root, 'ablation');
    const patch = path.join(dataDir, 'patches', 'heldout_generalization', 'harness-r1', 'seed20260721', 'webshop.json');
    const args = ['experiment', 'ablation', '--bench', 'webshop', '--tasks', '0:3', '--target', 'sim:webshop?seed=4', '--patch', patch, '--repeats', '1', '--resamples', '200', '--hook-timeout-ms', '1000', '--out', out];
    const r = await runCli([...args, '--strategy', 'react', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const a = JSON.parse(r.stdout) as { strategy: StrategyJson; tasks: number; rows: { arm: string; success: { values: number[] }; runs: string[] }[] };
    expect(a.strategy).toEqual({ name: 'react', reward: 'success@1' });
    for (const row of a.rows) {
      const dir = path.join(out, row.runs[0]!);
      const recs = store(dir);
      expect(json<{ options: { strategy?: string } }>(path.join(dir, 'run.json')).options.strategy).toBe('react');
      expect([...recs.values()].every((x) => (x.detail.strategyTurns?.length ?? 0) > 0)).toBe(true);
      expect(row.success.values[0]).toBeCloseTo(passes(recs, [...recs.keys()]) / a.tasks, 12);
    }
    const other = await runCli(args);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/strategy.*react/);
  }, 300_000);

  it('transfer --strategy self_refine: each cell played with it, deltas from the stores on success@1, another strategy refused', async () => {
    const out = path.join(root, 'transfer');
    const args = ['experiment', 'transfer', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:4', '--batch-size', '2', '--targets', 'sim:dbbench?seed=1', '--resamples', '200', '--hook-timeout-ms', '1000', '--out', out];
    const r = await runCli([...args, '--strategy', 'self_refine', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const a = JSON.parse(r.stdout) as { strategy: StrategyJson; cells: { dir: string; counts: Counts }[] };
    expect(a.strategy).toEqual({ name: 'self_refine', reward: 'success@1' });
    const cell = a.cells[0]!;
    const dir = path.join(out, cell.dir);
    const baseline = store(path.join(dir, 'baseline'));
    expect([...baseline.values()].every((x) => (x.detail.strategyTurns?.length ?? 0) > 0)).toBe(true);
    expect(cell.counts.baselinePass).toBe(passes(baseline, [...baseline.keys()]));
    let patchedPass = 0;
    for (const tag of ['batch_000', 'batch_001']) {
      const result = json<{ baseline: { rewards: Record<string, number> }; rerun?: { cacheKey: string } }>(path.join(dir, 'batches', tag, 'result.json'));
      const tasks = Object.keys(result.baseline.rewards).map(Number);
      if (!result.rerun) {
        patchedPass += passes(baseline, tasks);
        continue;
      }
      const rerunDir = path.join(dir, 'reruns', result.rerun.cacheKey);
      expect(json<{ options: { strategy?: string } }>(path.join(rerunDir, 'run.json')).options.strategy).toBe('self_refine');
      patchedPass += passes(store(rerunDir), tasks);
    }
    expect(cell.counts.patchedPass).toBe(patchedPass);
    const other = await runCli([...args, '--strategy', 'reflection']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/strategy.*self_refine.*reflection/);
  }, 300_000);
});
