import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import type { AblationArtifact } from '../../src/experiments/ablation/ablation-summary.js';
import { PROJECT_ROOT, runCli } from './cli-helpers.js';

const root = mkdtempSync(path.join(tmpdir(), 'harness-ablation-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const dataDir = process.env.HARNESS_DATA_DIR ?? path.join(PROJECT_ROOT, '..', 'shared', 'data');
const patch = path.join(dataDir, 'patches', 'heldout_generalization', 'harness-r1', 'seed20260721', 'webshop.json');

interface Trace { hookTrace: { hook: string }[] }
const hooksIn = (file: string) => new Set(readFileSync(file, 'utf8').trim().split('\n').flatMap((l) => (JSON.parse(l) as Trace).hookTrace.map((t) => t.hook)));

describe('harness-r1 experiment ablation (real CLI process, simulated target, real sandbox)', () => {
  it('reruns every arm per repeat with the seed varied, pairs each arm with the full patch, and labels the table simulated', async () => {
    const out = path.join(root, 'webshop');
    const args = ['experiment', 'ablation', '--bench', 'webshop', '--tasks', '0:4', '--target', 'sim:webshop?seed=4', '--patch', patch, '--repeats', '2', '--resamples', '300', '--out', out];
    const r = await runCli([...args, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const a = JSON.parse(r.stdout) as AblationArtifact;
    expect(a.labels).toEqual(['simulated target']);
    expect(a.repeatTargets).toEqual(['sim:webshop?seed=4 (simulated target)', 'sim:webshop?seed=5 (simulated target)']);
    expect(a.rows.map((row) => row.arm)).toEqual(['full', 'none', 'no_on_init', 'no_make_pre_hint', 'no_on_before_action', 'no_on_post_step']);
    // The shipped WebShop patch has one on_before_action hook: the other positions are the full patch itself.
    expect(a.patchHooks).toEqual(['on_before_action']);
    expect(a.rows.filter((row) => row.sameAsFull).map((row) => row.arm)).toEqual(['no_on_init', 'no_make_pre_hint', 'no_on_post_step']);
    for (const row of a.rows) {
      expect(row.success.n).toBe(2);
      expect(row.score?.n).toBe(2);
      if (row.arm !== 'full') expect(row.paired?.n).toBe(8);
    }
    expect(hooksIn(path.join(out, 'arms', 'r1-full', 'episodes.jsonl')).has('on_before_action')).toBe(true);
    expect(hooksIn(path.join(out, 'arms', 'r2-no_on_before_action', 'episodes.jsonl')).size).toBe(0);
    const manifest = JSON.parse(readFileSync(path.join(out, 'arms', 'r2-no_on_before_action', 'run.json'), 'utf8')) as { target: { spec: string }; options: { disabledHooks: string[] } };
    expect(manifest.options.disabledHooks).toEqual(['on_before_action']);
    expect(manifest.target.spec).toBe('sim:webshop?seed=5');

    const again = await runCli(args);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/SIMULATED TARGET/);
    expect(again.stdout).toMatch(/^Full patch .*—$/m);
    expect(again.stdout).toMatch(/^w\/o pre-action \(on_before_action\) +[\d.]+ ± [\d.]+ \([+−][\d.]+\)/m);
    // Resumed: nothing is played again (every arm's store still holds one record per task).
    for (const arm of ['r1-full', 'r1-none', 'r2-no_on_before_action']) expect(readFileSync(path.join(out, 'arms', arm, 'episodes.jsonl'), 'utf8').trim().split('\n')).toHaveLength(4);
    const { runDir: _runDir, summary: _summary, ...stored } = JSON.parse(r.stdout) as AblationArtifact & { runDir: string; summary: string };
    expect(JSON.parse(readFileSync(path.join(out, 'ablation.json'), 'utf8'))).toEqual(stored);
  }, 900_000);

  it.each([
    [[], /needs exactly one of --patch FILE or --from RUN/],
    [['--patch', patch, '--from', root], /needs exactly one of --patch FILE or --from RUN/],
    [['--from', path.join(root, 'nothing')], /no such run directory/],
    [['--patch', patch, '--repeats', '0'], /--repeats must be an integer from 1 to 100/],
  ])('exits 2 for %j', async (extra, message) => {
    const r = await runCli(['experiment', 'ablation', '--bench', 'webshop', '--tasks', '0:2', '--target', 'sim:webshop', '--out', path.join(root, `bad-${extra.length}`), ...extra]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  }, 120_000);
});
