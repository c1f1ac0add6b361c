import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { runCli } from './cli-helpers.js';

const root = mkdtempSync(path.join(tmpdir(), 'harness-output-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ESC = '\u001b';

describe('terminal output of the real CLI (no TTY)', () => {
  it('run: no colour codes in a pipe, even with CI set; a long run shows a shortened task table and keeps the totals', async () => {
    const r = await runCli(
      ['run', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:30', '--target', 'sim:dbbench?seed=3', '--concurrency', '4', '--run-dir', path.join(root, 'run')],
      { CI: 'true', FORCE_COLOR: '' },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(ESC);
    expect(r.stderr).not.toContain(ESC);
    const rows = r.stdout.split('\n').filter((line) => /^│ \d+ +│/.test(line));
    expect(rows).toHaveLength(20);
    expect(r.stdout).toContain('(20 of 30 tasks shown');
    expect(r.stdout).toMatch(/success: \d+\/29 /); // dev #5 is a permanent env_error, not scored
    // progress lines carry elapsed time and an estimate
    expect(r.stderr).toMatch(/\[30\/30\] task \d+: \w+ reward=[\d.]+ rounds=\d+ \(elapsed [^)]*, done\)/);
    expect(r.stderr).toMatch(/\[\d+\/30\] task \d+: .*ETA /);
  });

  it('run --tasks-table: every row', async () => {
    const r = await runCli(['run', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:25', '--target', 'sim:dbbench?seed=3', '--concurrency', '4', '--run-dir', path.join(root, 'full'), '--tasks-table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').filter((line) => /^│ \d+ +│/.test(line))).toHaveLength(25);
    expect(r.stdout).not.toContain('tasks shown');
  });

  it('improve: live progress of every stage on stderr (episodes done/total, successes, elapsed, ETA) and the reward named by its metric', async () => {
    const r = await runCli(['improve', '--bench', 'webshop', '--tasks', '0:10', '--batch-size', '5', '--target', 'sim:webshop?seed=1', '--run-dir', path.join(root, 'improve')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^baseline: 10\/10 episodes, successes \d+, elapsed [^,]+, done/m);
    expect(r.stderr).toMatch(/^baseline: \d\/10 episodes, successes \d+, elapsed [^,]+, ETA /m);
    expect(r.stderr).toMatch(/^b\w*: engineer$/m);
    expect(r.stderr).toMatch(/: done → \w+ \(2 batch\(es\) done/);
    expect(r.stdout).toContain('reward (Δ mean reward)');
    expect(r.stdout).toContain('mean batch reward (Δ mean reward)');
    expect(r.stdout).not.toMatch(/\d\.\d{6,}/); // no float noise
    expect(r.stdout + r.stderr).not.toContain(ESC);
  });
});
