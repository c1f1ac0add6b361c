import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { PROJECT_ROOT, resolveDataDir } from '../config/data-dir.js';
import { allocateLargestRemainder, PARTITIONS, type PartitionName, type SplitManifest, type SplitTask } from '../task-splits/index.js';
import { benchSplitFiles as splitFiles, buildBenchSplits as buildSplits } from '../testing/paper-splits.js';

// The builder against an independent CPython implementation of the same procedure
// (test/fixtures/splits/make_golden.py) on the shipped data: counts, first identities and a digest of
// every partition's ordered (identity, content hash) list.
interface Summary {
  count: number;
  first: string[];
  digest: string;
}
type Reference = Record<PartitionName, Summary> & Record<string, unknown>;
const golden = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'test/fixtures/splits/python-golden.json'), 'utf8')) as {
  reference: { webshop: Reference; alfworld: Reference; dbbench: Reference };
  alfworldTestSetFile: { chars: number; sha256: string };
};
const dataDir = resolveDataDir();

function summarize(tasks: readonly SplitTask[], withHashes: boolean): Summary {
  const lines = tasks.map((t) => `${t.id}\t${withHashes ? (t.sha256 ?? '-') : '-'}`);
  return { count: tasks.length, first: tasks.slice(0, 3).map((t) => t.id), digest: createHash('sha256').update(lines.join('\n'), 'utf8').digest('hex') };
}

function expectMatchesReference(manifest: SplitManifest, reference: Reference, withHashes: boolean): void {
  for (const p of PARTITIONS) expect(summarize(manifest.partitions[p].tasks, withHashes), p).toEqual(reference[p]);
}

describe('split procedures match the CPython reference on the shipped data', () => {
  it('webshop: 500 test goals, 641 pool batches halved, 10 validation batches', () => {
    const m = buildSplits({ bench: 'webshop', dataDir });
    // The Python reference has no WebShop goal builder, so it compares identities only.
    expectMatchesReference(m, golden.reference.webshop, false);
    expect(m.counts.pool).toBe(golden.reference.webshop.pool);
    expect(m.partitions.validation.batches).toHaveLength(10);
    for (const p of ['validation', 'sft_train', 'rl_train'] as const) {
      const { batches, tasks } = m.partitions[p];
      expect(batches!.every((b) => b.end - b.start === 10 && (b.start - 500) % 10 === 0)).toBe(true);
      expect(tasks.map((t) => t.id)).toEqual(batches!.flatMap((b) => Array.from({ length: 10 }, (_, k) => `synthetic:${b.start + k}`)));
    }
    expect(m.partitions.test.tasks.every((t) => /^[0-9a-f]{64}$/.test(t.sha256 ?? ''))).toBe(true);
  });

  it('alfworld: the test draw, the per-family halves and the 99 validation games', () => {
    const m = buildSplits({ bench: 'alfworld', dataDir });
    expectMatchesReference(m, golden.reference.alfworld, true);
    expect(Object.fromEntries(PARTITIONS.map((p) => [p, m.partitions[p].families]))).toEqual(golden.reference.alfworld.families);
  });

  it('dbbench: standard is test; dev shuffled into halves with a capped validation', () => {
    const m = buildSplits({ bench: 'dbbench', dataDir });
    expectMatchesReference(m, golden.reference.dbbench, true);
    expect([m.counts.pool, m.counts.excluded]).toEqual([golden.reference.dbbench.pool, golden.reference.dbbench.excluded]);
  });
});

describe('ALFWorld test set = the release data/alfworld/test_set.json', () => {
  const m = buildSplits({ bench: 'alfworld', dataDir });
  const ids = m.partitions.test.tasks.map((t) => t.id);

  it('has the entries the release lists at its start, middle and end', () => {
    // Facts read from DeepExperience/Harness-R1 data/alfworld/test_set.json (500 game paths, "mixed").
    expect(ids.slice(0, 2)).toEqual([
      'json_2.1.1/valid_unseen/pick_cool_then_place_in_recep-Pan-None-CounterTop-10/trial_T20190908_114656_768805',
      'json_2.1.1/train/pick_two_obj_and_place-KeyChain-None-Shelf-207/trial_T20190909_131732_113671',
    ]);
    expect(ids[9]).toBe('json_2.1.1/valid_unseen/pick_cool_then_place_in_recep-Lettuce-None-SinkBasin-10/trial_T20190907_040327_147149');
    expect(ids[133]).toBe('json_2.1.1/train/pick_and_place_simple-Pillow-None-ArmChair-321/trial_T20190908_104935_443304');
    expect(ids[266]).toBe('json_2.1.1/train/pick_two_obj_and_place-HandTowel-None-Toilet-412/trial_T20190907_011444_964972');
    expect(ids[499]).toBe('json_2.1.1/valid_unseen/pick_and_place_simple-SaltShaker-None-Cabinet-10/trial_T20190906_191429_743650');
    expect(ids.filter((id) => id.includes('/valid_unseen/'))).toHaveLength(109);
  });

  it('is written as test_set.json with the release file size (59,957 bytes) and the same bytes as CPython writes', () => {
    const file = splitFiles(m).find((f) => f.name === 'test_set.json')!;
    expect(Buffer.byteLength(file.content)).toBe(59957);
    expect(Buffer.byteLength(file.content)).toBe(golden.alfworldTestSetFile.chars);
    expect(createHash('sha256').update(file.content).digest('hex')).toBe(golden.alfworldTestSetFile.sha256);
  });
});

describe('ALFWorld stratification', () => {
  const m = buildSplits({ bench: 'alfworld', dataDir });
  const trainValid = { pick_and_place: 728, pick_clean_then_place: 581, pick_heat_then_place: 368, pick_cool_then_place: 468, look_at_obj: 191, pick_two_obj: 814 };
  const newStd = { pick_and_place: 9, pick_clean_then_place: 5, pick_heat_then_place: 27, pick_cool_then_place: 29, look_at_obj: 18, pick_two_obj: 21 };
  const fam = (p: PartitionName): Record<string, number> => m.partitions[p].families!;

  it('draws the 391 test games in proportion to the train_valid families', () => {
    const drawn = Object.fromEntries(Object.entries(fam('test')).map(([f, n]) => [f, n - newStd[f as keyof typeof newStd]]));
    expect(drawn).toEqual(Object.fromEntries(allocateLargestRemainder(new Map(Object.entries(trainValid)), 391)));
    for (const [f, n] of Object.entries(drawn)) expect(Math.abs(n - (391 * trainValid[f as keyof typeof trainValid]) / 3150)).toBeLessThan(1);
  });

  it('keeps every family in the same proportion in SFT, RL and validation (within one game)', () => {
    const pool = Object.fromEntries(Object.keys(trainValid).map((f) => [f, fam('sft_train')[f]! + fam('rl_train')[f]! + fam('validation')[f]!]));
    const poolTotal = Object.values(pool).reduce((a, b) => a + b, 0);
    expect(poolTotal).toBe(2759);
    for (const p of ['sft_train', 'validation'] as const) {
      const total = m.counts[p];
      for (const f of Object.keys(trainValid)) expect(Math.abs(fam(p)[f]! - (total * pool[f]!) / poolTotal), `${p} ${f}`).toBeLessThanOrEqual(1);
    }
    expect(Object.values(fam('validation')).reduce((a, b) => a + b, 0)).toBe(99);
    // Every family is present in every partition.
    for (const p of PARTITIONS) expect(Object.values(fam(p)).every((n) => n > 0), p).toBe(true);
  });

  it('labels every task with the family of its split-file entry', () => {
    for (const p of PARTITIONS) {
      for (const t of m.partitions[p].tasks) {
        const prefix = { pick_and_place: 'pick_and_place_simple', look_at_obj: 'look_at_obj_in_light', pick_two_obj: 'pick_two_obj_and_place' }[t.family!] ?? t.family!;
        expect(t.id.split('/')[2]!.startsWith(prefix), t.id).toBe(true);
      }
    }
  });
});
