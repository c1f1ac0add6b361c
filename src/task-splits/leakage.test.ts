import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../config/data-dir.js';
import { ConfigError, InternalError } from '../episode/index.js';
import { buildBenchSplits as buildSplits, SPLIT_BENCHMARKS } from '../testing/paper-splits.js';
import { assertNoLeakage, checkManifestDisjoint, findLeaks } from './leakage.js';
import { PARTITIONS, TRAINING_PARTITIONS } from './partitions.js';
import { partitionTasks, type SplitManifest } from './split-manifest.js';

const dataDir = resolveDataDir();
const dbbench = buildSplits({ bench: 'dbbench', dataDir });

function clone(m: SplitManifest): SplitManifest {
  return JSON.parse(JSON.stringify(m)) as SplitManifest;
}

describe('leakage check', () => {
  it('passes the training partitions of every shipped split, by identity and by content', () => {
    for (const bench of SPLIT_BENCHMARKS) {
      const m = bench === 'dbbench' ? dbbench : buildSplits({ bench, dataDir });
      expect(findLeaks(m, partitionTasks(m, TRAINING_PARTITIONS)), bench).toEqual([]);
      expect(() => assertNoLeakage(m, partitionTasks(m, TRAINING_PARTITIONS))).not.toThrow();
      const ids = PARTITIONS.flatMap((p) => m.partitions[p].tasks.map((t) => t.id));
      expect(new Set(ids).size, `${bench}: no task in two partitions`).toBe(ids.length);
    }
  });

  it('catches a planted test identity among training rows', () => {
    const rows = [...dbbench.partitions.rl_train.tasks.slice(0, 3).map((t) => t.id), 'standard:17'];
    expect(findLeaks(dbbench, rows)).toEqual([{ id: 'standard:17', heldOutId: 'standard:17', partition: 'test', matchedBy: 'identity' }]);
    let caught: unknown;
    try {
      assertNoLeakage(dbbench, rows, 'rl rows');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).field).toBe('split');
    expect((caught as ConfigError).message).toMatch(/1 dbbench task\(s\) in rl rows are held out.*standard:17 \(test\)/);
  });

  it('catches a validation task under another identity by its content hash', () => {
    const validation = dbbench.partitions.validation.tasks[0]!;
    const leaks = findLeaks(dbbench, [{ id: 'pool:9999', sha256: validation.sha256 }]);
    expect(leaks).toEqual([{ id: 'pool:9999', heldOutId: validation.id, partition: 'validation', matchedBy: 'content' }]);
    expect(() => assertNoLeakage(dbbench, [{ id: 'pool:9999', sha256: validation.sha256 }])).toThrow(/pool:9999 \(same content as validation task dev:/);
    // Without a hash only the identity can be compared, and a fresh identity passes.
    expect(findLeaks(dbbench, [{ id: 'pool:9999' }])).toEqual([]);
  });

  it('refuses a manifest whose training partition holds a held-out task', () => {
    const planted = clone(dbbench);
    planted.partitions.sft_train.tasks.push(planted.partitions.test.tasks[0]!);
    expect(() => checkManifestDisjoint(planted)).toThrow(InternalError);
    expect(() => checkManifestDisjoint(planted)).toThrow(/standard:0 in both test and sft_train/);

    const sameContent = clone(dbbench);
    sameContent.partitions.rl_train.tasks.push({ id: 'dev:999', sha256: sameContent.partitions.validation.tasks[0]!.sha256 });
    expect(() => checkManifestDisjoint(sameContent)).toThrow(/leaked held-out tasks into training: dev:999 \(same content as validation task/);
    expect(() => checkManifestDisjoint(dbbench)).not.toThrow();
  });
});
