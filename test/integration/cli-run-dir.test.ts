import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { runCli, spawnCli } from './cli-helpers.js';

// Run directories as a user meets them: resumed only with the same settings, one process at a time,
// file-system problems as one line naming the path (exit 2), never a stack trace.

const root = mkdtempSync(path.join(os.tmpdir(), 'harness-run-dir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const IMPROVE = ['improve', '--bench', 'dbbench', '--tasks', '0:4', '--batch-size', '2', '--target', 'sim:dbbench?seed=2', '--concurrency', '2'];
const RUN = ['run', '--bench', 'dbbench', '--tasks', '0:2', '--target', 'sim:dbbench'];
const STACK = /^\s+at /m;

describe('improve on an existing run directory (real CLI processes)', () => {
  const dir = path.join(root, 'improve');

  it('refuses another --batch-size, --engineer or --metric with the differences (exit 2), and resumes with the same', async () => {
    const first = await runCli([...IMPROVE, '--run-dir', dir, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const summary = JSON.parse(first.stdout).summary as { totals: { tasks: number; batches: number } };
    expect(summary.totals).toMatchObject({ batches: 2 });
    const before = readFileSync(path.join(dir, 'summary.json'), 'utf8');

    const other = await runCli([...IMPROVE.map((a) => (a === '2' ? '4' : a)), '--run-dir', dir, '--engineer', 'scripted:nothing.json', '--metric', 'delta_average_reward']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/Cannot continue .*improve: it was started with different settings/);
    expect(other.stderr).toContain('batchSize: 2 → 4');
    expect(other.stderr).toContain('engineer: "symbolic" → "scripted:nothing.json"');
    expect(other.stderr).toContain('metric: "delta_pass_rate" → "delta_average_reward"');
    expect(other.stderr).not.toMatch(STACK);
    // Nothing of the refused run was mixed in.
    expect(readFileSync(path.join(dir, 'summary.json'), 'utf8')).toBe(before);

    const again = await runCli([...IMPROVE, '--run-dir', dir, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout).summary as { totals: unknown }).totals).toEqual(summary.totals);
  }, 600_000);

  it('--new starts a new run directory beside the taken one', async () => {
    const r = await runCli([...IMPROVE, '--batch-size', '4', '--run-dir', dir, '--new', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).runDir).toBe(`${dir}-2`);
    expect(JSON.parse(readFileSync(path.join(`${dir}-2`, 'improve.json'), 'utf8'))).toMatchObject({ batchSize: 4 });
    expect(JSON.parse(readFileSync(path.join(dir, 'improve.json'), 'utf8'))).toMatchObject({ batchSize: 2 });
  }, 600_000);
});

describe('one process per run directory', () => {
  it('refuses a second live process naming the holder, and takes over the lock of a dead one', async () => {
    const dir = path.join(root, 'locked');
    const slow = spawnCli(['run', '--bench', 'dbbench', '--tasks', '0:2', '--target', 'sim:dbbench?latency_ms=20000', '--run-dir', dir]);
    const lockFile = path.join(dir, '.harness-lock');
    const started = Date.now();
    while (!existsSync(lockFile) && Date.now() - started < 120_000) await new Promise((resolve) => setTimeout(resolve, 50));
    try {
      const second = await runCli([...RUN, '--run-dir', dir, '--resume']);
      expect(second.code).toBe(2);
      expect(second.stderr).toContain(`in use by process ${slow.child.pid}`);
      expect(second.stderr).not.toMatch(STACK);
    } finally {
      slow.child.kill('SIGKILL');
    }
    await slow.done;
    // Killed, its lock stays behind; the next run sees the holder is gone and takes the directory over.
    expect(existsSync(lockFile)).toBe(true);
    // (Another target, so it stops at the settings check, which comes after the lock.)
    const next = await runCli([...RUN, '--run-dir', dir, '--resume']);
    expect(next.stderr).toMatch(/Cannot resume .* different settings/);
    expect(next.stderr).not.toMatch(/in use by process/);
    expect(existsSync(lockFile)).toBe(false);
  }, 300_000);

  it('takes over a stale lock file of a process that no longer runs', async () => {
    const dir = path.join(root, 'stale');
    mkdirSync(dir);
    const pid = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(path.join(dir, '.harness-lock'), JSON.stringify({ pid, host: os.hostname(), startedAt: '2026-01-01T00:00:00Z', command: 'run' }));
    const r = await runCli([...RUN, '--run-dir', dir]);
    expect(r.code, r.stderr).toBe(0);
  }, 300_000);

  it('gives two runs started without --run-dir two directories', async () => {
    const cwdRuns = path.join(root, 'defaults');
    const a = await runCli([...RUN, '--json', '--run-dir', path.join(cwdRuns, 'same')]);
    const b = await runCli([...RUN, '--json', '--run-dir', path.join(cwdRuns, 'same'), '--new']);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(JSON.parse(b.stdout).runDir).not.toBe(JSON.parse(a.stdout).runDir);
  }, 300_000);
});

describe('file-system problems are usage errors naming the path (exit 2, no stack trace)', () => {
  const file = path.join(root, 'a-file');
  writeFileSync(file, '');

  it.each([
    ['a /proc run directory', [...RUN, '--run-dir', '/proc/self/harness-run'], /\/proc\/self\/harness-run: it is on \/proc, a kernel file system/],
    ['a file where the run directory should be', [...RUN, '--run-dir', path.join(file, 'run')], /a-file\/run: a file is where a directory should be \(ENOTDIR\)/],
    ['an improve run directory that is a file', [...IMPROVE, '--run-dir', file], /a-file: a file is where a directory should be/],
    ['a report target under /proc', ['report', path.join(root, 'improve'), '--out', '/proc/harness-report.html'], /Cannot write \/proc\/harness-report\.html/],
  ])('%s', async (_name, args, message) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(STACK);
  }, 300_000);
});
