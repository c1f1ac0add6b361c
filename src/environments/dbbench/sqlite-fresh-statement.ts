import type { FreshStatementResult } from './backend.js';
import type { DbTable } from './dbbench-task.js';
import type { SqliteWorkerPool } from './sqlite-worker-pool.js';
import { SqliteProcessGone } from './sqlite-worker-process.js';
import { KILL_GRACE_MS } from './sqlite-worker-session.js';
import { sqliteTableKey } from './sqlite-table-key.js';

/**
 * `runOnFreshTable` of the process isolation: a pooled process builds the table (from its cached image
 * when it has one), runs the statement, hashes and drops the database, all in one request, so a gold
 * replay costs one exchange instead of four. Anything but a plain answer — the statement had to be
 * killed, the process ended, it failed — gives undefined, and the caller replays step by step, where
 * every such case has its own handling.
 */
export async function runOnFreshTable(pool: SqliteWorkerPool, table: DbTable, databaseName: string, sql: string, timeoutMs: number): Promise<FreshStatementResult | undefined> {
  const tableKey = sqliteTableKey(table);
  const proc = await pool.acquire(tableKey);
  let response;
  try {
    response = await proc.requestWithTable({ op: 'fresh-statement', tableKey, databaseName, sql, timeoutMs }, table, timeoutMs + KILL_GRACE_MS);
  } catch (error) {
    // Never sent (a neighbour's statement ended the process first): the process is given back as an
    // episode's would be. Sent: this statement may have ended it.
    if (error instanceof SqliteProcessGone && !error.sent) await pool.release(proc);
    else pool.discard(proc);
    return undefined;
  }
  if (response === 'timeout') {
    // Still busy with the statement: it is killed, as an episode's would be.
    pool.discard(proc);
    return undefined;
  }
  await pool.release(proc);
  if (response.op !== 'fresh-statement') return undefined;
  return { setupError: response.setupError, outcome: response.outcome, hash: response.hash };
}
