import { parentPort, workerData } from 'node:worker_threads';

import type { SqlOutcome } from './backend.js';
import type { DbTable } from './dbbench-task.js';
import { SqliteEngine } from './sqlite-engine.js';

/**
 * Worker-thread host for one episode's {@link SqliteEngine}, so the backend can stop a runaway statement
 * by terminating the thread (better-sqlite3 is synchronous and has no interrupt).
 */

export interface SqliteWorkerData {
  table: DbTable;
  databaseName: string;
  image?: Uint8Array;
}

export type SqliteWorkerRequest = { id: number; op: 'execute'; sql: string; timeoutMs: number } | { id: number; op: 'hash' } | { id: number; op: 'close' };

export type SqliteWorkerResponse =
  | { id: 0; op: 'ready'; setupError: string | null }
  | { id: number; op: 'execute'; outcome: SqlOutcome; image?: Uint8Array }
  | { id: number; op: 'hash'; hash: string | null }
  | { id: number; op: 'close' }
  | { id: number; op: 'failed'; message: string };

const data = workerData as SqliteWorkerData;
const port = parentPort;
if (!port) throw new Error('sqlite-worker.ts must run in a worker thread');

const engine = new SqliteEngine(data.table, {
  databaseName: data.databaseName,
  ...(data.image ? { image: Buffer.from(data.image) } : {}),
});
let changeMark = engine.changeMark();
port.postMessage({ id: 0, op: 'ready', setupError: engine.setupError } satisfies SqliteWorkerResponse);

port.on('message', (request: SqliteWorkerRequest) => {
  try {
    switch (request.op) {
      case 'execute': {
        const outcome = engine.execute(request.sql, request.timeoutMs);
        const mark = engine.changeMark();
        // After a change, send a snapshot so the database survives if a later statement must be killed.
        const image = mark !== changeMark ? new Uint8Array(engine.serialize()) : undefined;
        changeMark = mark;
        port.postMessage({ id: request.id, op: 'execute', outcome, ...(image ? { image } : {}) } satisfies SqliteWorkerResponse);
        break;
      }
      case 'hash':
        port.postMessage({ id: request.id, op: 'hash', hash: engine.tableHash() } satisfies SqliteWorkerResponse);
        break;
      case 'close':
        engine.close();
        port.postMessage({ id: request.id, op: 'close' } satisfies SqliteWorkerResponse);
        port.close();
        break;
    }
  } catch (error) {
    port.postMessage({ id: request.id, op: 'failed', message: error instanceof Error ? error.message : String(error) } satisfies SqliteWorkerResponse);
  }
});
