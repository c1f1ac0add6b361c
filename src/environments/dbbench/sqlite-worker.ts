import type { SqlOutcome } from './backend.js';
import type { DbTable } from './dbbench-task.js';
import { SqliteEngine, type SqliteSessionState } from './sqlite-engine.js';
import { startWatchdog } from './sqlite-process-watchdog.js';
import { warmUpSqliteEngine } from './sqlite-warm-up.js';

/**
 * Child-process host for {@link SqliteEngine}s (see `sqlite-limits.ts` for why a process). The process is
 * pooled and shared: it hosts the databases of several episodes at once, each under the session number
 * the parent gave it, from `open` to `close`. Every `open` builds a new engine (database, user variables,
 * GROUP_CONCAT functions), so nothing carries over between episodes. Requests run one at a time. It
 * talks to its parent over the IPC channel (advanced serialization, so snapshots travel as bytes) and
 * ends when the channel closes.
 */

export type SqliteWorkerRequest =
  | { id: number; op: 'open'; session: number; tableKey: string; table?: DbTable; databaseName: string; image?: Uint8Array; state?: SqliteSessionState }
  | { id: number; op: 'execute'; session: number; sql: string; timeoutMs: number }
  | { id: number; op: 'hash'; session: number }
  | { id: number; op: 'close'; session: number }
  /** One statement on a fresh copy of a table, then its hash: a gold replay in one request, nothing kept. */
  | { id: number; op: 'fresh-statement'; tableKey: string; table?: DbTable; databaseName: string; sql: string; timeoutMs: number };

/** `ready` (id 0) is sent once, when the process has loaded and its watchdog runs. `failed` carries what was thrown. */
export type SqliteWorkerResponse =
  | { id: 0; op: 'ready' }
  | { id: number; op: 'open'; setupError: string | null }
  /** `open` named a table this process does not hold (never sent, or dropped from its cache): send the rows. */
  | { id: number; op: 'unknown-table' }
  /** `state` always, `image` after a statement that changed the database: enough to rebuild it elsewhere. */
  | { id: number; op: 'execute'; outcome: SqlOutcome; image?: Uint8Array; state: SqliteSessionState }
  | { id: number; op: 'hash'; hash: string | null }
  | { id: number; op: 'close' }
  /** `outcome` and `hash` are null when the table could not be set up (`setupError`). */
  | { id: number; op: 'fresh-statement'; setupError: string | null; outcome: SqlOutcome | null; hash: string | null }
  | { id: number; op: 'failed'; error: { name: string; message: string } };

/** What the parent passes as the process's only argument (JSON). */
export interface SqliteWorkerArgs {
  memoryLimitBytes: number;
  databaseLimitBytes: number;
}

if (typeof process.send !== 'function') throw new Error('sqlite-worker.ts must run as a forked child process');
const args = JSON.parse(process.argv[2] ?? '{}') as SqliteWorkerArgs;

const episodes = new Map<number, { engine: SqliteEngine; changeMark: string }>();

/**
 * Tables this process has built, by key: the rows and the database image right after the table was
 * loaded, so the next episode on the same table starts from the image instead of re-inserting the rows
 * (the same bytes either way). The least recently used are dropped past {@link TABLE_CACHE_SIZE}.
 */
const TABLE_CACHE_SIZE = 64;
const tables = new Map<string, { table: DbTable; image: Buffer | undefined }>();

function cachedTable(key: string, table: DbTable | undefined): { table: DbTable; image: Buffer | undefined } | undefined {
  const hit = tables.get(key);
  if (hit) {
    tables.delete(key);
    tables.set(key, hit);
    return hit;
  }
  if (!table) return undefined;
  const entry = { table, image: undefined };
  tables.set(key, entry);
  while (tables.size > TABLE_CACHE_SIZE) tables.delete(tables.keys().next().value!);
  return entry;
}

/**
 * A new engine on a cached table: from `image` (a snapshot after a kill) with `state`, else from the
 * table's image once it has been built here (the first build takes that image).
 */
function freshEngine(cached: { table: DbTable; image: Buffer | undefined }, databaseName: string, image?: Buffer, state?: SqliteSessionState): SqliteEngine {
  const start = image ?? cached.image;
  const engine = new SqliteEngine(cached.table, {
    databaseName,
    maxDatabaseBytes: args.databaseLimitBytes,
    ...(start ? { image: start } : {}),
    ...(state ? { state } : {}),
  });
  if (!start && engine.setupError === null) cached.image = engine.serialize();
  return engine;
}

function hosted(session: number): { engine: SqliteEngine; changeMark: string } {
  const episode = episodes.get(session);
  if (!episode) throw new Error(`no episode database ${session} is open in this SQLite process`);
  return episode;
}

function reply(response: SqliteWorkerResponse): void {
  process.send!(response);
}

function handle(request: SqliteWorkerRequest): void {
  switch (request.op) {
    case 'open': {
      if (episodes.has(request.session)) throw new Error(`this SQLite process already hosts episode database ${request.session}`);
      const cached = cachedTable(request.tableKey, request.table);
      if (!cached) {
        reply({ id: request.id, op: 'unknown-table' });
        break;
      }
      // A snapshot after a kill wins; else the table's image once it has been built here.
      const image = request.image ? Buffer.from(request.image.buffer, request.image.byteOffset, request.image.byteLength) : undefined;
      const engine = freshEngine(cached, request.databaseName, image, request.state);
      episodes.set(request.session, { engine, changeMark: engine.changeMark() });
      reply({ id: request.id, op: 'open', setupError: engine.setupError });
      break;
    }
    case 'fresh-statement': {
      const cached = cachedTable(request.tableKey, request.table);
      if (!cached) {
        reply({ id: request.id, op: 'unknown-table' });
        break;
      }
      const engine = freshEngine(cached, request.databaseName);
      try {
        if (engine.setupError !== null) {
          reply({ id: request.id, op: 'fresh-statement', setupError: engine.setupError, outcome: null, hash: null });
          break;
        }
        const outcome = engine.execute(request.sql, request.timeoutMs);
        reply({ id: request.id, op: 'fresh-statement', setupError: null, outcome, hash: engine.tableHash() });
      } finally {
        engine.close();
      }
      break;
    }
    case 'execute': {
      const current = hosted(request.session);
      const outcome = current.engine.execute(request.sql, request.timeoutMs);
      const mark = current.engine.changeMark();
      // After a change, send a snapshot so the database survives if a later statement must be killed.
      const image = mark !== current.changeMark ? new Uint8Array(current.engine.serialize()) : undefined;
      current.changeMark = mark;
      reply({ id: request.id, op: 'execute', outcome, state: current.engine.sessionState(), ...(image ? { image } : {}) });
      break;
    }
    case 'hash':
      reply({ id: request.id, op: 'hash', hash: hosted(request.session).engine.tableHash() });
      break;
    case 'close':
      episodes.get(request.session)?.engine.close();
      episodes.delete(request.session);
      reply({ id: request.id, op: 'close' });
      break;
  }
}

const busy = await startWatchdog(args.memoryLimitBytes);
// Before it reports ready, so the first episode's statements do not pay for compiling the engine.
warmUpSqliteEngine(args.databaseLimitBytes);

process.on('message', (request: SqliteWorkerRequest) => {
  // The watchdog samples memory only while this flag is set.
  Atomics.store(busy, 0, 1);
  try {
    handle(request);
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    reply({ id: request.id, op: 'failed', error: { name: e.name, message: e.message } });
  } finally {
    Atomics.store(busy, 0, 0);
  }
});
process.on('disconnect', () => process.exit(0));

reply({ id: 0, op: 'ready' });
