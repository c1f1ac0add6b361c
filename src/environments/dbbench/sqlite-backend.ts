import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

import { InternalError } from '../../episode/index.js';
import type { DbBackend, DbSession, SqlOutcome } from './backend.js';
import type { DbTable } from './dbbench-task.js';
import { SqliteEngine } from './sqlite-engine.js';
import type { SqliteWorkerData, SqliteWorkerRequest, SqliteWorkerResponse } from './sqlite-worker.js';

/** The FC harness gives each statement 60 s (`asyncio.wait_for(…, 60)`). */
export const DEFAULT_SQL_TIMEOUT_MS = 60_000;

/** How long past the timeout a worker may take to cancel a statement itself before it is terminated. */
const KILL_GRACE_MS = 2_000;

/**
 * Options for {@link createSqliteBackend}.
 *
 * Timeouts: better-sqlite3 runs a statement synchronously, and this build has neither a progress handler
 * nor `sqlite3_interrupt`. The rewriter therefore puts a `mysql_tick()` call in every SELECT/UPDATE/DELETE
 * WHERE clause; it runs once per candidate row and throws once the statement's deadline has passed, which
 * aborts the statement (SQLite undoes its changes) and yields `{ kind: 'timeout' }`. That covers scans,
 * cross joins and runaway recursive CTEs, in both modes:
 * - `isolation: 'worker'` (default): each episode's database lives in its own worker thread. If a statement
 *   does not stop itself within 2 s after the deadline (e.g. one huge regular expression), the thread is
 *   terminated, the agent gets a timeout, and the database is rebuilt from the snapshot taken after the
 *   last statement that changed it, so the killed statement has no effect.
 * - `isolation: 'inline'`: the database lives in the calling thread (fast; tests and gold replays). A
 *   statement the tick cannot stop runs to completion; if it took longer than the timeout it is reported
 *   as a timeout and its changes are kept, which is what MySQL does when the client stops waiting.
 *
 * DDL and statements passed through without rewriting carry no tick.
 */
export interface SqliteBackendOptions {
  isolation?: 'worker' | 'inline';
  /** Name reported by `SELECT DATABASE()` and in error messages; a function receives the task table. Default `dbbench`. */
  databaseName?: string | ((table: DbTable) => string);
  /** Per-statement timeout when `openEpisode` does not give one. Default 60 s. */
  sqlTimeoutMs?: number;
}

/** A session of this backend; `setupError` is set when MySQL would have refused to create the task table. */
export interface SqliteSession extends DbSession {
  readonly setupError: string | null;
}

class InlineSession implements SqliteSession {
  readonly setupError: string | null;
  #engine: SqliteEngine | null;

  constructor(
    table: DbTable,
    databaseName: string,
    private readonly timeoutMs: number,
    private readonly onDispose: () => void,
  ) {
    this.#engine = new SqliteEngine(table, { databaseName });
    this.setupError = this.#engine.setupError;
  }

  private engine(): SqliteEngine {
    if (!this.#engine) throw new InternalError({ message: 'DbSession used after dispose().' });
    return this.#engine;
  }

  async execute(sql: string): Promise<SqlOutcome> {
    const started = performance.now();
    const outcome = this.engine().execute(sql, this.timeoutMs);
    return performance.now() - started > this.timeoutMs ? { kind: 'timeout' } : outcome;
  }

  async tableHash(): Promise<string | null> {
    return this.engine().tableHash();
  }

  async dispose(): Promise<void> {
    this.#engine?.close();
    this.#engine = null;
    this.onDispose();
  }
}

/**
 * How to start the worker: the compiled `sqlite-worker.js` directly, or, when running from TypeScript
 * sources (tsx, vitest), a small bootstrap that registers tsx's loader in the worker and then imports
 * `sqlite-worker.ts`.
 */
function workerEntry(): { entry: string | URL; eval: boolean } {
  const fromSource = import.meta.url.endsWith('.ts');
  if (!fromSource) return { entry: new URL('./sqlite-worker.js', import.meta.url), eval: false };
  // tsx's exports map sends `import` of `tsx/esm/api` to dist/esm/api/index.mjs.
  const tsxRoot = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const api = pathToFileURL(path.join(tsxRoot, 'dist', 'esm', 'api', 'index.mjs')).href;
  const target = new URL('./sqlite-worker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(target)}); });`;
  return { entry: bootstrap, eval: true };
}

interface Pending {
  resolve: (response: SqliteWorkerResponse) => void;
  reject: (error: Error) => void;
}

class WorkerSession implements SqliteSession {
  setupError: string | null = null;
  #worker: Worker | null = null;
  #image: Uint8Array | undefined;
  #nextId = 1;
  #pending = new Map<number, Pending>();
  #queue: Promise<unknown> = Promise.resolve();
  #disposed = false;

  constructor(
    private readonly table: DbTable,
    private readonly databaseName: string,
    private readonly timeoutMs: number,
    private readonly onDispose: () => void,
  ) {}

  /** Starts (or restarts from the last snapshot) the worker and waits until its database is ready. */
  async start(): Promise<void> {
    const { entry, eval: isEval } = workerEntry();
    const data: SqliteWorkerData = { table: this.table, databaseName: this.databaseName, ...(this.#image ? { image: this.#image } : {}) };
    const worker = new Worker(entry, { workerData: data, eval: isEval });
    this.#worker = worker;
    const ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: SqliteWorkerResponse): void => {
        if (message.op === 'ready') {
          this.setupError = message.setupError;
          resolve();
          return;
        }
        const pending = this.#pending.get(message.id);
        if (!pending) return;
        this.#pending.delete(message.id);
        pending.resolve(message);
      };
      worker.on('message', onMessage);
      worker.once('error', (error) => {
        reject(error);
        this.failAll(error);
      });
      worker.once('exit', (code) => {
        const error = new InternalError({ message: `SQLite worker exited (code ${code}).` });
        reject(error);
        this.failAll(error);
      });
    });
    await ready;
  }

  private failAll(error: Error): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }

  private send(request: SqliteWorkerRequest, timeoutMs?: number): Promise<SqliteWorkerResponse | 'timeout'> {
    const worker = this.#worker;
    if (!worker || this.#disposed) return Promise.reject(new InternalError({ message: 'DbSession used after dispose().' }));
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      this.#pending.set(request.id, {
        resolve: (response) => {
          if (timer) clearTimeout(timer);
          resolve(response);
        },
        reject: (error) => {
          if (timer) clearTimeout(timer);
          reject(error);
        },
      });
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          this.#pending.delete(request.id);
          resolve('timeout');
        }, timeoutMs);
      }
      worker.postMessage(request);
    });
  }

  /** Runs calls one at a time: a timeout replaces the worker, which must not happen under another call. */
  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  execute(sql: string): Promise<SqlOutcome> {
    return this.serial(async () => {
      // The engine cancels the statement itself at the deadline; the thread is only killed if it does not.
      const response = await this.send({ id: this.#nextId++, op: 'execute', sql, timeoutMs: this.timeoutMs }, this.timeoutMs + KILL_GRACE_MS);
      if (response === 'timeout') {
        await this.restart();
        return { kind: 'timeout' } as const;
      }
      if (response.op === 'failed') throw new InternalError({ message: `SQLite worker failed: ${response.message}` });
      if (response.op !== 'execute') throw new InternalError({ message: `Unexpected SQLite worker reply '${response.op}'.` });
      if (response.image) this.#image = response.image;
      return response.outcome;
    });
  }

  private async restart(): Promise<void> {
    const old = this.#worker;
    this.#worker = null;
    if (old) {
      old.removeAllListeners('exit');
      old.removeAllListeners('error');
      // A thread busy inside SQLite only stops when it next runs JS; do not wait for it.
      old.unref();
      void old.terminate();
    }
    await this.start();
  }

  tableHash(): Promise<string | null> {
    return this.serial(async () => {
      const response = await this.send({ id: this.#nextId++, op: 'hash' });
      if (response === 'timeout' || response.op !== 'hash') throw new InternalError({ message: 'Unexpected SQLite worker reply to tableHash.' });
      return response.hash;
    });
  }

  dispose(): Promise<void> {
    return this.serial(async () => {
      if (this.#disposed) return;
      this.#disposed = true;
      const worker = this.#worker;
      this.#worker = null;
      if (worker) {
        worker.removeAllListeners('exit');
        worker.removeAllListeners('error');
        await worker.terminate();
      }
      this.onDispose();
    });
  }
}

/**
 * The default DBBench backend: embedded SQLite (better-sqlite3) with the MySQL compatibility layer of
 * `mysql-compat/`. Every episode gets a fresh in-memory database holding the task table, all columns
 * TEXT, cells inserted as Python `str()` of the JSON values (the FC loader's `str(col)`).
 */
export function createSqliteBackend(options: SqliteBackendOptions = {}): DbBackend {
  const isolation = options.isolation ?? 'worker';
  const nameFor = (table: DbTable): string =>
    typeof options.databaseName === 'function' ? options.databaseName(table) : (options.databaseName ?? 'dbbench');
  const sessions = new Set<SqliteSession>();
  let closed = false;
  return {
    name: 'sqlite',
    async openEpisode(table, episodeOptions) {
      if (closed) throw new InternalError({ message: 'SQLite backend used after close().' });
      const timeout = episodeOptions?.sqlTimeoutMs ?? options.sqlTimeoutMs ?? DEFAULT_SQL_TIMEOUT_MS;
      let session: SqliteSession;
      const forget = (): void => {
        sessions.delete(session);
      };
      if (isolation === 'inline') {
        session = new InlineSession(table, nameFor(table), timeout, forget);
      } else {
        const worker = new WorkerSession(table, nameFor(table), timeout, forget);
        session = worker;
        await worker.start();
      }
      sessions.add(session);
      return session;
    },
    async close() {
      closed = true;
      await Promise.all([...sessions].map((s) => s.dispose()));
    },
  };
}
