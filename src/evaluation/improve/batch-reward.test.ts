import { describe, expect, it } from 'vitest';

import { computeBatchReward, REWARD_METRICS } from './batch-reward.js';
import { makeBatches } from './batches.js';
import { canonicalJson, RERUN_CACHE_PROTOCOL, rerunCacheKey } from './rerun-cache-key.js';

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

describe('reward edge cases', () => {
  it('scores delta_pass_rate by default, also when the average moves differently', () => {
    // Shaped rewards: one more pass (+0.5 of 2 tasks), average up by only 0.25.
    const r = computeBatchReward({ baseline: new Map([[0, 0.5], [1, 1]]), patched: new Map([[0, 1], [1, 1]]) });
    expect([r.metric, r.deltaPassRate, r.deltaAverageReward, r.score]).toEqual(['delta_pass_rate', 0.5, 0.25, 0.5]);
    expect(computeBatchReward({ baseline: new Map([[0, 0.5], [1, 1]]), patched: new Map([[0, 1], [1, 1]]), metric: 'delta_pass_rate' }).score).toBe(0.5);
    expect(REWARD_METRICS).toEqual(['delta_pass_rate', 'delta_average_reward']);
  });

  it('gives 0, not NaN, for an empty batch, and lists flips in task order', () => {
    const empty = computeBatchReward({ baseline: new Map(), patched: new Map() });
    expect([empty.baselineAverage, empty.patchedAverage, empty.deltaPassRate, empty.deltaAverageReward]).toEqual([0, 0, 0, 0]);
    const r = computeBatchReward({ baseline: new Map([[9, 0], [3, 1], [5, 0], [1, 1]]), patched: new Map([[9, 1], [3, 0], [5, 1], [1, 0]]) });
    expect([r.rescued, r.regressed]).toEqual([[5, 9], [1, 3]]);
  });
});

describe('batch cutting errors', () => {
  it('names the bad option, accepts a limit of 1 and makes no empty last batch', () => {
    expect(() => makeBatches([1], 1.5)).toThrow(expect.objectContaining({ field: 'batchSize', message: '--batch-size must be a positive integer, got 1.5.' }));
    expect(() => makeBatches([1], 1, 0)).toThrow(expect.objectContaining({ field: 'batches', message: '--batches must be a positive integer, got 0.' }));
    expect(() => makeBatches([1], 1, 1.5)).toThrow(/--batches must be a positive integer, got 1\.5\./);
    expect(makeBatches([1, 2, 3], 1, 1)).toEqual([{ tag: 'batch_000', taskIndices: [1] }]);
    expect(makeBatches([1, 2], 2)).toHaveLength(1);
  });
});

// sha1 of '{"batchTag":"batch_000","context":{"target":"sim:dbbench"},"patch":{"a":1},"protocol":"harness-r1-dbbench-codepatch-rerun-v1","taskIndices":[0,1]}',
// computed apart with node:crypto.
const GOLDEN_KEY = 'e1e0a686dc75664c';

describe('rerun cache key, pinned', () => {
  // The key names the rerun directory of every stored run: it must not change by accident.
  it('is the first 16 hex digits of sha1 over the canonical JSON with the protocol', () => {
    expect(RERUN_CACHE_PROTOCOL).toBe('harness-r1-dbbench-codepatch-rerun-v1');
    expect(rerunCacheKey({ batchTag: 'batch_000', taskIndices: [0, 1], patch: { a: 1 }, context: { target: 'sim:dbbench' } })).toBe(GOLDEN_KEY);
  });

  it('writes canonical JSON for nulls, undefined fields, arrays and many keys', () => {
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson({ a: null, b: undefined, c: [1, 2], d: [12] })).toBe('{"a":null,"c":[1,2],"d":[12]}');
    expect(canonicalJson({ e: 5, d: 4, c: 3, b: 2, a: 1, f: 6 })).toBe('{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}');
  });
});

