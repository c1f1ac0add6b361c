import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { runCli, spawnCli } from './cli-helpers.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'harness-resume-'));
  dirs.push(d);
  return d;
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : [];
}

const ARGS = ['run', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:24', '--target', 'sim:dbbench?seed=7&latency_ms=40', '--concurrency', '3'];

describe('a run killed with SIGKILL resumes with nothing lost and nothing duplicated', () => {
  it('matches an uninterrupted run record for record', async () => {
    const clean = path.join(tempDir(), 'clean');
    const full = await runCli([...ARGS, '--run-dir', clean]);
    expect(full.code, full.stderr).toBe(0);
    const reference = new Map(lines(path.join(clean, 'episodes.jsonl')).map((l) => [JSON.parse(l).task.index as number, l]));
    expect(reference.size).toBe(24);

    const killed = path.join(tempDir(), 'killed');
    const { child, done } = spawnCli([...ARGS, '--run-dir', killed]);
    const file = path.join(killed, 'episodes.jsonl');
    await new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const poll = setInterval(() => {
        if (lines(file).length >= 5) {
          clearInterval(poll);
          child.kill('SIGKILL');
          resolve();
        } else if (Date.now() - started > 120_000) {
          clearInterval(poll);
          reject(new Error('the run never wrote 5 episodes'));
        }
      }, 5);
    });
    const killedResult = await done;
    expect(killedResult.signal).toBe('SIGKILL');
    const before = lines(file).length;
    expect(before).toBeGreaterThanOrEqual(5);
    expect(before).toBeLessThan(24);

    const resumed = await runCli([...ARGS, '--run-dir', killed, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = lines(file);
    const indices = after.map((l) => JSON.parse(l).task.index as number);
    expect(new Set(indices).size).toBe(indices.length);
    expect(indices.length).toBe(24);
    for (const l of after) expect(l).toBe(reference.get(JSON.parse(l).task.index as number));
    // Finished, the resumed run's file is the uninterrupted run's file, byte for byte (task order).
    expect(readFileSync(file).equals(readFileSync(path.join(clean, 'episodes.jsonl')))).toBe(true);
    expect(existsSync(`${file}.tmp`)).toBe(false);
  });

  it('refuses to resume with different settings and exits 2', async () => {
    const dir = path.join(tempDir(), 'mismatch');
    expect((await runCli([...ARGS.slice(0, 6), '0:2', ...ARGS.slice(7), '--run-dir', dir])).code).toBe(0);
    const other = await runCli(['run', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:3', '--target', 'sim:dbbench?seed=7&latency_ms=40', '--run-dir', dir, '--resume']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/Cannot resume/);
  });
});
