import type { Connection, ConnectionOptions, Pool } from 'mysql2/promise';

import { ConfigError, InternalError } from '../../episode/index.js';
import type { DbBackend, DbSession } from './backend.js';
import type { DbTable } from './dbbench-task.js';
import {
  createEpisodeAccount,
  dropEpisodeAccount,
  ensureRegistry,
  MariaDbRunLease,
  removeLeftovers,
  REGISTRY_DATABASE,
  type EpisodeAccount,
  type LeftoverReport,
} from './mariadb-accounts.js';
import { MariaDbSession, type MariaDbSessionHost } from './mariadb-session.js';
import { errorText, formatConnectorError, quoteIdentifier } from './mariadb-values.js';
import { pythonStr } from './python-repr.js';

export { formatConnectorError, quoteIdentifier } from './mariadb-values.js';

/** AgentBench's per-statement limit (`asyncio.wait_for(..., 60)`). */
export const DEFAULT_SQL_TIMEOUT_MS = 60_000;
/** MySQL's default `group_concat_max_len`; MariaDB's default is 1 MiB, so the hash sets it explicitly. */
const MYSQL_GROUP_CONCAT_MAX_LEN = 1024;

export interface MariaDbBackendOptions {
  /** `mysql://user:password@host:port` (or `mariadb://`), e.g. what `scripts/mariadb.sh start` prints. */
  dsn: string;
  /** Default per-statement limit; `openEpisode` may override it. Default 60 s. */
  sqlTimeoutMs?: number;
  /** Administrative connections (create/drop databases and accounts, hashing). Default 4. */
  poolSize?: number;
  /** TCP connect timeout. Default 10 s. */
  connectTimeoutMs?: number;
}

export interface MariaDbDsn {
  host: string;
  port: number;
  user: string;
  password: string;
}

/** Parses a `mysql://` / `mariadb://` DSN; anything malformed is a ConfigError naming the problem. */
export function parseMariaDbDsn(dsn: string): MariaDbDsn {
  const shown = dsn.replace(/:[^:@/]*@/, ':***@');
  const bad = (problem: string): never => {
    throw new ConfigError({
      message: `Bad MariaDB DSN '${shown}': ${problem}. Expected mysql://USER:PASSWORD@HOST:PORT, e.g. the output of scripts/mariadb.sh start.`,
      field: 'dsn',
    });
  };
  let url: URL;
  try {
    url = new URL(dsn.trim());
  } catch {
    return bad('not a URL');
  }
  if (url.protocol !== 'mysql:' && url.protocol !== 'mariadb:') bad(`unsupported scheme '${url.protocol}' (use mysql: or mariadb:)`);
  if (url.hostname === '') bad('no host');
  if (url.username === '') bad('no user');
  if (url.pathname !== '' && url.pathname !== '/') bad('a database name is not allowed (each episode creates its own)');
  const port = url.port === '' ? 3306 : Number(url.port);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) bad(`invalid port '${url.port}'`);
  let user: string;
  let password: string;
  try {
    user = decodeURIComponent(url.username);
    password = decodeURIComponent(url.password);
  } catch {
    return bad('user or password is not valid percent-encoding');
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return { host, port, user, password };
}

/**
 * Opens a pool to a MySQL-compatible server (the reference is Debian's MariaDB 10.11, see
 * `scripts/mariadb.sh`) and checks that it answers. An unreachable server or a refused login is a
 * ConfigError, raised here rather than in the first episode.
 */
export async function createMariaDbBackend(options: MariaDbBackendOptions): Promise<MariaDbBackend> {
  const dsn = parseMariaDbDsn(options.dsn);
  const sqlTimeoutMs = options.sqlTimeoutMs ?? DEFAULT_SQL_TIMEOUT_MS;
  if (!Number.isFinite(sqlTimeoutMs) || sqlTimeoutMs <= 0) {
    throw new ConfigError({ message: `sqlTimeoutMs must be a positive number of milliseconds, got ${sqlTimeoutMs}.`, field: 'sqlTimeoutMs' });
  }
  const connection: ConnectionOptions = {
    host: dsn.host,
    port: dsn.port,
    user: dsn.user,
    password: dsn.password,
    // The server default for utf8mb4 on MariaDB (what mysql-connector-python negotiates there too).
    charset: 'UTF8MB4_GENERAL_CI',
    connectTimeout: options.connectTimeoutMs ?? 10_000,
    multipleStatements: false,
    // Lossless decoding for the administrative queries; episode statements use `castValue` instead.
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
    decimalNumbers: false,
    jsonStrings: true,
  };
  const { createPool } = await mysql();
  const pool = createPool({ ...connection, connectionLimit: options.poolSize ?? 4, maxIdle: options.poolSize ?? 4 });
  try {
    await pool.query('SELECT 1');
  } catch (cause) {
    await pool.end().catch(() => undefined);
    throw new ConfigError({
      message: `Cannot reach MariaDB at ${dsn.host}:${dsn.port} as '${dsn.user}': ${errorText(cause)}. Start the private server with scripts/mariadb.sh start and pass the DSN it prints.`,
      field: 'dsn',
      cause,
    });
  }
  let lease: MariaDbRunLease | undefined;
  let probe: EpisodeAccount | undefined;
  let leftovers: LeftoverReport;
  try {
    lease = await MariaDbRunLease.acquire(connection);
    await ensureRegistry(pool);
    leftovers = await removeLeftovers(pool, lease);
    // Fails early, with the rights to grant, when the account cannot create episode accounts.
    probe = { ...lease.nextAccount(), name: `dbbench_${lease.tag}_probe` };
    await createEpisodeAccount(pool, lease, probe);
    await dropEpisodeAccount(pool, probe.name, [probe.host]);
  } catch (cause) {
    if (probe) await dropEpisodeAccount(pool, probe.name, [probe.host]).catch(() => undefined);
    await lease?.release();
    await pool.end().catch(() => undefined);
    throw new ConfigError({
      message:
        `The MariaDB account '${dsn.user}' cannot manage per-episode databases and accounts: ${errorText(cause)}. ` +
        `It needs ALL PRIVILEGES ON \`dbbench\\_%\`.* WITH GRANT OPTION and CREATE USER ON *.* (scripts/mariadb.sh start grants both).`,
      field: 'dsn',
      cause,
    });
  }
  return new MariaDbBackend(pool, connection, sqlTimeoutMs, lease, leftovers);
}

/**
 * DbBackend over mysql2, set up as AgentBench FC sets up MySQL: one fresh database per episode, the task
 * table with every column TEXT, rows inserted with parameter binding as Python's `str(cell)`, then one
 * dedicated connection per episode in which every statement is followed by a COMMIT. Sessions run with
 * `sql_mode=''` (non-strict).
 *
 * Isolation (see `mariadb-accounts.ts`): each episode connects as an account of its own that has rights
 * on its own database only, so it cannot list, read or drop another episode's database (of this run or
 * another), nor reach `mysql.*`. The account and database are dropped when the episode ends and, for the
 * whole run, in `close()`; what a crashed run left is dropped by the next start.
 */
/** mysql2, loaded on first use rather than at start-up (a SQLite or non-DBBench run never needs it). */
function mysql(): Promise<typeof import('mysql2/promise')> {
  return import('mysql2/promise');
}

export class MariaDbBackend implements DbBackend, MariaDbSessionHost {
  readonly name = 'mariadb' as const;
  /** What the start removed of runs that are gone. */
  readonly leftovers: LeftoverReport;
  readonly #pool: Pool;
  readonly #connection: ConnectionOptions;
  readonly #sqlTimeoutMs: number;
  readonly #lease: MariaDbRunLease;
  readonly #open = new Set<MariaDbSession>();
  #closed = false;

  constructor(pool: Pool, connection: ConnectionOptions, sqlTimeoutMs: number, lease: MariaDbRunLease, leftovers: LeftoverReport) {
    this.#pool = pool;
    this.#connection = connection;
    this.#sqlTimeoutMs = sqlTimeoutMs;
    this.#lease = lease;
    this.leftovers = leftovers;
  }

  /** The run's tag: every database and account of this run is named `dbbench_<tag>_<n>`. */
  get runTag(): string {
    return this.#lease.tag;
  }

  async openEpisode(table: DbTable, options?: { sqlTimeoutMs?: number }): Promise<DbSession> {
    if (this.#closed) throw new InternalError({ message: 'MariaDbBackend.openEpisode called after close().' });
    const account = this.#lease.nextAccount();
    let conn: Connection | undefined;
    let setupError: string | null = null;
    try {
      await createEpisodeAccount(this.#pool, this.#lease, account);
      conn = await this.connectAs(account);
      setupError = await loadTable(conn, table);
    } catch (cause) {
      conn?.destroy();
      await dropEpisodeAccount(this.#pool, account.name, [account.host]).catch(() => undefined);
      throw new ConfigError({
        message: `Cannot load DBBench table '${table.name}' into MariaDB: ${errorText(cause)}`,
        field: 'data',
        cause,
      });
    }
    const session = new MariaDbSession({ host: this, account, table, conn, timeoutMs: options?.sqlTimeoutMs ?? this.#sqlTimeoutMs, setupError });
    this.#open.add(session);
    return session;
  }

  /** Ends every open episode, drops whatever of this run is left, and gives up the run lock. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#open].map((s) => s.dispose()));
    const [rows] = await this.#pool
      .query({ sql: `SELECT name, host FROM ${quoteIdentifier(REGISTRY_DATABASE)}.episodes WHERE run = ?`, values: [this.#lease.tag], rowsAsArray: true })
      .catch(() => [[]] as [unknown[][]]);
    for (const [name, host] of rows as string[][]) await dropEpisodeAccount(this.#pool, name!, [host!]).catch(() => undefined);
    await this.#lease.release();
    await this.#pool.end();
  }

  // The methods below serve the sessions; they are not part of the DbBackend contract.

  async connectAs(account: EpisodeAccount): Promise<Connection> {
    const { createConnection } = await mysql();
    const conn = await createConnection({ ...this.#connection, user: account.name, password: account.password, database: account.name });
    conn.on('error', () => undefined); // a dropped idle connection is noticed on the next statement
    await conn.query(`SET SESSION sql_mode = '', autocommit = 1, group_concat_max_len = ${MYSQL_GROUP_CONCAT_MAX_LEN}`);
    return conn;
  }

  async killAs(account: EpisodeAccount, threadId: number, what: 'QUERY' | 'CONNECTION'): Promise<void> {
    let conn: Connection | undefined;
    try {
      conn = await (await mysql()).createConnection({ ...this.#connection, user: account.name, password: account.password });
      await conn.query(`KILL ${what} ${Math.trunc(threadId)}`);
    } catch {
      // The thread may have ended on its own, or the account is already gone.
    } finally {
      await conn?.end().catch(() => conn?.destroy());
    }
  }

  async release(session: MariaDbSession, account: EpisodeAccount): Promise<void> {
    this.#open.delete(session);
    await dropEpisodeAccount(this.#pool, account.name, [account.host]).catch(() => undefined);
  }

  /**
   * AgentBench FC's table hash, computed by the server: per row `LEFT(MD5(CONCAT_WS(',', cols…)), 5)`,
   * then the MD5 of those sorted and comma-joined by GROUP_CONCAT under MySQL's 1024-byte cap. Like FC,
   * it hashes the task's tables with the task's column list; hashes are sorted and `_`-joined. A table
   * that is empty or can no longer be read contributes FC's `None`; if none has a hash the result is null.
   */
  async hashTables(database: string, tables: readonly DbTable[]): Promise<string | null> {
    const conn = await this.#pool.getConnection();
    try {
      await conn.query(`SET SESSION group_concat_max_len = ${MYSQL_GROUP_CONCAT_MAX_LEN}`);
      const hashes: (string | null)[] = [];
      for (const table of tables) {
        const columns = table.columns.map(quoteIdentifier).join(', ');
        const source = `${quoteIdentifier(database)}.${quoteIdentifier(table.name)}`;
        const sql =
          'SELECT MD5(GROUP_CONCAT(row_hash ORDER BY row_hash SEPARATOR \',\')) ' +
          `FROM (SELECT LEFT(MD5(CONCAT_WS(',', ${columns})), 5) AS row_hash FROM ${source}) AS per_row`;
        try {
          const [rows] = await conn.query({ sql, rowsAsArray: true });
          const value = (rows as unknown[][])[0]?.[0];
          hashes.push(typeof value === 'string' ? value : null);
        } catch {
          hashes.push(null);
        }
      }
      if (hashes.every((h) => h === null)) return null;
      return hashes
        .map((h) => h ?? 'None')
        .sort()
        .join('_');
    } finally {
      conn.release();
    }
  }
}

/**
 * Creates and fills the task table as AgentBench's loader does: `CREATE TABLE IF NOT EXISTS` with TEXT
 * columns, then one multi-row INSERT in which each row has as many values as it has cells. When the
 * server refuses either (an empty or duplicate column name, a row with too few cells), that error is
 * returned, as the SQLite backend reports it: the task cannot be played on MySQL either. Other failures
 * (the connection) are thrown.
 */
async function loadTable(conn: Connection, table: DbTable): Promise<string | null> {
  const name = quoteIdentifier(table.name);
  const columns = table.columns.map(quoteIdentifier);
  try {
    await conn.query(`CREATE TABLE IF NOT EXISTS ${name} (${columns.map((c) => `${c} TEXT`).join(', ')})`);
    if (table.rows.length > 0) {
      const tuples = table.rows.map((row) => `(${row.map(() => '?').join(', ')})`);
      const values = table.rows.flatMap((row) => row.map(pythonStr));
      await conn.query(`INSERT INTO ${name} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, values);
    }
    await conn.query('COMMIT');
    return null;
  } catch (cause) {
    if (isServerRefusal(cause)) return formatConnectorError(cause);
    throw cause;
  }
}

/** An error the server answered with (it has an errno and SQLSTATE), as opposed to a lost connection. */
function isServerRefusal(error: unknown): boolean {
  const e = (typeof error === 'object' && error !== null ? error : {}) as { errno?: unknown; sqlState?: unknown; fatal?: unknown };
  return typeof e.errno === 'number' && e.errno > 0 && typeof e.sqlState === 'string' && e.fatal !== true;
}
