import type { DbSession } from './backend.js';

/** A session of the SQLite backend; `setupError` is set when MySQL would have refused to create the task table. */
export interface SqliteSession extends DbSession {
  readonly setupError: string | null;
}
