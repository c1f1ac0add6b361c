import { availableParallelism } from 'node:os';

import { InternalError } from '../../episode/index.js';
import type { SqliteLimits } from './sqlite-limits.js';
import { SqliteWorkerProcess } from './sqlite-worker-process.js';

/** Counters of a {@link SqliteWorkerPool}. */
export interface SqliteWorkerPoolInfo {
  /** Live processes hosting at least one episode database now. */
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
  /**
   * Processes alive at most. Past it, episodes share processes: `acquire` lends the live process hosting
   * the fewest episode databases. Default: no cap (one process per open episode).
   */
  maxProcesses?: number;
}

interface Waiter {
  resolve: (proc: SqliteWorkerProcess) => void;
  reject: (error: Error) => void;
}

/**
 * Warm SQLite database processes shared by the episodes of one backend. `acquire` lends a process,
 * `release` takes it back once the episode's database is closed, and `discard` kills a process that
 * cannot be trusted any more. Below `maxProcesses` a process hosts one episode's database at a time; at
 * the cap, episodes share processes (see `sqlite-worker-session.ts` for what a kill then does to the
 * neighbours).
 *
 * With no idle process, `acquire` waits for whichever comes first: a process released by another episode
 * or a newly started one. New processes start while episodes are waiting, a few at a time (starting one
 * costs hundreds of milliseconds of CPU, which many starts at once would spread over every waiting
 * episode). So the pool grows with demand, a waiting episode always has a process on the way, and at most
 * `maxIdle` processes stay warm when demand drops. `warm` instead starts the processes a batch will need
 * all at once, before its first episode.
 */
export class SqliteWorkerPool {
  #maxIdle: number;
  readonly #maxStarting: number;
  readonly #limits: SqliteLimits;
  readonly #idle: SqliteWorkerProcess[] = [];
  /** Lent processes and how many episode databases each hosts. */
  readonly #busy = new Map<SqliteWorkerProcess, number>();
  readonly #maxProcesses: number;
  /** Processes loading, each with the waiting episodes promised to it at the process cap (see `#share`). */
  readonly #starting = new Map<SqliteWorkerProcess, Waiter[]>();
  readonly #waiters: Waiter[] = [];
  /** Processes to keep alive (idle, lent or starting) whether or not episodes wait: see `warm`. */
  #target = 0;
  /** Processes counted in `killed` already (several episodes may discard the same process). */
  readonly #discarded = new WeakSet<SqliteWorkerProcess>();
  #started = 0;
  #killed = 0;
  #closed = false;

  constructor(options: SqliteWorkerPoolOptions) {
    this.#maxIdle = options.maxIdle;
    this.#maxStarting = options.maxStarting ?? Math.max(1, Math.floor(availableParallelism() / 2));
    this.#limits = options.limits;
    this.#maxProcesses = options.maxProcesses ?? Number.POSITIVE_INFINITY;
  }

  /**
   * Starts processes now, before any episode asks, until `count` exist (idle, lent or starting, at most
   * `maxProcesses`), all at once rather than `maxStarting` at a time, and keeps that many warm afterwards
   * (`maxIdle` grows to `count`). A batch that plays `count` episodes at once then finds its processes
   * loaded, or loading side by side, instead of queueing behind starts made one after another.
   */
  warm(count: number): void {
    this.#target = Math.max(this.#target, Math.min(count, this.#maxProcesses));
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
      this.#share();
    });
  }

  /**
   * Takes back a process whose episode database was closed (or that died under it): once it hosts no
   * other episode it goes to a waiting episode or stays warm.
   */
  async release(proc: SqliteWorkerProcess): Promise<void> {
    const hosted = (this.#busy.get(proc) ?? 1) - 1;
    if (hosted > 0 && proc.alive) {
      this.#busy.set(proc, hosted);
      return;
    }
    this.#busy.delete(proc);
    await this.#offer(proc);
  }

  /**
   * Kills a process that is stuck in a statement or broken; it is not reused. The other episodes it
   * hosts find it dead at their next call, rebuild their databases elsewhere and `release` it.
   */
  discard(proc: SqliteWorkerProcess): void {
    const hosted = (this.#busy.get(proc) ?? 1) - 1;
    if (hosted > 0) this.#busy.set(proc, hosted);
    else this.#busy.delete(proc);
    if (!this.#discarded.has(proc)) this.#killed += 1;
    this.#discarded.add(proc);
    proc.kill();
    this.#grow();
    this.#share();
  }

  info(): SqliteWorkerPoolInfo {
    return { busy: [...this.#busy.keys()].filter((p) => p.alive).length, idle: this.#idle.length, started: this.#started, killed: this.#killed };
  }

  /** Terminates idle and starting processes and fails waiting `acquire`s; lent processes end when they come back. */
  async close(): Promise<void> {
    this.#closed = true;
    const promised = [...this.#starting.values()].flatMap((waiters) => waiters.splice(0));
    for (const waiter of [...this.#waiters.splice(0), ...promised]) waiter.reject(closedError());
    const procs = [...this.#idle.splice(0), ...this.#starting.keys()];
    await Promise.all(procs.map((proc) => proc.terminate()));
  }

  #lend(proc: SqliteWorkerProcess): SqliteWorkerProcess {
    proc.hold(true);
    this.#busy.set(proc, (this.#busy.get(proc) ?? 0) + 1);
    return proc;
  }

  /** Live processes, lent or idle or starting. */
  #alive(): number {
    let lent = 0;
    for (const proc of this.#busy.keys()) if (proc.alive) lent += 1;
    return lent + this.#idle.length + this.#starting.size;
  }

  /**
   * At the process cap, waiting episodes share processes: each goes to the process with the fewest
   * episode databases, counting a lent process's hosted databases and a starting process's promised
   * episodes (a ready process wins a tie). A waiter given a ready process is lent it at once, even while
   * others are still starting; one given a starting process is lent it when it is ready. An episode stays
   * on its process to the end, so spreading the episodes of a batch's first wave evenly over all the
   * processes matters more than the few milliseconds between two processes becoming ready.
   */
  #share(): void {
    while (this.#waiters.length > 0 && this.#alive() >= this.#maxProcesses) {
      let best: SqliteWorkerProcess | undefined;
      let fewest = Number.POSITIVE_INFINITY;
      for (const [proc, hosted] of this.#busy) {
        if (proc.alive && hosted < fewest) [best, fewest] = [proc, hosted];
      }
      let loading: Waiter[] | undefined;
      for (const promised of this.#starting.values()) {
        if (promised.length < fewest) [loading, fewest] = [promised, promised.length];
      }
      if (loading) loading.push(this.#waiters.shift()!);
      else if (best) this.#waiters.shift()!.resolve(this.#lend(best));
      else return;
    }
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
   * Starts processes while fewer than the warm target exist (all at once), or while more episodes wait
   * than processes are starting (up to `maxStarting` at once).
   */
  #grow(): void {
    const wanted = (): boolean =>
      this.#alive() < this.#target || (this.#starting.size < this.#maxStarting && this.#starting.size < this.#waiters.length);
    while (!this.#closed && this.#alive() < this.#maxProcesses && wanted()) {
      const proc = new SqliteWorkerProcess(this.#limits);
      this.#starting.set(proc, []);
      this.#started += 1;
      proc.ready.then(
        () => {
          const promised = this.#starting.get(proc) ?? [];
          this.#starting.delete(proc);
          if (promised.length > 0) for (const waiter of promised) waiter.resolve(this.#lend(proc));
          else void this.#offer(proc);
          this.#grow();
          this.#share();
        },
        (error: Error) => {
          // Episodes promised to this process wait again, first in line.
          this.#waiters.unshift(...(this.#starting.get(proc) ?? []));
          this.#starting.delete(proc);
          // The episode this process was started for learns why; the others get new starts. A warm-up start
          // that fails with nobody waiting is not retried (the next acquire starts one and sees the error).
          const waiter = this.#waiters.shift();
          if (!waiter) this.#target = 0;
          waiter?.reject(error);
          this.#grow();
          this.#share();
        },
      );
    }
  }
}

function closedError(): InternalError {
  return new InternalError({ message: 'SQLite backend used after close().' });
}
