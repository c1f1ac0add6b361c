import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { runCli, spawnCli } from './cli-helpers.js';

// SIGINT and SIGTERM as a user sends them: what is in flight is stored, the resume command is printed,
// SQLite is closed (no WAL file left) and the process exits 130. Real CLI processes.

const root = mkdtempSync(path.join(os.tmpdir(), 'harness-signals-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > 180_000) throw new Error(`never saw ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('interrupting a command', () => {
  it.each([
    ['SIGINT', 'improve'],
    ['SIGINT', 'run'],
    ['SIGTERM', 'run'],
  ] as const)('%s during %s: exit 130, the resume command, no WAL left, and the resume works', async (signal, command) => {
    const dir = path.join(root, `${command}-${signal}`);
    // Tasks of 2, 2, 1 and 3 rounds at 1.5 s a turn (seed 1; task 3 would take 20 rounds): one episode at a
    // time while the signal arrives, so one is in flight and some are left; the resume plays the rest at
    // once (concurrency is no part of a run's identity).
    const args = (concurrency: number): string[] => command === 'improve'
      ? ['improve', '--bench', 'dbbench', '--tasks', '0,1,2,4', '--batch-size', '4', '--target', 'sim:dbbench?seed=1&latency_ms=1500', '--concurrency', String(concurrency), '--run-dir', dir]
      : ['run', '--bench', 'dbbench', '--tasks', '0,1,2,4', '--target', 'sim:dbbench?seed=1&latency_ms=1500', '--concurrency', String(concurrency), '--run-dir', dir];
    const { child, done } = spawnCli(args(1));
    const episodes = path.join(dir, ...(command === 'improve' ? ['baseline'] : []), 'episodes.jsonl');
    await waitFor(() => existsSync(episodes) && statSync(episodes).size > 0, 'a first episode');
    child.kill(signal);
    const r = await done;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(/finishing the episodes in flight/);
    expect(r.stderr).toMatch(new RegExp(`Continue with:\\n  harness-r1 ${command} .*--run-dir ${dir.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
    expect(filesUnder(dir).filter((f) => /-wal$|-shm$|\.harness-lock$/.test(f))).toEqual([]);
    const resumed = await runCli([...args(4), ...(command === 'run' ? ['--resume'] : [])]);
    expect(resumed.code, resumed.stderr).toBe(0);
  }, 600_000);
});
