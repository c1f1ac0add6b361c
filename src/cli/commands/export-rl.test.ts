import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BenchmarkRegistry } from '../../benchmarks/registry.js';
import { resolveDataDir } from '../../config/data-dir.js';
import { ConfigError } from '../../episode/index.js';
import { exportRl, readRows, type ExportRlOptions, type ExportRlSummary } from '../../training/rows/export-rl.js';
import { groupsAreHomogeneous } from '../../training/rows/group-rows.js';
import { releaseShapeProblems } from '../../training/rows/rl-row.js';
import { buildSplits, HELD_OUT_PARTITIONS } from '../../task-splits/index.js';
import { exportRlCommand, parseFormats } from './export-rl.js';

const work = mkdtempSync(path.join(tmpdir(), 'harness-export-rl-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const ctx = { registry: new BenchmarkRegistry() };
const sink = { write: () => true };
const dataDir = resolveDataDir(undefined);

let summary: ExportRlSummary;
const out = path.join(work, 'rl');

beforeAll(async () => {
  ({ summary } = await exportRlCommand(ctx, { bench: 'dbbench', target: 'sim:dbbench', out, format: 'relax,verl,openrlhf,trl', json: true }, sink));
}, 600_000);

describe('export rl (DBBench dev pool, simulated target)', () => {
  it('writes one release-shaped row per batch with a failure, the baseline frozen in it', () => {
    const rows = readRows(path.join(out, 'dbbench', 'rows.jsonl'));
    expect(rows.length).toBe(summary.batches.rows);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(releaseShapeProblems(row)).toEqual([]);
      expect(row.metadata.target_simulated).toBe(true);
      expect(row.metadata.baseline_pass).toBeLessThan(row.metadata.batch_size);
      expect(row.metadata.task_indices).toHaveLength(row.metadata.batch_size);
      expect(row.prompt[1].content).toContain('Observed no-harness rollout evidence:');
    }
    expect(summary.tasks.played).toBe(15);
  });

  it('writes the same rows in every format; the parquet file reads back with an independent reader', async () => {
    const rows = readRows(path.join(out, 'dbbench', 'rows.jsonl'));
    expect(readFileSync(path.join(out, 'dbbench', 'rows.relax.jsonl'), 'utf8')).toBe(readFileSync(path.join(out, 'dbbench', 'rows.jsonl'), 'utf8'));
    const bytes = readFileSync(path.join(out, 'dbbench', 'rows.verl.parquet'));
    expect(bytes.subarray(0, 4).toString()).toBe('PAR1');
    expect(bytes.subarray(bytes.length - 4).toString()).toBe('PAR1');
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const verl = (await parquetReadObjects({ file })) as { data_source: string; prompt: unknown; ability: string; reward_model: unknown; extra_info: { index: bigint; metadata: string; batch_tag: string } }[];
    expect(verl).toHaveLength(rows.length);
    verl.forEach((v, i) => {
      expect(v.data_source).toBe('harness_r1/dbbench');
      expect(v.prompt).toEqual(rows[i]!.prompt);
      expect(v.reward_model).toEqual({ style: 'harness_r1_rerun', ground_truth: '' });
      expect(Number(v.extra_info.index)).toBe(i);
      expect(v.extra_info.batch_tag).toBe(rows[i]!.metadata.batch_tag);
      expect(JSON.parse(v.extra_info.metadata)).toEqual(rows[i]!.metadata);
    });
    const lines = (f: string) => readFileSync(path.join(out, 'dbbench', f), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    lines('rows.openrlhf.jsonl').forEach((r, i) => {
      expect(r.prompt).toEqual(rows[i]!.prompt);
      expect(JSON.parse(r.label as string)).toEqual(rows[i]!.metadata);
    });
    lines('rows.trl.jsonl').forEach((r, i) => {
      expect(Object.keys(r)).toEqual(['prompt', 'benchmark', 'batch_tag', 'harness_r1_metadata']);
      expect(JSON.parse(r.harness_r1_metadata as string)).toEqual(rows[i]!.metadata);
    });
  });

  it('puts no validation or test identity in any file', () => {
    const manifest = buildSplits(ctx.registry.get('dbbench').paperSplits!, { dataDir }).manifest;
    const heldOut = HELD_OUT_PARTITIONS.flatMap((p) => manifest.partitions[p].tasks.map((t) => t.id));
    expect(heldOut.length).toBeGreaterThan(300);
    const rlIds = new Set(manifest.partitions.rl_train.tasks.map((t) => t.id));
    for (const dir of ['dbbench', 'mixed']) {
      for (const name of readdirSync(path.join(out, dir)).filter((f) => f.startsWith('rows.'))) {
        const text = readFileSync(path.join(out, dir, name)).toString('latin1');
        for (const id of heldOut) expect(text.includes(`"${id}"`), `${dir}/${name} holds ${id}`).toBe(false);
      }
    }
    for (const row of readRows(path.join(out, 'dbbench', 'rows.jsonl'))) for (const id of row.metadata.task_ids) expect(rlIds.has(id)).toBe(true);
  });

  it('groups the mixed file in single-benchmark groups of 4', () => {
    const mixed = readRows(path.join(out, 'mixed', 'rows.jsonl'));
    expect(mixed.length % 4).toBe(0);
    expect(mixed.length).toBe(summary.mixed.rows);
    expect(groupsAreHomogeneous(mixed, 4)).toBe(true);
  });

  it('gives the same bytes when run again (the stored baseline is reused)', async () => {
    const before = readFileSync(path.join(out, 'dbbench', 'rows.verl.parquet'));
    await exportRlCommand(ctx, { bench: 'dbbench', target: 'sim:dbbench', out, format: 'verl', json: true }, sink);
    expect(readFileSync(path.join(out, 'dbbench', 'rows.verl.parquet')).equals(before)).toBe(true);
  }, 600_000);

  it('refuses a held-out task before playing anything, and names bad flags', async () => {
    const manifest = buildSplits(ctx.registry.get('dbbench').paperSplits!, { dataDir }).manifest;
    const validation = manifest.partitions.validation.tasks[0]!;
    const options = {
      benchmark: ctx.registry.get('dbbench'), manifest, manifestSha256: 'x', partition: 'rl_train',
      located: { split: 'dev', options: {}, tasks: [{ ...validation, index: Number(validation.id.split(':')[1]) }], unplayable: [] },
      outDir: path.join(work, 'leak'), formats: ['relax'], batchSize: 10, protocol: 'prefill_think_patch', threshold: 1, metric: 'delta_pass_rate', concurrency: 1,
    } as unknown as ExportRlOptions;
    await expect(exportRl(options)).rejects.toThrow(/held out for validation or test/);
    await expect(exportRl({ ...options, partition: 'validation' })).rejects.toThrow(ConfigError);
    expect(() => parseFormats('relax,parquet')).toThrow(/Unknown --format 'parquet'/);
  });
});
