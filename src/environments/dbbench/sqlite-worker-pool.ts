import { availableParallelism } from 'node:os';

import { InternalError } from '../../episode/index.js';
import type { SqliteLimits } from './sqlite-limits.js';
import { SqliteWorkerProcess } from './sqlite-worker-process.js';

/** Counters of a {@link SqliteWorkerPool}. */
export interface SqliteWorkerPoolInfo {
  /** Processes hosting an episode database now. */
  busy: number;
  /** Warm processes waiting for the next episode. */
  idle: number;
  /** Processes started so far. */
  started: number;
  /** Processes killed because a statement would not stop, passed the memory ceiling, or the process broke. */
  killed: number;
}

export interface SqliteWorkerPoolOptions {
  /** Idle processes kept warm; a process freed while this many are idle is terminated. */
  maxIdle: number;
  /** Processes loading at once. Default: half the CPUs, at least 1. */
  maxStarting?: number;
  /** Resource ceilings every process enforces. */
  limits: SqliteLimits;
}

interface Waiter {
  resolve: (proc: SqliteWorkerProcess) => void;
  reject: (error: Error) => void;
}

/**
 * Warm SQLite database processes shared by the episodes of one backend. A process hosts one episode's
 * database at a time: `acquire` lends a process, `release` takes it back once the episode's database is
 * closed, and `discard` kills a process that cannot be trusted any more.
 *
 * With no idle process, `acquire` waits for whichever comes first: a process released by another episode
 * or a newly started one. New processes start while episodes are waiting, a few at a time (starting one
 * costs hundreds of milliseconds of CPU, which many starts at once would spread over every waiting
 * episode). So the pool grows with demand, a waiting episode always has a process on the way, and at most
 * `maxIdle` processes stay warm when demand drops.
 */
export class SqliteWorkerPool {
  #maxIdle: number;
  readonly #maxStarting: number;
  readonly #limits: SqliteLimits;
  readonly #idle: SqliteWorkerProcess[] = [];
  readonly #busy = new Set<SqliteWorkerProcess>();
  readonly #starting = new Set<SqliteWorkerProcess>();
  readonly #waiters: Waiter[] = [];
  /** Processes to keep alive (idle, lent or starting) whether or not episodes wait: see `warm`. */
  #target = 0;
  #started = 0;
  #killed = 0;
  #closed = false;

  constructor(options: SqliteWorkerPoolOptions) {
    this.#maxIdle = options.maxIdle;
    this.#maxStarting = options.maxStarting ?? Math.max(1, Math.floor(availableParallelism() / 2));
    this.#limits = options.limits;
  }

  /**
   * Starts processes now, before any episode asks, until `count` exist (idle, lent or starting), still a
   * few at a time, and keeps that many warm afterwards (`maxIdle` grows to `count`). A batch that plays
   * `count` episodes at once then finds its processes loaded instead of queueing behind their starts.
   */
  warm(count: number): void {
    this.#target = Math.max(this.#target, count);
    this.#maxIdle = Math.max(this.#maxIdle, count);
    this.#grow();
  }

  /** Lends a process; with `tableKey`, an idle one that already holds that table if there is one. */
  acquire(tableKey?: string): Promise<SqliteWorkerProcess> {
    if (this.#closed) return Promise.reject(closedError());
    for (let i = this.#idle.length - 1; i >= 0; i--) if (!this.#idle[i]!.alive) this.#idle.splice(i, 1);
    const holding = tableKey === undefined ? -1 : this.#idle.findLastIndex((p) => p.tables.has(tableKey));
    const proc = holding >= 0 ? this.#idle.splice(holding, 1)[0] : this.#idle.pop();
    if (proc) return Promise.resolve(this.#lend(proc));
    return new Promise((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
      this.#grow();
    });
  }

  /** Takes back a process whose episode database was closed: it goes to a waiting episode or stays warm. */
  async release(proc: SqliteWorkerProcess): Promise<void> {
    this.#busy.delete(proc);
    await this.#offer(proc);
  }

  /** Kills a process that is stuck in a statement or broken; it is not reused. */
  discard(proc: SqliteWorkerProcess): void {
    this.#busy.delete(proc);
    this.#killed += 1;
    proc.kill();
  }

  info(): SqliteWorkerPoolInfo {
    return { busy: this.#busy.size, idle: this.#idle.length, started: this.#started, killed: this.#killed };
  }

  /** Terminates idle and starting processes and fails waiting `acquire`s; lent processes end when they come back. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const waiter of this.#waiters.splice(0)) waiter.reject(closedError());
    const procs = [...this.#idle.splice(0), ...this.#starting];
    await Promise.all(procs.map((proc) => proc.terminate()));
  }

  #lend(proc: SqliteWorkerProcess): SqliteWorkerProcess {
    proc.hold(true);
    this.#busy.add(proc);
    return proc;
  }

  /** Gives a free process to the longest-waiting episode, or keeps it warm, or ends it. */
  async #offer(proc: SqliteWorkerProcess): Promise<void> {
    if (!proc.alive) return;
    const waiter = this.#waiters.shift();
    if (waiter) {
      waiter.resolve(this.#lend(proc));
      return;
    }
    if (this.#closed || this.#idle.length >= this.#maxIdle) {
      await proc.terminate();
      return;
    }
    proc.hold(false);
    this.#idle.push(proc);
  }

  /**
   * Starts processes while more episodes wait than processes are starting, or fewer than the warm target
   * exist, up to `maxStarting` at once.
   */
  #grow(): void {
    const wanted = (): boolean =>
      this.#starting.size < this.#waiters.length || this.#idle.length + this.#busy.size + this.#starting.size < this.#target;
    while (!this.#closed && this.#starting.size < this.#maxStarting && wanted()) {
      const proc = new SqliteWorkerProcess(this.#limits);
      this.#starting.add(proc);
      this.#started += 1;
      proc.ready.then(
        () => {
          this.#starting.delete(proc);
          void this.#offer(proc);
          this.#grow();
        },
        (error: Error) => {
          this.#starting.delete(proc);
          // The episode this process was started for learns why; the others get new starts. A warm-up start
          // that fails with nobody waiting is not retried (the next acquire starts one and sees the error).
          const waiter = this.#waiters.shift();
          if (!waiter) this.#target = 0;
          waiter?.reject(error);
          this.#grow();
        },
      );
    }
  }
}

function closedError(): InternalError {
  return new InternalError({ message: 'SQLite backend used after close().' });
}
