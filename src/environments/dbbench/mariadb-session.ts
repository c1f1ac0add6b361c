import type { Connection } from 'mysql2/promise';

import { InternalError } from '../../episode/index.js';
import type { DbSession, SqlOutcome } from './backend.js';
import type { DbTable } from './dbbench-task.js';
import type { EpisodeAccount } from './mariadb-accounts.js';
import { castValue, firstRowSet, formatConnectorError, isFatal } from './mariadb-values.js';

/** After `KILL QUERY`, how long a statement may take to stop before its connection is killed. */
const KILL_GRACE_MS = 5_000;

/** What a session needs from its backend. */
export interface MariaDbSessionHost {
  /** A new connection as the episode's account, to its database, with the episode's settings. */
  connectAs(account: EpisodeAccount): Promise<Connection>;
  /** Stops a statement (`QUERY`) or a whole connection of the episode's account; as that account, which may kill its own threads. */
  killAs(account: EpisodeAccount, threadId: number, what: 'QUERY' | 'CONNECTION'): Promise<void>;
  hashTables(database: string, tables: readonly DbTable[]): Promise<string | null>;
  /** Drops the episode's account and database (and forgets the session). */
  release(session: MariaDbSession, account: EpisodeAccount): Promise<void>;
}

/**
 * One episode on MariaDB: a dedicated connection as the episode's own account, every statement
 * followed by a COMMIT (as AgentBench FC does), a timeout enforced with KILL QUERY and, if that does not
 * stop the statement, KILL CONNECTION (the next statement reconnects).
 */
export class MariaDbSession implements DbSession {
  readonly setupError: string | null;
  readonly #host: MariaDbSessionHost;
  readonly #account: EpisodeAccount;
  readonly #table: DbTable;
  readonly #timeoutMs: number;
  #conn: Connection | null;
  #disposed = false;
  /** A statement has been sent and has not answered (dispose() may come while one runs). */
  #inFlight = false;

  constructor(options: { host: MariaDbSessionHost; account: EpisodeAccount; table: DbTable; conn: Connection; timeoutMs: number; setupError: string | null }) {
    this.#host = options.host;
    this.#account = options.account;
    this.#table = options.table;
    this.#conn = options.conn;
    this.#timeoutMs = options.timeoutMs;
    this.setupError = options.setupError;
  }

  async execute(sql: string): Promise<SqlOutcome> {
    if (this.#disposed) throw new InternalError({ message: 'DbSession.execute called after dispose().' });
    let conn: Connection;
    try {
      conn = await this.#connection();
    } catch (cause) {
      return { kind: 'error', message: formatConnectorError(cause) };
    }
    const threadId = conn.threadId;
    let timedOut = false;
    let killing: Promise<void> | undefined;
    let deadline: NodeJS.Timeout | undefined;
    let grace: NodeJS.Timeout | undefined;
    this.#inFlight = true;
    const running = conn.query({ sql, rowsAsArray: true, typeCast: castValue }).then(
      ([result, fields]) => ({ ok: true as const, result, fields }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    void running.then(() => {
      this.#inFlight = false;
    });
    const stuck = new Promise<'stuck'>((resolve) => {
      deadline = setTimeout(() => {
        timedOut = true;
        killing = this.#host.killAs(this.#account, threadId, 'QUERY');
        grace = setTimeout(() => resolve('stuck'), KILL_GRACE_MS);
      }, this.#timeoutMs);
    });
    try {
      const settled = await Promise.race([running, stuck]);
      if (settled === 'stuck') {
        // KILL QUERY did not stop it: kill the connection; the next statement reconnects.
        this.#conn = null;
        await this.#host.killAs(this.#account, threadId, 'CONNECTION');
        conn.destroy();
        return { kind: 'timeout' };
      }
      if (timedOut) {
        await killing;
        return { kind: 'timeout' };
      }
      if (!settled.ok) {
        if (isFatal(settled.error)) {
          this.#conn = null;
          conn.destroy();
        }
        return { kind: 'error', message: formatConnectorError(settled.error) };
      }
      await conn.query('COMMIT');
      return { kind: 'rows', rows: firstRowSet(settled.result, settled.fields) };
    } catch (error) {
      // Only the COMMIT can land here.
      if (isFatal(error)) {
        this.#conn = null;
        conn.destroy();
      }
      return { kind: 'error', message: formatConnectorError(error) };
    } finally {
      clearTimeout(deadline);
      clearTimeout(grace);
    }
  }

  async tableHash(): Promise<string | null> {
    if (this.#disposed) throw new InternalError({ message: 'DbSession.tableHash called after dispose().' });
    return this.#host.hashTables(this.#account.name, [this.#table]);
  }

  /** Ends the episode: its connection is closed (killed on the server if a statement runs), then its account and database are dropped. */
  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    const conn = this.#conn;
    this.#conn = null;
    if (conn) {
      // An idle connection just quits; one whose statement still runs is killed on the server first.
      if (this.#inFlight) {
        await this.#host.killAs(this.#account, conn.threadId, 'CONNECTION');
        conn.destroy();
      } else {
        await conn.end().catch(() => conn.destroy());
      }
    }
    await this.#host.release(this, this.#account);
  }

  async #connection(): Promise<Connection> {
    if (this.#conn === null) this.#conn = await this.#host.connectAs(this.#account);
    return this.#conn;
  }
}
