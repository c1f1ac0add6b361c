import { availableParallelism } from 'node:os';

import { InternalError } from '../../episode/index.js';
import { SqliteWorkerThread } from './sqlite-worker-thread.js';

/** Counters of a {@link SqliteWorkerPool}. */
export interface SqliteWorkerPoolInfo {
  /** Threads hosting an episode database now. */
  busy: number;
  /** Warm threads waiting for the next episode. */
  idle: number;
  /** Threads started so far. */
  started: number;
  /** Threads terminated because a statement would not stop (or the thread broke). */
  killed: number;
}

export interface SqliteWorkerPoolOptions {
  /** Idle threads kept warm; a thread freed while this many are idle is terminated. */
  maxIdle: number;
  /** Threads loading at once. Default: half the CPUs, at least 1. */
  maxStarting?: number;
}

interface Waiter {
  resolve: (thread: SqliteWorkerThread) => void;
  reject: (error: Error) => void;
}

/**
 * Warm SQLite worker threads shared by the episodes of one backend. A thread hosts one episode's database
 * at a time: `acquire` lends a thread, `release` takes it back once the episode's database is closed, and
 * `discard` kills a thread that cannot be trusted any more.
 *
 * With no idle thread, `acquire` waits for whichever comes first: a thread released by another episode or
 * a newly started one. New threads start while episodes are waiting, a few at a time (starting one costs
 * hundreds of milliseconds of CPU, which many starts at once would spread over every waiting episode).
 * So the pool grows with demand, a waiting episode always has a thread on the way, and at most `maxIdle`
 * threads stay warm when demand drops.
 */
export class SqliteWorkerPool {
  readonly #maxIdle: number;
  readonly #maxStarting: number;
  readonly #idle: SqliteWorkerThread[] = [];
  readonly #busy = new Set<SqliteWorkerThread>();
  readonly #starting = new Set<SqliteWorkerThread>();
  readonly #waiters: Waiter[] = [];
  #started = 0;
  #killed = 0;
  #closed = false;

  constructor(options: SqliteWorkerPoolOptions) {
    this.#maxIdle = options.maxIdle;
    this.#maxStarting = options.maxStarting ?? Math.max(1, Math.floor(availableParallelism() / 2));
  }

  acquire(): Promise<SqliteWorkerThread> {
    if (this.#closed) return Promise.reject(closedError());
    let thread = this.#idle.pop();
    while (thread && !thread.alive) thread = this.#idle.pop();
    if (thread) return Promise.resolve(this.#lend(thread));
    return new Promise((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
      this.#grow();
    });
  }

  /** Takes back a thread whose episode database was closed: it goes to a waiting episode or stays warm. */
  async release(thread: SqliteWorkerThread): Promise<void> {
    this.#busy.delete(thread);
    await this.#offer(thread);
  }

  /** Kills a thread that is stuck in a statement or broken; it is not reused. */
  discard(thread: SqliteWorkerThread): void {
    this.#busy.delete(thread);
    this.#killed += 1;
    thread.kill();
  }

  info(): SqliteWorkerPoolInfo {
    return { busy: this.#busy.size, idle: this.#idle.length, started: this.#started, killed: this.#killed };
  }

  /** Terminates idle and starting threads and fails waiting `acquire`s; lent threads end when they come back. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const waiter of this.#waiters.splice(0)) waiter.reject(closedError());
    const threads = [...this.#idle.splice(0), ...this.#starting];
    await Promise.all(threads.map((thread) => thread.terminate()));
  }

  #lend(thread: SqliteWorkerThread): SqliteWorkerThread {
    thread.hold(true);
    this.#busy.add(thread);
    return thread;
  }

  /** Gives a free thread to the longest-waiting episode, or keeps it warm, or ends it. */
  async #offer(thread: SqliteWorkerThread): Promise<void> {
    if (!thread.alive) return;
    const waiter = this.#waiters.shift();
    if (waiter) {
      waiter.resolve(this.#lend(thread));
      return;
    }
    if (this.#closed || this.#idle.length >= this.#maxIdle) {
      await thread.terminate();
      return;
    }
    thread.hold(false);
    this.#idle.push(thread);
  }

  /** Starts threads while more episodes wait than threads are starting, up to `maxStarting` at once. */
  #grow(): void {
    while (!this.#closed && this.#starting.size < this.#maxStarting && this.#starting.size < this.#waiters.length) {
      const thread = new SqliteWorkerThread();
      this.#starting.add(thread);
      this.#started += 1;
      thread.ready.then(
        () => {
          this.#starting.delete(thread);
          void this.#offer(thread);
          this.#grow();
        },
        (error: Error) => {
          this.#starting.delete(thread);
          // The episode this thread was started for learns why; the others get new starts.
          this.#waiters.shift()?.reject(error);
          this.#grow();
        },
      );
    }
  }
}

function closedError(): InternalError {
  return new InternalError({ message: 'SQLite backend used after close().' });
}
