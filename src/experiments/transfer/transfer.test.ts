import { describe, expect, it } from 'vitest';

import { mcnemarExact } from '../../statistics/index.js';
import { renderTransferAt2, renderTransferSummary } from './render-transfer.js';
import { summarizeTransfer, type TransferCellInput } from './transfer-summary.js';

const pairs = (baseline: number[], patched: number[]) => baseline.map((b, i) => ({ task: i, baseline: b, patched: patched[i]! }));
const cell = (bench: string, target: string, baseline: number[], patched: number[]): TransferCellInput => ({ bench, target, pairs: pairs(baseline, patched), batches: [{ tag: 'batch_000', status: 'scored', validPatch: true }], dir: `cells/${bench}/${target}` });

describe('summarizeTransfer', () => {
  // Two targets × two benchmarks: A improves on x (+2 of 4) and is unchanged on y; B regresses on x (−1) and improves on y (+1 of 4).
  const a = summarizeTransfer({
    benches: [
      { name: 'x', split: 'dev', column: 'X Succ.', metric: 'delta_pass_rate', threshold: 1 },
      { name: 'y', split: 'dev', column: 'Y Succ.', metric: 'delta_average_reward', threshold: 1 },
    ],
    targets: [{ spec: 'A', label: 'a', simulated: true }, { spec: 'B', label: 'b', simulated: false }],
    engineer: { label: 'sym', symbolic: true },
    batchSize: 4,
    cells: [
      cell('x', 'A', [1, 0, 0, 0], [1, 1, 1, 0]),
      cell('y', 'A', [1, 0.5, 0, 0], [1, 0.7, 0, 0]),
      cell('x', 'B', [1, 1, 0, 0], [1, 0, 0, 0]),
      cell('y', 'B', [0, 0, 0, 0.2], [1, 0, 0, 0.2]),
    ],
    excludedTasks: [],
    cost: { target: { modelCalls: 1, promptTokens: 2, completionTokens: 3, items: 4 }, engineer: { modelCalls: 0, promptTokens: 0, completionTokens: 0, items: 4 } },
    bootstrap: { resamples: 200 },
  });
  const of = (t: string, b: string) => a.cells.find((c) => c.target === t && c.bench === b)!;

  it('gives every cell its paired statistics and direction, and counts the directions over cells', () => {
    expect(of('A', 'x').counts).toMatchObject({ tasks: 4, baselinePass: 1, patchedPass: 3, rescued: 2, regressed: 0 });
    expect(of('A', 'x').counts.paired.mcnemar).toEqual(mcnemarExact(2, 0));
    expect(of('A', 'x').direction).toBe('improved');
    expect(of('A', 'y').direction).toBe('unchanged');
    // The score benchmark also carries the mean-reward delta: (0.2 / 4).
    expect(of('A', 'y').counts.score!.delta).toBeCloseTo(0.05, 12);
    expect(of('B', 'x').direction).toBe('regressed');
    expect(a.overall).toMatchObject({ improved: 2, unchanged: 1, regressed: 1 });
    expect(a.overall.deltaRate.values).toEqual([0.5, 0, -0.25, 0.25]);
    expect(a.byTarget.map((t) => t.deltaRate.mean)).toEqual([0.25, 0]);
    expect(a.byBench.map((b) => b.deltaRate.mean)).toEqual([0.125, 0.125]);
    expect(a.labels).toEqual(['simulated target', 'symbolic engineer']);
  });

  it('renders the matrix with row and column averages, the counts and the label', () => {
    const text = renderTransferSummary(a);
    expect(text).toMatch(/SIMULATED TARGET · SYMBOLIC ENGINEER/);
    expect(text).toMatch(/^A +\+50\.0 \(1→3\/4\) +\+0\.0 \(1→1\/4\) +\+25\.0$/m);
    expect(text).toMatch(/^B +−25\.0 \(2→1\/4\) +\+25\.0 \(0→1\/4\) +\+0\.0$/m);
    expect(text).toMatch(/^Avg\. +\+12\.5 +\+12\.5 +\+12\.5$/m);
    expect(text).toMatch(/improved 2, unchanged 1, regressed 1/);
    expect(text).toMatch(/A × x: \+50\.0 pp \[95% CI .*McNemar p=0\.500 \(b=2, c=0\)/);
    expect(text).toMatch(/cost: target 1 model call\(s\), 2 prompt \+ 3 completion tokens \(4 episodes\)/);
  });

  it('Reflection: a cell\'s success@2 passes through on its own, below the matrix, and changes no success@1 figure', () => {
    const at2 = (success2: number) => ({ tasks: 4, success1: 1, success2, successAt1: 0.25, successAt2: success2 / 4, retried: 3, rescued: success2 - 1, reflectionErrors: 0, retryInfra: 0 });
    const input = {
      benches: [{ name: 'x', split: 'dev', column: 'X Succ.', metric: 'delta_pass_rate' as const, threshold: 1 }],
      targets: [{ spec: 'A', label: 'a', simulated: true }],
      engineer: { label: 'sym', symbolic: true },
      batchSize: 4,
      excludedTasks: [],
      cost: { target: { modelCalls: 0, promptTokens: 0, completionTokens: 0, items: 0 }, engineer: { modelCalls: 0, promptTokens: 0, completionTokens: 0, items: 0 } },
      bootstrap: { resamples: 200 },
    };
    const plain = summarizeTransfer({ ...input, cells: [cell('x', 'A', [1, 0, 0, 0], [1, 1, 0, 0])] });
    const withAt2 = summarizeTransfer({ ...input, strategy: 'reflection', cells: [{ ...cell('x', 'A', [1, 0, 0, 0], [1, 1, 0, 0]), successAt2: { baseline: at2(2), patched: at2(3) } }] });
    expect(withAt2.targetStrategy).toBe('reflection');
    expect(withAt2.cells[0]!.successAt2).toEqual({ baseline: at2(2), patched: at2(3) });
    expect(withAt2.cells[0]!.counts).toEqual(plain.cells[0]!.counts);
    expect(withAt2.overall).toEqual(plain.overall);
    expect(renderTransferAt2(plain)).toEqual([]);
    expect(renderTransferSummary(plain)).not.toContain('success@2');
    const text = renderTransferSummary(withAt2);
    expect(text).toContain('  A × x: success@2 baseline 2/4 (50.0%; 1/3 rescued by the second episode) → with its patches 3/4 (75.0%; 2/3 rescued by the second episode)');
    // Below the paired statistics of the success@1 matrix, never in its table.
    expect(text.indexOf('reflection: success@2')).toBeGreaterThan(text.indexOf('paired statistics per cell:'));
  });
});
