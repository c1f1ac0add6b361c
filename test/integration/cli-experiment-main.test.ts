import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import type { MainArtifact } from '../../src/experiments/main-table/main-summary.js';
import { startFakeOpenAIServer } from '../../src/models/fake-openai-server.js';
import { PROJECT_ROOT, runCli } from './cli-helpers.js';

const root = mkdtempSync(path.join(tmpdir(), 'harness-main-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const dataDir = process.env.HARNESS_DATA_DIR ?? path.join(PROJECT_ROOT, '..', 'shared', 'data');
const shipped = path.join(dataDir, 'patches', 'heldout_generalization', 'harness-r1', 'seed20260720', 'dbbench.json');

interface Line { task: { index: number }; reward: number; outcome: string }
const lastPerTask = (file: string) => new Map(readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line).map((l) => [l.task.index, l]));

describe('harness-r1 experiment main (real CLI process, simulated target, real sandbox)', () => {
  it('default harness, the symbolic engineer and an LLM engineer over real HTTP: rows match the run stores, the LLM engineer\'s cost is counted', async () => {
    const server = await startFakeOpenAIServer(() => ({ kind: 'text', content: `Recurring failures.\n</think>\n<patch>${readFileSync(shipped, 'utf8')}</patch>`, usage: { promptTokens: 1000, completionTokens: 200 } }));
    try {
      const out = path.join(root, 'dbbench');
      const engineers = `symbolic,openai:${server.url}#fake-engineer`;
      const args = ['experiment', 'main', '--benches', 'dbbench', '--split', 'dev', '--tasks', '0:6', '--batch-size', '3', '--targets', 'sim:any?seed=3', '--engineers', engineers, '--resamples', '300', '--out', out];
      const r = await runCli([...args, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const a = JSON.parse(r.stdout) as MainArtifact;
      expect(a.labels).toEqual(['simulated target', 'symbolic engineer']);
      expect(a.rows.map((row) => row.row)).toEqual(['default', 'e1', 'e2']);
      expect(a.rows[0]!.cells[0]!.excludedTasks).toEqual([5]);

      // The default row is the baseline's records; each engineer row its reruns where the patch was valid.
      const baseline = lastPerTask(path.join(out, 'cells', 'dbbench', 't1', 'baseline', 'episodes.jsonl'));
      const tasks = [0, 1, 2, 3, 4];
      expect(a.rows[0]!.cells[0]!.success).toBeCloseTo(tasks.filter((t) => baseline.get(t)!.reward >= 1).length / 5, 12);
      for (const row of a.rows.slice(1)) {
        const cell = row.cells[0]!;
        const patched = new Map([...baseline].map(([t, x]) => [t, x.reward]));
        for (const b of cell.batches) {
          const result = JSON.parse(readFileSync(path.join(out, cell.dir, 'batches', b.tag, 'result.json'), 'utf8')) as { rerun: { cacheKey: string } | null; validPatch: boolean };
          if (result.rerun && result.validPatch) for (const [t, x] of lastPerTask(path.join(out, cell.dir, 'reruns', result.rerun.cacheKey, 'episodes.jsonl'))) patched.set(t, x.reward);
        }
        const passes = tasks.filter((t) => patched.get(t)! >= 1).length;
        expect(cell.success).toBeCloseTo(passes / 5, 12);
        expect(row.avgDelta).toBeCloseTo(cell.success - a.rows[0]!.cells[0]!.success, 12);
        expect(cell.vsDefault!.success.delta).toBeCloseTo(row.avgDelta!, 12);
      }
      // The LLM engineer's batches all carry the shipped patch; its cost is what the server counted.
      expect(a.rows[2]!.cells[0]!.batches.every((b) => b.validPatch)).toBe(true);
      const asked = server.requests.filter((q) => q.path.endsWith('/chat/completions')).length;
      expect(asked).toBe(a.rows[2]!.cells[0]!.batches.filter((b) => b.status !== 'no_failures').length);
      expect(a.cost.engineer).toMatchObject({ modelCalls: asked, promptTokens: 1000 * asked, completionTokens: 200 * asked });

      const again = await runCli(args);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/^Target +Harness +DBBench Succ\. +Avg\.$/m);
      expect(again.stdout).toMatch(/^sim:any\?seed=3 +Default harness \(no patch\) +\d+\.\d +\d+\.\d$/m);
      expect(again.stdout).toMatch(/^sim:any\?seed=3 +\+ openai:\S+ +\d+\.\d \([+−]\d+\.\d\) +\d+\.\d \([+−]\d+\.\d\)$/m);
      expect(again.stdout).toMatch(/· dbbench: [+−]\d+\.\d pp \[95% CI .*McNemar p=/);
      expect(again.stdout).toMatch(new RegExp(`engineer ${asked} model call\\(s\\), ${(1000 * asked).toLocaleString('en-US')} prompt`));
      // Resumed: the engineer server is not asked again.
      expect(server.requests.filter((q) => q.path.endsWith('/chat/completions')).length).toBe(asked);
    } finally {
      await server.close();
    }
  }, 600_000);

  it('strategy rows: each strategy played with no patch on the same tasks, paired on success@1, Reflection\'s success@2 in its own column, cost per row', async () => {
    const out = path.join(root, 'strategies');
    const args = ['experiment', 'main', '--benches', 'dbbench', '--split', 'dev', '--tasks', '0:6', '--batch-size', '3', '--targets', 'sim:any?seed=3', '--strategies', 'react,self_refine,reflection,trajectory_reflection', '--hook-timeout-ms', '1000', '--resamples', '300', '--out', out];
    const r = await runCli([...args, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const a = JSON.parse(r.stdout) as MainArtifact;
    expect(a.labels).toEqual(['simulated target', 'symbolic engineer']);
    expect(a.rows.map((row) => [row.row, row.strategy ?? null, row.engineer ?? null])).toEqual([
      ['default', null, null], ['react', 'react', null], ['self_refine', 'self_refine', null], ['reflection', 'reflection', null], ['trajectory_reflection', 'trajectory_reflection', null], ['e1', null, 'symbolic'],
    ]);
    const base = a.rows[0]!.cells[0]!;
    const tasks = [0, 1, 2, 3, 4];
    for (const row of a.rows.slice(1, 5)) {
      const cell = row.cells[0]!;
      expect(cell.dir).toBe(path.join('cells', 'dbbench', 't1', row.row));
      const manifest = JSON.parse(readFileSync(path.join(out, cell.dir, 'run.json'), 'utf8')) as { options: { strategy?: string }; patch: unknown };
      expect(manifest.options.strategy).toBe(row.strategy);
      expect(manifest.patch).toBeNull();
      // The row's success is its own first episodes on the tasks the default row scores.
      const played = lastPerTask(path.join(out, cell.dir, 'episodes.jsonl'));
      expect(cell.tasks).toBe(base.tasks);
      expect(cell.success).toBeCloseTo(tasks.filter((t) => played.get(t)!.reward >= 1).length / 5, 12);
      expect(cell.vsDefault!.success.delta).toBeCloseTo(cell.success - base.success, 12);
      expect(cell.batches).toEqual([]);
      expect(cell.cost!.target.items).toBe(6);
      expect(cell.cost!.engineer.items).toBe(0);
    }
    // Self-Refine makes two or three calls per turn, trajectory reflection two: their rows cost more target calls than the default's.
    expect(a.rows[2]!.cells[0]!.cost!.target.modelCalls).toBeGreaterThan(base.cost!.target.modelCalls);
    expect(a.rows[4]!.cells[0]!.cost!.target.modelCalls).toBeGreaterThan(base.cost!.target.modelCalls);
    const reflection = a.rows[3]!;
    const at2 = reflection.cells[0]!.successAt2!;
    expect(at2.tasks).toBe(5);
    expect(at2.success1 / at2.tasks).toBeCloseTo(reflection.cells[0]!.success, 12);
    expect(at2.success2).toBe(at2.success1 + at2.rescued);
    expect(reflection.avgAt2).toBeCloseTo(at2.successAt2, 12);
    for (const row of a.rows.filter((x) => x.strategy !== 'reflection')) expect(row.avgAt2).toBeUndefined();
    // The experiment's cost includes every strategy row's episodes (and Reflection's second ones).
    const rowCalls = a.rows.reduce((sum, row) => sum + row.cells[0]!.cost!.target.modelCalls, 0);
    expect(a.cost.target.modelCalls).toBe(rowCalls);

    const again = await runCli(args);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^sim:any\?seed=3 +Self-Refine \(strategy, no patch\) +\d+\.\d \([+−]\d+\.\d\) +\d+\.\d \([+−]\d+\.\d\)$/m);
    expect(again.stdout).toMatch(/· ReAct \(strategy, no patch\) · dbbench: [+−]\d+\.\d pp \[95% CI .*McNemar p=.*\(strategy react, success@1, no patch\)/);
    const [table, apart] = again.stdout.split(/^success@2 \(Reflection only/m);
    expect(table).not.toMatch(/@2/);
    expect(apart).toMatch(/^sim:any\?seed=3 +Reflection \(strategy, no patch; success@1\) +\d+\.\d \(\d\/5; \d\/\d rescued\) +\d+\.\d$/m);
    expect(again.stdout).toMatch(/SIMULATED TARGET · SYMBOLIC ENGINEER/);
    // Another list of strategies is another experiment: refused, naming it.
    const other = await runCli(args.map((x) => (x === 'react,self_refine,reflection,trajectory_reflection' ? 'react' : x)));
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/strategies: \["react","self_refine","reflection","trajectory_reflection"\] → \["react"\]/);
  }, 600_000);
});
