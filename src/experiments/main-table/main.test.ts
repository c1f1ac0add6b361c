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

  it('puts one row per baseline strategy between the default harness and the engineers', () => {
    expect(mainRows(['symbolic'], ['react', 'reflection']).map((r) => [r.id, r.strategy, r.engineer])).toEqual([
      ['default', undefined, undefined], ['react', 'react', undefined], ['reflection', 'reflection', undefined], ['e1', undefined, 'symbolic'],
    ]);
  });
});

describe('summarizeMain with strategy rows', () => {
  const rows = mainRows([], ['react', 'reflection']);
  const zero = { modelCalls: 0, promptTokens: 0, completionTokens: 0, items: 0 };
  const cost = (calls: number) => ({ target: { modelCalls: calls, promptTokens: 10 * calls, completionTokens: calls, items: 4 }, engineer: zero });
  // Reflection: success@1 is its first episodes (tasks 0 and 3); success@2 adds task 1, rescued by the second episode.
  const at2 = { tasks: 4, success1: 2, success2: 3, successAt1: 0.5, successAt2: 0.75, retried: 2, rescued: 1, reflectionErrors: 0, retryInfra: 0 };
  const a = summarizeMain({
    benches: [{ name: 'db', split: 'dev', columns: { success: 'DB Succ.' }, metric: 'delta_pass_rate', threshold: 1 }],
    targets: [{ spec: 'sim:db', label: 'sim', simulated: true }],
    rows,
    engineers: [],
    batchSize: 2,
    blocks: [{ bench: 'db', target: 'sim:db', tasks: [0, 1, 2, 3].map((t) => ({ task: t, family: '', baseline: t === 0 ? 1 : 0 })), excludedTasks: [], rows: [
      { row: 'default', rewards: new Map([[0, 1], [1, 0], [2, 0], [3, 0]]), batches: [], dir: 'c/t1', cost: cost(8) },
      { row: 'react', rewards: new Map([[0, 1], [1, 1], [2, 1], [3, 0]]), batches: [], dir: 'c/t1/react', cost: cost(8) },
      { row: 'reflection', rewards: new Map([[0, 1], [1, 0], [2, 0], [3, 1]]), batches: [], dir: 'c/t1/reflection', successAt2: at2, cost: cost(15) },
    ] }],
    cost: { target: zero, engineer: zero },
    bootstrap: { resamples: 200 },
  });

  it('pairs every strategy row with the default harness on success@1; Reflection\'s success@2 stays apart', () => {
    const [, react, reflection] = a.rows;
    expect(react!.strategy).toBe('react');
    expect(react!.cells[0]!.success).toBe(0.75);
    expect(react!.avgDelta).toBe(0.5);
    expect(react!.cells[0]!.vsDefault!.success.mcnemar).toEqual(mcnemarExact(2, 0));
    expect(react!.cells[0]!.successAt2).toBeUndefined();
    expect(react!.avgAt2).toBeUndefined();
    // The reflection row's table figure and its paired change are success@1 (first episodes) only.
    expect(reflection!.cells[0]!.success).toBe(0.5);
    expect(reflection!.avgDelta).toBe(0.25);
    expect(reflection!.cells[0]!.vsDefault!.rescued).toBe(1);
    expect(reflection!.cells[0]!.successAt2).toEqual(at2);
    expect(reflection!.avgAt2).toBe(0.75);
    expect(reflection!.cells[0]!.cost!.target.modelCalls).toBe(15);
  });

  it('renders success@2 in a table of its own after the paired statistics, and each row\'s cost', () => {
    const text = renderMainTable(a);
    const [main, apart] = text.split(/^success@2 \(Reflection only/m);
    expect(apart).toBeDefined();
    expect(text).toMatch(/^main table: db\/dev; 1 target\(s\); engineers patch batches of 2; baseline strategies \(no patch\) react, reflection \[SIMULATED TARGET/m);
    expect(main).not.toMatch(/@2/);
    expect(main).toMatch(/^sim:db +Reflection \(strategy, no patch; success@1\) +50\.0 \(\+25\.0\) +50\.0 \(\+25\.0\)$/m);
    expect(main).toMatch(/sim:db · ReAct \(strategy, no patch\) · db: \+50\.0 pp .*\(strategy react, success@1, no patch\)/);
    expect(apart).toMatch(/^sim:db +Reflection \(strategy, no patch; success@1\) +75\.0 \(3\/4; 1\/2 rescued\) +75\.0$/m);
    expect(apart).toMatch(/^ +sim:db · Reflection .* · db: target 15 call\(s\), 165 tokens \(4 episodes\)$/m);
  });
});
