import { fork, type ChildProcess } from 'node:child_process';

import { InternalError } from '../../episode/index.js';
import type { DbTable } from './dbbench-task.js';
import type { SqliteLimits } from './sqlite-limits.js';
import { MEMORY_KILL_MARK } from './sqlite-process-watchdog.js';
import { sqliteWorkerEntry, type SqliteWorkerEntry } from './sqlite-worker-entry.js';
import type { SqliteWorkerArgs, SqliteWorkerRequest, SqliteWorkerResponse } from './sqlite-worker.js';

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/** A request without its id: the process handle numbers requests itself. */
export type SqliteProcessRequest = WithoutId<SqliteWorkerRequest>;

/** A request that names a task table, without the rows (`requestWithTable` adds them when needed). */
type TableRequest = WithoutTable<Extract<SqliteProcessRequest, { op: 'open' | 'fresh-statement' }>>;
type WithoutTable<T> = T extends unknown ? Omit<T, 'table'> : never;

/** Why a database process ended while requests were pending. */
export type SqliteProcessEnd = 'memory' | 'crashed' | 'terminated';

/**
 * Rejects the requests of a database process that ended; `reason` tells a memory kill from a crash.
 * `sent` is false for a request that was still queued behind another one: the process never saw it, so
 * it can be sent again elsewhere (only the request in flight can have caused the end).
 */
export class SqliteProcessGone extends InternalError {
  constructor(
    readonly reason: SqliteProcessEnd,
    detail: string,
    readonly sent = true,
  ) {
    super({ message: `SQLite process ${reason === 'terminated' ? 'was terminated' : reason === 'memory' ? 'passed its memory ceiling' : 'crashed'}${detail ? `: ${detail}` : ''}.` });
  }
}

/** What the last bytes of stderr may hold; V8 prints one of these when the heap limit is hit. */
const HEAP_OUT_OF_MEMORY = /heap out of memory|Reached heap limit|Allocation failed/;
const STDERR_TAIL = 4096;

interface Settle {
  resolve: () => void;
  reject: (error: Error) => void;
}

interface Pending {
  resolve: (response: SqliteWorkerResponse) => void;
  reject: (error: Error) => void;
}

interface Queued {
  request: SqliteProcessRequest;
  timeoutMs: number | undefined;
  resolve: (response: SqliteWorkerResponse | 'timeout') => void;
  reject: (error: Error) => void;
}

/**
 * One child process running `sqlite-worker.ts`, with request/reply matching. `ready` settles once the
 * process has loaded and its watchdog runs. Once the process has ended (memory kill, crash, `kill`,
 * `terminate`), `ready` and every pending and later request are rejected with {@link SqliteProcessGone}.
 * Unlike a worker thread, a process busy inside SQLite stops at once when it is killed.
 */
export class SqliteWorkerProcess {
  readonly ready: Promise<void>;
  /** Keys of the task tables this process has been sent (it may have dropped some since: it then asks again). */
  readonly tables = new Set<string>();
  readonly #limits: SqliteLimits;
  #child: ChildProcess | null = null;
  readonly #pending = new Map<number, Pending>();
  /** Requests not sent yet: one is in flight at a time, so its timeout counts from when the process got it. */
  readonly #queue: Queued[] = [];
  #inFlight = false;
  /** A request timed out: the process may still be busy with it and sends nothing more (the owner kills it). */
  #stuck = false;
  #nextId = 1;
  #gone: SqliteProcessGone | null = null;
  #held = true;
  #exited: Promise<void> = Promise.resolve();
  #stderr = '';
  #outOfMemory = false;
  readonly #settleReady: Settle;

  constructor(limits: SqliteLimits) {
    this.#limits = limits;
    let settle: Settle | undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      settle = { resolve, reject };
    });
    this.ready.catch(() => undefined);
    this.#settleReady = settle!;
    sqliteWorkerEntry().then(
      (entry) => this.#start(entry),
      (error: Error) => this.#end(new SqliteProcessGone('crashed', `cannot prepare its entry: ${error.message}`)),
    );
  }

  #start(entry: SqliteWorkerEntry): void {
    if (this.#gone) return; // killed before it started
    const args: SqliteWorkerArgs = {
      memoryLimitBytes: this.#limits.memoryLimitMb * 1024 * 1024,
      databaseLimitBytes: this.#limits.databaseLimitMb * 1024 * 1024,
    };
    const child = fork(entry.file, [JSON.stringify(args)], {
      execArgv: [...entry.execArgv, `--max-old-space-size=${Math.floor(this.#limits.memoryLimitMb / 2)}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.#child = child;
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      // Checked as it arrives: a V8 heap failure prints its line before a long native stack.
      const seen = this.#stderr.slice(-200) + chunk;
      if (seen.includes(MEMORY_KILL_MARK) || HEAP_OUT_OF_MEMORY.test(seen)) this.#outOfMemory = true;
      this.#stderr = (this.#stderr + chunk).slice(-STDERR_TAIL);
    });
    child.on('message', (response: SqliteWorkerResponse) => {
      if (response.op === 'ready') {
        this.#settleReady.resolve();
        return;
      }
      const pending = this.#pending.get(response.id);
      if (!pending) return;
      this.#pending.delete(response.id);
      pending.resolve(response);
    });
    child.on('error', (error) => this.#end(new SqliteProcessGone('crashed', error.message)));
    // 'close' comes after the exit and after stderr is drained, so the reason can be read from it.
    this.#exited = new Promise((resolve) => {
      child.once('close', (code, signal) => {
        this.#end(this.#reason(code, signal));
        resolve();
      });
    });
    this.hold(this.#held);
  }

  get alive(): boolean {
    return this.#gone === null;
  }

  /** The process id, once it has started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /**
   * Sends one request, after the ones queued before it (the process is shared by several episode
   * databases and runs one request at a time). With `timeoutMs`, counted from when the request is sent,
   * resolves `'timeout'` when no reply came in time; the process may then still be busy with it, so it
   * sends nothing more and the caller must `kill` it.
   */
  request(request: SqliteProcessRequest, timeoutMs?: number): Promise<SqliteWorkerResponse | 'timeout'> {
    if (this.#gone) return Promise.reject(this.#gone);
    if (!this.#child) return Promise.reject(new InternalError({ message: 'SQLite process used before it was ready.' }));
    return new Promise((resolve, reject) => {
      this.#queue.push({ request, timeoutMs, resolve, reject });
      this.#pump();
    });
  }

  /**
   * Sends a request that names a task table (`open`, `fresh-statement`) with the table's rows only when
   * this process has not been sent them; a process that has dropped them since answers `unknown-table`
   * and gets the request again with the rows.
   */
  async requestWithTable(request: TableRequest, table: DbTable, timeoutMs?: number): Promise<SqliteWorkerResponse | 'timeout'> {
    const withRows = { ...request, table } as SqliteProcessRequest;
    let response = await this.request(this.tables.has(request.tableKey) ? (request as SqliteProcessRequest) : withRows, timeoutMs);
    if (response !== 'timeout' && response.op === 'unknown-table') response = await this.request(withRows, timeoutMs);
    this.tables.add(request.tableKey);
    return response;
  }

  /** Requests waiting for the process, including the one it runs. */
  get load(): number {
    return this.#queue.length + (this.#inFlight ? 1 : 0);
  }

  #pump(): void {
    if (this.#inFlight || this.#stuck || this.#gone) return;
    const next = this.#queue.shift();
    const child = this.#child;
    if (!next || !child) return;
    this.#inFlight = true;
    const id = this.#nextId++;
    let timer: NodeJS.Timeout | undefined;
    const done = (): void => {
      clearTimeout(timer);
      this.#inFlight = false;
      this.#pump();
    };
    this.#pending.set(id, {
      resolve: (response) => {
        done();
        next.resolve(response);
      },
      reject: (error) => {
        done();
        next.reject(error);
      },
    });
    if (next.timeoutMs !== undefined) {
      timer = setTimeout(() => {
        this.#pending.delete(id);
        this.#stuck = true;
        this.#inFlight = false;
        next.resolve('timeout');
      }, next.timeoutMs);
    }
    child.send({ ...next.request, id } as SqliteWorkerRequest, (error) => {
      if (!error) return;
      const pending = this.#pending.get(id);
      this.#pending.delete(id);
      pending?.reject(this.#gone ?? new SqliteProcessGone('crashed', `cannot send to it: ${error.message}`));
    });
  }

  /** Whether the process keeps the parent alive: yes while it hosts an episode, no while it waits in the pool. */
  hold(held: boolean): void {
    this.#held = held;
    const child = this.#child;
    if (!child) return;
    const handles = [child, child.channel, child.stderr] as ({ ref(): void; unref(): void } | null | undefined)[];
    for (const handle of handles) {
      if (held) handle?.ref();
      else handle?.unref();
    }
  }

  /** Ends the process at once (SIGKILL), whatever it is doing, without waiting for it to exit. */
  kill(): void {
    this.#end(new SqliteProcessGone('terminated', ''));
    this.hold(false);
    this.#child?.kill('SIGKILL');
  }

  /** Ends the process and waits until it has exited (the wait keeps the parent alive). */
  async terminate(): Promise<void> {
    this.#end(new SqliteProcessGone('terminated', ''));
    this.hold(true);
    this.#child?.kill('SIGKILL');
    await this.#exited;
  }

  #reason(code: number | null, signal: NodeJS.Signals | null): SqliteProcessGone {
    const tail = this.#stderr;
    if (this.#outOfMemory) return new SqliteProcessGone('memory', lastLine(tail));
    return new SqliteProcessGone('crashed', `exit ${signal ?? code}${tail.trim() ? `; ${lastLine(tail)}` : ''}`);
  }

  #end(error: SqliteProcessGone): void {
    if (this.#gone) return;
    this.#gone = error;
    this.#settleReady.reject(error);
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) p.reject(error);
    const unsent = new SqliteProcessGone(error.reason, 'the request was never sent to it', false);
    for (const queued of this.#queue.splice(0)) queued.reject(unsent);
  }
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines[lines.length - 1] ?? '').slice(0, 300);
}
