import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { runCli } from './cli-helpers.js';

const root = mkdtempSync(path.join(tmpdir(), 'harness-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('harness-r1 run (real CLI process, simulated target over HTTP, SQLite)', () => {
  it('plays tasks, prints a JSON summary labelled as simulated, and records every episode', async () => {
    const dir = path.join(root, 'json');
    const r = await runCli(['run', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:6', '--target', 'sim:dbbench?seed=3', '--concurrency', '2', '--run-dir', dir, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { target: { simulated: boolean; label: string }; summary: { episodes: number }; tasks: { index: number }[] };
    expect(out.target.simulated).toBe(true);
    expect(out.target.label).toMatch(/simulated target/);
    expect(out.summary.episodes).toBe(6);
    expect(out.tasks.map((t) => t.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(r.stderr).toMatch(/\[6\/6\] task \d+: /);
    const lines = readFileSync(path.join(dir, 'episodes.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(6);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')) as { target: { simulated: boolean } };
    expect(manifest.target.simulated).toBe(true);
  });

  it('gives byte-identical records for the same seed, whatever the concurrency', async () => {
    const sorted = (dir: string) => readFileSync(path.join(dir, 'episodes.jsonl'), 'utf8').trim().split('\n').sort();
    const a = path.join(root, 'a');
    const b = path.join(root, 'b');
    expect((await runCli(['run', '--bench', 'dbbench', '--tasks', '10:22', '--target', 'sim:dbbench?seed=5', '--concurrency', '1', '--run-dir', a])).code).toBe(0);
    expect((await runCli(['run', '--bench', 'dbbench', '--tasks', '10:22', '--target', 'sim:dbbench?seed=5', '--concurrency', '6', '--run-dir', b])).code).toBe(0);
    expect(sorted(a)).toEqual(sorted(b));
  });

  it('prints the human summary with the simulated-target label', async () => {
    const r = await runCli(['run', '--bench', 'dbbench', '--tasks', '0:2', '--target', 'sim:dbbench', '--run-dir', path.join(root, 'human')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/SIMULATED TARGET/);
    expect(r.stdout).toMatch(/success: \d+\/2/);
  });

  it.each([
    [['run', '--bench', 'swebench', '--target', 'sim:dbbench'], /Unknown benchmark 'swebench'\. Allowed: dbbench, alfworld, webshop/],
    [['run', '--bench', 'alfworld', '--target', 'sim:alfworld', '--backend', 'mariadb'], /--backend applies to dbbench only, not alfworld/],
    [['run', '--bench', 'dbbench', '--target', 'sim:dbbench', '--wording', '2.1.2'], /--wording applies to alfworld only/],
    [['run', '--bench', 'dbbench', '--tasks', '0:99', '--target', 'sim:dbbench'], /goes past the end of the split/],
    [['run', '--bench', 'dbbench', '--split', 'test', '--target', 'sim:dbbench'], /Unknown DBBench split 'test'\. Allowed: dev, standard, standard\.v0\.2/],
    [['run', '--bench', 'dbbench', '--target', 'nonsense'], /target/i],
    [['run', '--bench', 'dbbench', '--target', 'sim:alfworld'], /sim:alfworld is the simulated target of alfworld; --bench dbbench plays with sim:dbbench/],
    [['run', '--bench', 'dbbench', '--target', 'sim:dbbench', '--concurrency', '0'], /--concurrency must be an integer/],
    [['run', '--bench', 'dbbench', '--target', 'sim:dbbench', '--resume'], /--resume needs --run-dir/],
    [['run', '--target', 'sim:dbbench'], /--bench is required/],
    [['frobnicate'], /unknown command 'frobnicate'/],
  ])('exits 2 with a clear message for %j', async (args, message) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it.each([
    ['alfworld', ['--split', 'dev', '--tasks', '0:6'], /pick_and_place|look_at_obj|pick_clean_then_place/],
    ['webshop', ['--tasks', '0:6'], /success: \d+\/6/],
  ])('plays %s with its simulated target', async (bench, extra, pattern) => {
    const r = await runCli(['run', '--bench', bench, ...extra, '--target', `sim:${bench}?seed=1`, '--concurrency', '3', '--run-dir', path.join(root, bench)]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/SIMULATED TARGET/);
    expect(r.stdout).toMatch(pattern);
    expect(readFileSync(path.join(root, bench, 'episodes.jsonl'), 'utf8').trim().split('\n')).toHaveLength(6);
  });

  it('answers --help with examples', async () => {
    const r = await runCli(['run', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Examples:/);
    expect(r.stdout).toMatch(/--resume/);
  });
});
