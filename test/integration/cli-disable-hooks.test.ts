import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { PROJECT_ROOT, runCli } from './cli-helpers.js';

const root = mkdtempSync(path.join(tmpdir(), 'harness-disable-hooks-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const dataDir = process.env.HARNESS_DATA_DIR ?? path.join(PROJECT_ROOT, '..', 'shared', 'data');
const patch = path.join(dataDir, 'patches', 'heldout_generalization', 'harness-r1', 'seed20260720', 'dbbench.json');

interface Trace { hookTrace: { hook: string }[] }
const hooksCalled = (file: string): Set<string> =>
  new Set(readFileSync(file, 'utf8').trim().split('\n').flatMap((line) => (JSON.parse(line) as Trace).hookTrace.map((t) => t.hook)));

describe('--disable-hooks (real CLI process, simulated target, sandboxed shipped patch)', () => {
  it('run: hooks at the disabled positions are never called; the manifest and --json record the positions', async () => {
    const full = path.join(root, 'full');
    const ablated = path.join(root, 'ablated');
    const args = ['run', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:3', '--target', 'sim:dbbench?seed=2', '--patch', patch];
    const a = await runCli([...args, '--run-dir', full]);
    expect(a.code, a.stderr).toBe(0);
    const b = await runCli([...args, '--run-dir', ablated, '--disable-hooks', 'make_pre_hint,on_init', '--json']);
    expect(b.code, b.stderr).toBe(0);
    expect([...hooksCalled(path.join(full, 'episodes.jsonl'))].sort()).toEqual(['make_pre_hint', 'on_before_action', 'on_init', 'on_post_step']);
    expect([...hooksCalled(path.join(ablated, 'episodes.jsonl'))].sort()).toEqual(['on_before_action', 'on_post_step']);
    const manifest = JSON.parse(readFileSync(path.join(ablated, 'run.json'), 'utf8')) as { options: { disabledHooks?: string[] } };
    expect(manifest.options.disabledHooks).toEqual(['on_init', 'make_pre_hint']);
    expect((JSON.parse(b.stdout) as { disabledHooks: string[] }).disabledHooks).toEqual(['on_init', 'make_pre_hint']);
    const plain = JSON.parse(readFileSync(path.join(full, 'run.json'), 'utf8')) as { options: Record<string, unknown> };
    expect(plain.options).not.toHaveProperty('disabledHooks');
    // A resume with other disabled positions is another run, refused.
    const c = await runCli([...args, '--run-dir', ablated, '--resume', '--disable-hooks', 'on_init']);
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(/options\.disabledHooks/);
  }, 240_000);

  it('improve: reruns skip the disabled position, and the rerun manifest records it', async () => {
    const dir = path.join(root, 'improve');
    const r = await runCli(['improve', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:10', '--target', 'sim:dbbench?seed=4', '--run-dir', dir, '--disable-hooks', 'on_post_step', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { disabledHooks: string[] }).disabledHooks).toEqual(['on_post_step']);
    const reruns = readdirSync(path.join(dir, 'reruns'));
    expect(reruns.length).toBeGreaterThan(0);
    for (const key of reruns) {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'reruns', key, 'run.json'), 'utf8')) as { options: { disabledHooks?: string[] } };
      expect(manifest.options.disabledHooks).toEqual(['on_post_step']);
      expect(hooksCalled(path.join(dir, 'reruns', key, 'episodes.jsonl')).has('on_post_step')).toBe(false);
    }
  }, 240_000);

  it.each([['run', 'sim:dbbench'], ['improve', 'sim:dbbench']])('%s: an unknown position is a usage error listing the allowed values', async (command, target) => {
    const r = await runCli([command, '--bench', 'dbbench', '--target', target, '--disable-hooks', 'on_init,pre_action']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Unknown lifecycle position\(s\) for --disable-hooks: pre_action\. Allowed: on_init, make_pre_hint, on_before_action, on_post_step\./);
  });
});
