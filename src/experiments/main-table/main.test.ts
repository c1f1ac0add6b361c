import { describe, expect, it } from 'vitest';

import { mcnemarExact } from '../../statistics/index.js';
import { summarizeMain } from './main-summary.js';
import { renderMainTable } from './render-main.js';
import { mainRows } from './run-main.js';

describe('summarizeMain', () => {
  const rows = mainRows(['symbolic']);
  const tasks = (families: string[], baseline: number[]) => baseline.map((b, i) => ({ task: i, family: families[i] ?? '', baseline: b }));
  const zero = { modelCalls: 0, promptTokens: 0, completionTokens: 0, items: 0 };
  const a = summarizeMain({
    benches: [
      { name: 'shop', split: 's', columns: { success: 'Shop Succ.', score: 'Shop Score' }, metric: 'delta_average_reward', threshold: 1 },
      { name: 'world', split: 'dev', columns: { success: 'World All' }, metric: 'delta_pass_rate', threshold: 1 },
    ],
    targets: [{ spec: 'T', label: 't', simulated: true }],
    rows,
    engineers: [{ spec: 'symbolic', label: 'sym', symbolic: true }],
    batchSize: 2,
    blocks: [
      { bench: 'shop', target: 'T', tasks: tasks([], [1, 0.5]), excludedTasks: [], rows: [
        { row: 'default', rewards: new Map([[0, 1], [1, 0.5]]), batches: [], dir: 'a' },
        { row: 'e1', rewards: new Map([[0, 1], [1, 1]]), batches: [{ tag: 'batch_000', status: 'scored', validPatch: true }], dir: 'b' },
      ] },
      { bench: 'world', target: 'T', tasks: tasks(['put', 'put', 'heat', 'heat'], [1, 0, 0, 1]), excludedTasks: [9], rows: [
        { row: 'default', rewards: new Map([[0, 1], [1, 0], [2, 0], [3, 1]]), batches: [], dir: 'c' },
        { row: 'e1', rewards: new Map([[0, 1], [1, 1], [2, 0], [3, 0]]), batches: [{ tag: 'batch_000', status: 'scored', validPatch: true }], dir: 'd' },
      ] },
    ],
    cost: { target: zero, engineer: zero },
    bootstrap: { resamples: 200 },
  });

  it('gives Score, families, success and the equal-weight Avg. of the success columns, each engineer paired with the default', () => {
    const [base, eng] = a.rows;
    expect(base!.cells.map((c) => [c.success, c.score])).toEqual([[0.5, 0.75], [0.5, undefined]]);
    expect(base!.cells[1]!.families).toEqual([{ family: 'heat', tasks: 2, success: 0.5 }, { family: 'put', tasks: 2, success: 0.5 }]);
    expect(base!.avg).toBe(0.5);
    expect(base!.avgDelta).toBeUndefined();
    expect(eng!.cells[1]!.families).toEqual([{ family: 'heat', tasks: 2, success: 0 }, { family: 'put', tasks: 2, success: 1 }]);
    expect(eng!.avg).toBe(0.75);
    expect(eng!.avgDelta).toBe(0.25);
    expect(eng!.cells[1]!.vsDefault!.success.mcnemar).toEqual(mcnemarExact(1, 1));
    expect(eng!.cells[0]!.vsDefault!.score!.delta).toBeCloseTo(0.25, 12);
  });

  it('renders Table 1\'s layout with the change vs the default in brackets', () => {
    const text = renderMainTable(a);
    expect(text).toMatch(/^Target +Harness +Shop Score +Shop Succ\. +heat +put +World All +Avg\.$/m);
    expect(text).toMatch(/^T +Default harness \(no patch\) +75\.0 +50\.0 +50\.0 +50\.0 +50\.0 +50\.0$/m);
    expect(text).toMatch(/^T +\+ symbolic +100\.0 \(\+25\.0\) +100\.0 \(\+50\.0\) +0\.0 \(−50\.0\) +100\.0 \(\+50\.0\) +50\.0 \(\+0\.0\) +75\.0 \(\+25\.0\)$/m);
    expect(text).toMatch(/T · \+ symbolic · world: \+0\.0 pp .*McNemar p=1\.000 \(b=1, c=1\)/);
    expect(text).toMatch(/left out .*T world #9/);
    expect(text).toMatch(/SIMULATED TARGET · SYMBOLIC ENGINEER/);
  });

  it('builds its rows from a list: the default harness first, then one per engineer', () => {
    expect(mainRows(['symbolic', 'openai:http://h/v1#m'])).toEqual([
      { id: 'default', label: 'Default harness (no patch)' },
      { id: 'e1', label: '+ symbolic', engineer: 'symbolic' },
      { id: 'e2', label: '+ openai:http://h/v1#m', engineer: 'openai:http://h/v1#m' },
    ]);
  });
});
