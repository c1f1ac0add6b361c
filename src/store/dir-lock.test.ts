import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { ConfigError } from '../episode/index.js';
import { DirLock, LOCK_FILE, lockRunDir } from './dir-lock.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'dir-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The pid of a process that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

function refusal(work: () => unknown): ConfigError {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('DirLock', () => {
  it('creates the directory, writes pid, host and start time, and removes the file on release', () => {
    const dir = path.join(root, 'a', 'b');
    const lock = DirLock.acquire(dir, { command: 'run' });
    const stored = JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8')) as Record<string, unknown>;
    expect(stored).toMatchObject({ pid: process.pid, host: os.hostname(), command: 'run' });
    expect(typeof stored.startedAt).toBe('string');
    lock.release();
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });

  it('refuses a second holder while the first lives, naming its pid', () => {
    const dir = path.join(root, 'busy');
    const lock = DirLock.acquire(dir, { command: 'improve' });
    const error = refusal(() => DirLock.acquire(dir));
    expect(error.message).toContain(`in use by process ${process.pid}`);
    expect(error.message).toContain('improve');
    lock.release();
    DirLock.acquire(dir).release();
  });

  it('takes over the stale lock of a process that no longer runs', () => {
    const dir = path.join(root, 'stale');
    mkdirSync(dir);
    const gone = { pid: deadPid(), host: os.hostname(), startedAt: '2026-01-01T00:00:00.000Z', command: 'run' };
    writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify(gone));
    const lock = DirLock.acquire(dir);
    expect(lock.tookOverFrom).toEqual(gone);
    expect(JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
  });

  it('does not take over a lock of another host (it cannot be checked) and says how to clear it', () => {
    const dir = path.join(root, 'foreign');
    mkdirSync(dir);
    writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: deadPid(), host: 'elsewhere.example', startedAt: 'x', command: 'run' }));
    expect(refusal(() => DirLock.acquire(dir)).message).toMatch(/on host elsewhere\.example .*remove .*\.harness-lock/);
  });

  it.each([
    ['a path under /proc', () => '/proc/self/run', /kernel file system/],
    ['a file where the directory should be', () => { const f = path.join(root, 'file'); writeFileSync(f, ''); return path.join(f, 'run'); }, /a file is where a directory should be \(ENOTDIR\)/],
  ])('refuses %s with the path and the problem', (_name, dirOf, problem) => {
    const dir = dirOf();
    const error = refusal(() => DirLock.acquire(dir));
    expect(error.message).toContain(dir.startsWith('/proc') ? '/proc/self/run' : path.join(root, 'file'));
    expect(error.message).toMatch(problem);
  });

  it.skipIf(process.getuid?.() === 0)('refuses a directory it may not write', () => {
    const dir = path.join(root, 'readonly');
    mkdirSync(dir);
    chmodSync(dir, 0o555);
    try {
      expect(refusal(() => DirLock.acquire(dir)).message).toMatch(/readonly.*permission denied \(EACCES\)/);
    } finally {
      chmodSync(dir, 0o755);
    }
  });
});

describe('lockRunDir', () => {
  it('continues the named directory, or with fresh picks the first free name after it', () => {
    const base = path.join(root, 'named');
    mkdirSync(base);
    writeFileSync(path.join(base, 'run.json'), '{}');
    const same = lockRunDir(base, { fresh: false });
    expect(same.dir).toBe(base);
    same.lock.release();
    const first = lockRunDir(base, { fresh: true });
    expect(first.dir).toBe(`${base}-2`);
    writeFileSync(path.join(first.dir, 'run.json'), '{}');
    // Still held by the first: the second new run gets the next name.
    const second = lockRunDir(base, { fresh: true });
    expect(second.dir).toBe(`${base}-3`);
    first.lock.release();
    second.lock.release();
  });
});
