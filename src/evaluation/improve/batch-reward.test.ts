import { describe, expect, it } from 'vitest';

import { computeBatchReward } from './batch-reward.js';
import { makeBatches } from './batches.js';
import { canonicalJson, rerunCacheKey } from './rerun-cache-key.js';

describe('computeBatchReward (protocol.md §6.1)', () => {
  const baseline = new Map([[0, 1], [1, 0], [2, 0], [3, 1]]);

  it('computes both deltas and the flips against the stored baseline', () => {
    const r = computeBatchReward({ baseline, patched: new Map([[0, 1], [1, 1], [2, 1], [3, 0]]) });
    expect([r.baselinePass, r.patchedPass, r.deltaPassRate, r.deltaAverageReward]).toEqual([2, 3, 0.25, 0.25]);
    expect(r.rescued).toEqual([1, 2]);
    expect(r.regressed).toEqual([3]);
    expect(r.unchanged).toBe(1);
    expect(r.score).toBe(0.25);
  });

  it('uses the shaped reward for delta_average_reward and the threshold for passes', () => {
    const r = computeBatchReward({ baseline: new Map([[0, 0.5], [1, 1]]), patched: new Map([[0, 0.75], [1, 1]]), metric: 'delta_average_reward', threshold: 0.7 });
    expect(r.deltaAverageReward).toBeCloseTo(0.125);
    expect(r.deltaPassRate).toBe(0.5);
    expect(r.score).toBeCloseTo(0.125);
  });
});

describe('batches and the rerun cache key', () => {
  it('cuts tasks into tagged batches', () => {
    expect(makeBatches([5, 6, 7, 8, 9], 2).map((b) => [b.tag, b.taskIndices])).toEqual([
      ['batch_000', [5, 6]],
      ['batch_001', [7, 8]],
      ['batch_002', [9]],
    ]);
    expect(makeBatches([1, 2, 3], 1, 2)).toHaveLength(2);
    expect(() => makeBatches([1], 0)).toThrow(/--batch-size/);
  });

  it('is the same for the same patch whatever the key order, and differs when semantics differ', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] })).toBe('{"a":[{"c":2,"d":1}],"b":1}');
    const key = (patch: unknown, target = 'sim:dbbench') => rerunCacheKey({ batchTag: 'batch_000', taskIndices: [0, 1], patch, context: { target } });
    expect(key({ x: 1, y: 2 })).toBe(key({ y: 2, x: 1 }));
    expect(key({ x: 1 })).not.toBe(key({ x: 2 }));
    expect(key({ x: 1 })).not.toBe(key({ x: 1 }, 'openai:http://h/v1#m'));
  });
});
