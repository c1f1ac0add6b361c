import { parentPort } from 'node:worker_threads';

import type { SqlOutcome } from './backend.js';
import type { DbTable } from './dbbench-task.js';
import { SqliteEngine } from './sqlite-engine.js';

/**
 * Worker-thread host for {@link SqliteEngine}s, so the backend can stop a runaway statement by terminating
 * the thread (better-sqlite3 is synchronous and has no interrupt). The thread is pooled: it hosts one
 * episode's database at a time, from `open` to `close`, and then waits for the next `open`. Every `open`
 * builds a new engine (database, user variables, GROUP_CONCAT functions), so nothing carries over.
 */

export type SqliteWorkerRequest =
  | { id: number; op: 'open'; table: DbTable; databaseName: string; image?: Uint8Array }
  | { id: number; op: 'execute'; sql: string; timeoutMs: number }
  | { id: number; op: 'hash' }
  | { id: number; op: 'close' };

/**
 * `ready` (id 0) is sent once, when the thread has loaded and listens. `failed` carries what was thrown
 * (structured-cloned, so an `Error` keeps its class and message).
 */
export type SqliteWorkerResponse =
  | { id: 0; op: 'ready' }
  | { id: number; op: 'open'; setupError: string | null }
  | { id: number; op: 'execute'; outcome: SqlOutcome; image?: Uint8Array }
  | { id: number; op: 'hash'; hash: string | null }
  | { id: number; op: 'close' }
  | { id: number; op: 'failed'; error: unknown };

const port = parentPort;
if (!port) throw new Error('sqlite-worker.ts must run in a worker thread');

let episode: { engine: SqliteEngine; changeMark: string } | null = null;

function hosted(): { engine: SqliteEngine; changeMark: string } {
  if (!episode) throw new Error('no episode database is open in this SQLite worker');
  return episode;
}

function reply(response: SqliteWorkerResponse, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(response, transfer);
}

port.on('message', (request: SqliteWorkerRequest) => {
  try {
    switch (request.op) {
      case 'open': {
        if (episode) throw new Error('this SQLite worker already hosts an episode database');
        const engine = new SqliteEngine(request.table, {
          databaseName: request.databaseName,
          ...(request.image ? { image: Buffer.from(request.image) } : {}),
        });
        episode = { engine, changeMark: engine.changeMark() };
        reply({ id: request.id, op: 'open', setupError: engine.setupError });
        break;
      }
      case 'execute': {
        const current = hosted();
        const outcome = current.engine.execute(request.sql, request.timeoutMs);
        const mark = current.engine.changeMark();
        // After a change, send a snapshot so the database survives if a later statement must be killed.
        const image = mark !== current.changeMark ? new Uint8Array(current.engine.serialize()) : undefined;
        current.changeMark = mark;
        reply({ id: request.id, op: 'execute', outcome, ...(image ? { image } : {}) }, image ? [image.buffer as ArrayBuffer] : []);
        break;
      }
      case 'hash':
        reply({ id: request.id, op: 'hash', hash: hosted().engine.tableHash() });
        break;
      case 'close':
        episode?.engine.close();
        episode = null;
        reply({ id: request.id, op: 'close' });
        break;
    }
  } catch (error) {
    try {
      reply({ id: request.id, op: 'failed', error });
    } catch {
      reply({ id: request.id, op: 'failed', error: new Error(error instanceof Error ? error.message : String(error)) });
    }
  }
});

reply({ id: 0, op: 'ready' });
