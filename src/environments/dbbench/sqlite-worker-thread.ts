import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

import { InternalError } from '../../episode/index.js';
import type { SqliteWorkerRequest, SqliteWorkerResponse } from './sqlite-worker.js';

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/** A request without its id: the thread numbers requests itself. */
export type SqliteThreadRequest = WithoutId<SqliteWorkerRequest>;

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

interface Settle {
  resolve: () => void;
  reject: (error: Error) => void;
}

interface Pending {
  resolve: (response: SqliteWorkerResponse) => void;
  reject: (error: Error) => void;
}

/**
 * One worker thread running `sqlite-worker.ts`, with request/reply matching. `ready` settles once the
 * thread has loaded (requests sent earlier wait in its message queue). Once the thread has exited (crash,
 * `kill`, `terminate`), `ready` and every pending and later request are rejected.
 */
export class SqliteWorkerThread {
  readonly ready: Promise<void>;
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #gone: Error | null = null;
  readonly #settleReady: Settle;

  constructor() {
    let settle: Settle | undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      settle = { resolve, reject };
    });
    this.ready.catch(() => undefined);
    this.#settleReady = settle!;
    const { entry, eval: isEval } = workerEntry();
    this.#worker = new Worker(entry, { eval: isEval });
    this.#worker.on('message', (response: SqliteWorkerResponse) => {
      if (response.op === 'ready') {
        this.#settleReady.resolve();
        return;
      }
      const pending = this.#pending.get(response.id);
      if (!pending) return;
      this.#pending.delete(response.id);
      pending.resolve(response);
    });
    this.#worker.on('error', (error) => this.#end(error));
    this.#worker.on('exit', (code) => this.#end(new InternalError({ message: `SQLite worker exited (code ${code}).` })));
  }

  get alive(): boolean {
    return this.#gone === null;
  }

  /**
   * Sends one request. With `timeoutMs`, resolves `'timeout'` when no reply came in time; the thread may
   * then still be busy with the request, so the caller must `kill` it.
   */
  request(request: SqliteThreadRequest, timeoutMs?: number): Promise<SqliteWorkerResponse | 'timeout'> {
    if (this.#gone) return Promise.reject(this.#gone);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      this.#pending.set(id, {
        resolve: (response) => {
          clearTimeout(timer);
          resolve(response);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          this.#pending.delete(id);
          resolve('timeout');
        }, timeoutMs);
      }
      this.#worker.postMessage({ ...request, id } as SqliteWorkerRequest);
    });
  }

  /** Whether the thread keeps the process alive: yes while it hosts an episode, no while it waits in the pool. */
  hold(held: boolean): void {
    if (held) this.#worker.ref();
    else this.#worker.unref();
  }

  /** Ends the thread without waiting: a thread busy inside SQLite only stops when it next runs JS. */
  kill(): void {
    this.#end(new InternalError({ message: 'SQLite worker was terminated.' }));
    this.#worker.unref();
    void this.#worker.terminate();
  }

  /** Ends an idle thread and waits until it has exited. */
  async terminate(): Promise<void> {
    this.#end(new InternalError({ message: 'SQLite worker was terminated.' }));
    await this.#worker.terminate();
  }

  #end(error: Error): void {
    if (this.#gone) return;
    this.#gone = error;
    this.#settleReady.reject(error);
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}
