import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { loadSplitManifest } from '../../src/task-splits/index.js';
import { PROJECT_ROOT, runCli } from './cli-helpers.js';

const work = mkdtempSync(path.join(tmpdir(), 'harness-cli-splits-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('harness-r1 splits (real process)', () => {
  it('writes a dbbench manifest, prints its counts against the paper as JSON, and is byte-identical on a rerun', async () => {
    const a = path.join(work, 'db-a');
    const b = path.join(work, 'db-b');
    const first = await runCli(['splits', '--bench', 'dbbench', '--out', a, '--json']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const summary = JSON.parse(first.stdout) as {
      counts: Record<string, number>;
      comparison: { partition: string; ours: number; paper: number | null }[];
      differsFromPaper: string[];
      files: { file: string; sha256: string }[];
    };
    expect(summary.counts).toMatchObject({ pool: 60, test: 300, sft_train: 30, validation: 15, rl_train: 15 });
    expect(summary.comparison.find((r) => r.partition === 'pool')).toMatchObject({ ours: 60, paper: 4803 });
    expect(summary.differsFromPaper).toEqual(['pool', 'validation', 'sft_train', 'rl_train']);
    const manifest = loadSplitManifest(path.join(a, 'manifest.json'));
    expect(manifest.partitions.rl_train.tasks).toHaveLength(15);
    expect(summary.files).toEqual([{ file: path.join(a, 'manifest.json'), bytes: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);

    const second = await runCli(['splits', '--bench', 'dbbench', '--out', b]);
    expect(second.code).toBe(0);
    expect(readFileSync(path.join(b, 'manifest.json'))).toEqual(readFileSync(path.join(a, 'manifest.json')));
    expect(second.stdout).toMatch(/^pool\s+60\s+4,803\s+≠/m);
    expect(second.stdout).toContain(`sha256 ${summary.files[0]!.sha256}`);
  });

  it('alfworld with a user games pool: the table, the notes and the release-sized test_set.json', async () => {
    const dir = path.join(work, 'aw');
    const pool = path.join(PROJECT_ROOT, 'test/fixtures/splits/alfworld-user-games.jsonl');
    const result = await runCli(['splits', '--bench', 'alfworld', '--pool', pool, '--out', dir]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^pool: --pool: AgentBench train_valid \(3,150 games\)/m);
    expect(result.stdout).toMatch(/^test\s+500\s+500\s/m);
    expect(result.stdout).toMatch(/^validation\s+99\s+99\s/m);
    expect(result.stdout).toMatch(/^note: 3,164 of 3,259 games are not in the data/m);
    expect(result.stdout).toContain(`wrote ${path.join(dir, 'test_set.json')} (59,957 bytes`);
    const testSet = JSON.parse(readFileSync(path.join(dir, 'test_set.json'), 'utf8')) as { mixed: string[] };
    expect(testSet.mixed).toHaveLength(500);
    expect(loadSplitManifest(path.join(dir, 'manifest.json')).pool.kind).toBe('user');
  });

  it('usage errors exit 2 naming the field and the allowed values, and write nothing', async () => {
    const dir = path.join(work, 'never');
    const unknown = await runCli(['splits', '--bench', 'mind2web', '--out', dir]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown benchmark 'mind2web'. Allowed: dbbench, alfworld, webshop.");
    const missing = await runCli(['splits', '--out', dir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Missing --bench. Allowed: dbbench, alfworld, webshop.');
    const noPool = await runCli(['splits', '--bench', 'dbbench', '--pool', path.join(work, 'absent.jsonl'), '--out', dir]);
    expect(noPool.code).toBe(2);
    expect(noPool.stderr).toContain('--pool file not found');
    expect(existsSync(dir)).toBe(false);
  });

  it('--help shows the examples', async () => {
    const help = await runCli(['splits', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Examples:');
    expect(help.stdout).toContain('harness-r1 splits --bench dbbench --pool data/db_out_new.jsonl --out splits/dbbench');
  });
});
