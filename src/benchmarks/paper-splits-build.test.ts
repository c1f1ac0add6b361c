import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { PROJECT_ROOT, resolveDataDir } from '../config/data-dir.js';
import { ConfigError } from '../episode/index.js';
import { createTaskManifestBuilder } from '../environments/webshop/identity-manifest.js';
import { loadWebShopEngine } from '../environments/webshop/webshop-engine.js';
import { allocateLargestRemainder, findLeaks, loadSplitManifest, parseSplitManifest, partitionTasks, serializeSplitManifest, TRAINING_PARTITIONS, writeSplits } from '../task-splits/index.js';
import { benchSplitFiles, buildBenchSplits as buildSplits } from '../testing/paper-splits.js';

const dataDir = resolveDataDir();
const fixtures = path.join(PROJECT_ROOT, 'test/fixtures/splits');
const work = mkdtempSync(path.join(tmpdir(), 'harness-splits-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('determinism', () => {
  it('gives a byte-identical manifest (and files) for the same seed and data', () => {
    for (const bench of ['dbbench', 'alfworld'] as const) {
      const write = (dir: string): ReturnType<typeof writeSplits> => {
        const m = buildSplits({ bench, dataDir });
        return writeSplits(m, path.join(work, dir), benchSplitFiles(m).slice(1));
      };
      const a = write(`${bench}-a`);
      const b = write(`${bench}-b`);
      expect(a.map((f) => [path.basename(f.file), f.sha256])).toEqual(b.map((f) => [path.basename(f.file), f.sha256]));
      expect(readFileSync(a[0]!.file)).toEqual(readFileSync(b[0]!.file));
      expect(readdirSync(path.join(work, `${bench}-a`)).some((f) => f.includes('.tmp-'))).toBe(false);
    }
  });

  it('round-trips through the manifest reader', () => {
    const m = buildSplits({ bench: 'dbbench', dataDir });
    const file = writeSplits(m, path.join(work, 'roundtrip'))[0]!.file;
    expect(serializeSplitManifest(loadSplitManifest(file))).toBe(serializeSplitManifest(m));
    const bad = JSON.parse(readFileSync(file, 'utf8')) as { partitions: { test: { tasks: { sha256: string }[] } } };
    bad.partitions.test.tasks[3]!.sha256 = 'not-a-hash';
    expect(configError(() => parseSplitManifest(bad, 'x.json')).message).toMatch(/x\.json: not a split manifest \(partitions\.test\.tasks\.3\.sha256/);
  });
});

describe('task hashes', () => {
  it('webshop: each task hash is the identity manifest digest a run of that task records', () => {
    const m = buildSplits({ bench: 'webshop', dataDir });
    const manifestOf = createTaskManifestBuilder(loadWebShopEngine({ dataDir: path.join(dataDir, 'webshop'), goals: 'synthetic' }));
    const byId = new Map(partitionTasks(m, ['test', 'validation', 'sft_train', 'rl_train']).map((t) => [t.id, t.sha256]));
    for (const index of [0, 499, 500, 3333, 6909]) expect(byId.get(`synthetic:${index}`), `goal ${index}`).toBe(manifestOf(index).sha256);
  });
});

describe('user-supplied pools (--pool)', () => {
  it('dbbench: identities pool:<i>, duplicates of test or earlier pool tasks left out, content hashes as Python computes them', () => {
    // The fixture plus one exact copy of a shipped standard task (copied at test time, not stored).
    const standardLine = readFileSync(path.join(dataDir, 'dbbench/standard.jsonl'), 'utf8').split('\n')[4]!;
    const pool = path.join(work, 'dbbench-pool.jsonl');
    writeFileSync(pool, `${readFileSync(path.join(fixtures, 'dbbench-user-pool.jsonl'), 'utf8')}\n${standardLine}\n`);
    const m = buildSplits({ bench: 'dbbench', dataDir, pool });
    expect(m.pool.kind).toBe('user');
    expect(m.counts).toMatchObject({ pool: 13, excluded: 2, test: 300 });
    expect(m.excluded.map((e) => [e.id, e.reason])).toEqual([
      ['pool:11', 'same content as pool task pool:3'],
      ['pool:12', 'same content as test task standard:4'],
    ]);
    // 11 kept: SFT 5, RL side 6 → validation 3 (capped at half), RL 3.
    expect([m.counts.sft_train, m.counts.validation, m.counts.rl_train]).toEqual([5, 3, 3]);
    const all = [...partitionTasks(m, ['validation', 'sft_train', 'rl_train'])].map((t) => t.id).sort();
    expect(all).toEqual(Array.from({ length: 11 }, (_, i) => `pool:${i}`).sort());
    expect(m.sources.at(-1)).toMatchObject({ role: 'pool (--pool)', path: pool });
    expect(m.comparison.find((r) => r.partition === 'pool')).toMatchObject({ ours: 13, paper: 4803, basis: 'stated' });

    const python = execFileSync(
      'python3',
      ['-c', 'import hashlib,json,sys\nfor l in open(sys.argv[1]):\n  l=l.strip()\n  if l: print(hashlib.sha256(json.dumps(json.loads(l),sort_keys=True,ensure_ascii=False,separators=(",",":")).encode()).hexdigest())', pool],
      { encoding: 'utf8' },
    )
      .trim()
      .split('\n');
    const ours = new Map([...partitionTasks(m, ['validation', 'sft_train', 'rl_train']), ...m.excluded].map((t) => [t.id, t.sha256]));
    expect(python.map((_, i) => ours.get(`pool:${i}`))).toEqual(python);
  });

  it('dbbench: a pool file that is not in the task format is a ConfigError naming the line', () => {
    const bad = path.join(work, 'bad-pool.jsonl');
    writeFileSync(bad, '{"description": "no table"}\n');
    const error = configError(() => buildSplits({ bench: 'dbbench', dataDir, pool: bad }));
    expect(error.message).toMatch(/--pool: .*bad-pool\.jsonl:1: field 'type' must be .*AgentBench format/);
    expect(error.field).toBe('pool');
  });

  it('alfworld: the pool games fill in content hashes; identities and counts stay those of the split files', () => {
    const shipped = buildSplits({ bench: 'alfworld', dataDir });
    const m = buildSplits({ bench: 'alfworld', dataDir, pool: path.join(fixtures, 'alfworld-user-games.jsonl') });
    expect(m.pool.kind).toBe('user');
    expect(m.counts.withoutContent).toBe(shipped.counts.withoutContent - 2);
    const byId = new Map(partitionTasks(m, ['test', 'validation', 'sft_train', 'rl_train']).map((t) => [t.id, t]));
    expect(byId.get('json_2.1.1/train/pick_two_obj_and_place-KeyChain-None-Shelf-207/trial_T20190909_131732_113671')!.sha256).toMatch(/^[0-9a-f]{64}$/);
    const poolGame = 'json_2.1.1/train/pick_cool_then_place_in_recep-Mug-None-CoffeeMachine-5/trial_T20190907_013225_891350';
    expect(m.partitions.validation.tasks.find((t) => t.id === poolGame)!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(m.notes.some((n) => n.startsWith('1 of the 3 --pool games are in neither new_std nor train_valid'))).toBe(true);
    for (const p of ['test', 'validation', 'sft_train', 'rl_train'] as const) {
      expect(m.partitions[p].tasks.map((t) => t.id)).toEqual(shipped.partitions[p].tasks.map((t) => t.id));
    }
  });

  it('webshop: an items_human_ins.json pool gives human goals, batches of ten and a capped validation', () => {
    const products = JSON.parse(readFileSync(path.join(dataDir, 'webshop/items_shuffle_1000.json'), 'utf8')) as { asin: string }[];
    const human: Record<string, unknown[]> = {};
    for (const p of products.slice(0, 140)) {
      human[p.asin] = [0, 1, 2, 3].map((k) => ({ instruction: `fixture request ${k} for ${p.asin}`, instruction_attributes: ['fixture'], instruction_options: [] }));
    }
    const pool = path.join(work, 'items_human_ins.json');
    writeFileSync(pool, JSON.stringify(human));
    const m = buildSplits({ bench: 'webshop', dataDir, pool });
    // 560 goals: test 0-499, 6 pool batches → SFT 3, RL side 3 → validation 1 batch (capped), RL 2.
    expect(m.counts).toMatchObject({ pool: 60, test: 500, sft_train: 30, validation: 10, rl_train: 20 });
    expect(m.partitions.test.tasks[0]!.id).toBe('human:0');
    expect(m.pool).toMatchObject({ kind: 'user' });
    expect(m.notes.join(' ')).toMatch(/Validation capped at 1 batches/);
    expect(findLeaks(m, partitionTasks(m, TRAINING_PARTITIONS))).toEqual([]);
  });

  it('refuses a pool file that does not exist, and an unknown benchmark, naming the allowed values', () => {
    expect(configError(() => buildSplits({ bench: 'dbbench', dataDir, pool: path.join(work, 'nope.jsonl') })).field).toBe('pool');
    const error = configError(() => buildSplits({ bench: 'mind2web', dataDir }));
    expect(error.field).toBe('bench');
    expect(error.message).toMatch(/Unknown benchmark 'mind2web'\. Allowed: dbbench, alfworld, webshop\./);
  });
});

describe('allocateLargestRemainder', () => {
  it('sums to the total, gives leftovers to the largest remainders and breaks ties by order', () => {
    expect(Object.fromEntries(allocateLargestRemainder(new Map([['a', 1], ['b', 1], ['c', 1]]), 2))).toEqual({ a: 1, b: 1, c: 0 });
    expect(Object.fromEntries(allocateLargestRemainder(new Map([['a', 5], ['b', 3], ['c', 2]]), 7))).toEqual({ a: 4, b: 2, c: 1 });
    // Per-group rounding would give 3 + 3 + 3 = 9 here.
    expect(Object.fromEntries(allocateLargestRemainder(new Map([['a', 10], ['b', 10], ['c', 10]]), 10))).toEqual({ a: 4, b: 3, c: 3 });
    expect(() => allocateLargestRemainder(new Map([['a', 2]]), 3)).toThrow(ConfigError);
  });
});
