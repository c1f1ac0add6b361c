/**
 * An exclusive lock on a run directory: `<dir>/.harness-lock` holds the pid, host and start time of the
 * process that owns the directory, created with O_EXCL so two processes can never both hold it. A lock
 * left behind by a process of this host that no longer runs (killed, crashed) is stale and taken over;
 * a live holder, or one on another host (which cannot be checked from here), makes the next process stop
 * with a ConfigError naming it. Taking the lock also proves the directory is writable before work starts.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { ConfigError } from '../episode/index.js';
import { fsProblem, isFsError } from './fs-problem.js';

export const LOCK_FILE = '.harness-lock';

export interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
  command: string;
}

/** Kernel file systems where a run directory makes no sense (writes there fail or never end). */
const PSEUDO_FS = ['/proc', '/sys', '/dev'];

/** Refuses a directory on a kernel pseudo file system; checks the nearest existing ancestor, links resolved. */
export function refusePseudoFs(dir: string, what: string): void {
  let probe = path.resolve(dir);
  while (!existsSync(probe) && path.dirname(probe) !== probe) probe = path.dirname(probe);
  let real = probe;
  try {
    real = realpathSync(probe);
  } catch {
    // An unreadable ancestor is reported by the mkdir that follows.
  }
  for (const root of PSEUDO_FS) {
    if (real === root || real.startsWith(`${root}/`) || path.resolve(dir).startsWith(`${root}/`)) {
      throw new ConfigError({ message: `Cannot use ${what} ${path.resolve(dir)}: it is on ${root}, a kernel file system, not a place for files.`, field: 'runDir' });
    }
  }
}

/** Creates the directory (and its parents) or says, as a ConfigError, why it cannot be one. */
export function ensureDirectory(dir: string, what: string): void {
  refusePseudoFs(dir, what);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    if (isFsError(error)) throw fsProblem(error, what, dir);
    throw error;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(file: string): LockHolder | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockHolder>;
    return typeof value.pid === 'number' && typeof value.host === 'string' ? { pid: value.pid, host: value.host, startedAt: String(value.startedAt ?? '?'), command: String(value.command ?? '?') } : undefined;
  } catch {
    return undefined;
  }
}

export class DirLock {
  private released = false;

  private constructor(
    readonly file: string,
    readonly holder: LockHolder,
    /** The stale holder this lock replaced, if any. */
    readonly tookOverFrom: LockHolder | undefined,
    /** The directory, when this lock created it (removed again on release if nothing was written). */
    private readonly createdDir: string | undefined,
  ) {}

  /**
   * Creates the directory if needed and takes its lock. Throws a ConfigError when the directory cannot be
   * created or written (naming the path and the problem), or when a live process holds it.
   */
  static acquire(dir: string, options: { what?: string; command?: string } = {}): DirLock {
    const what = options.what ?? 'the run directory';
    const existed = existsSync(dir);
    ensureDirectory(dir, what);
    const file = path.join(path.resolve(dir), LOCK_FILE);
    const holder: LockHolder = { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString(), command: options.command ?? process.argv.slice(2, 3).join(' ') };
    let tookOverFrom: LockHolder | undefined;
    for (let tries = 0; tries < 3; tries++) {
      let fd: number;
      try {
        fd = openSync(file, 'wx');
      } catch (error) {
        if (!isFsError(error)) throw error;
        if (error.code !== 'EEXIST') throw fsProblem(error, what, dir);
        const current = readHolder(file);
        if (current && (current.host !== holder.host || isAlive(current.pid))) {
          const where = current.host === holder.host ? '' : ` on host ${current.host} (a process of another host cannot be checked from here; remove ${file} if it is gone)`;
          throw new ConfigError({
            message: `${path.resolve(dir)} is in use by process ${current.pid}${where} (${current.command}, started ${current.startedAt}; lock ${file}). Wait for it to finish, or choose another --run-dir.`,
            field: 'runDir',
          });
        }
        // The holder is gone (or never finished writing the file): the lock is stale.
        tookOverFrom = current;
        try {
          unlinkSync(file);
        } catch (unlinkError) {
          if (isFsError(unlinkError) && unlinkError.code !== 'ENOENT') throw fsProblem(unlinkError, what, dir);
        }
        continue;
      }
      try {
        writeSync(fd, `${JSON.stringify(holder)}\n`);
        fsyncSync(fd);
      } catch (error) {
        closeSync(fd);
        if (isFsError(error)) throw fsProblem(error, what, dir);
        throw error;
      }
      closeSync(fd);
      return new DirLock(file, holder, tookOverFrom, existed ? undefined : path.resolve(dir));
    }
    throw new ConfigError({ message: `Could not take the lock ${file}: another process keeps taking it.`, field: 'runDir' });
  }

  /** Removes the lock file if it is still this process's. Safe to call twice. */
  release(): void {
    if (this.released) return;
    this.released = true;
    const current = readHolder(this.file);
    if (current && current.pid === this.holder.pid && current.startedAt === this.holder.startedAt) {
      try {
        unlinkSync(this.file);
      } catch {
        // Already gone.
      }
    }
    // A command that stopped before writing anything leaves no empty directory behind.
    if (this.createdDir !== undefined) {
      try {
        rmdirSync(this.createdDir);
      } catch {
        // Not empty: the run's files stay.
      }
    }
  }
}

function isEmptyOrAbsent(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch (error) {
    return isFsError(error) && error.code === 'ENOENT';
  }
}

/**
 * The directory a command records into, locked. `fresh` (the command's `--new`, and every default name)
 * picks `base` when it is absent or empty, else the first free `base-2`, `base-3`, …, so a new run never
 * lands in another's directory, even when two start in the same second; otherwise `base` itself is locked
 * (an existing run in it is continued, or refused, by the command).
 */
export function lockRunDir(base: string, options: { fresh: boolean; what?: string; command?: string }): { dir: string; lock: DirLock } {
  const root = path.resolve(base);
  if (!options.fresh) return { dir: root, lock: DirLock.acquire(root, options) };
  for (let n = 1; n < 1000; n++) {
    const dir = n === 1 ? root : `${root}-${n}`;
    if (!isEmptyOrAbsent(dir)) continue;
    let lock: DirLock;
    try {
      lock = DirLock.acquire(dir, options);
    } catch (error) {
      // Another process took this name a moment ago: try the next one.
      if (error instanceof ConfigError && existsSync(path.join(dir, LOCK_FILE))) continue;
      throw error;
    }
    if (readdirSync(dir).every((name) => name === LOCK_FILE)) return { dir, lock };
    lock.release();
  }
  throw new ConfigError({ message: `No free run directory name after ${root}-999.`, field: 'runDir' });
}
