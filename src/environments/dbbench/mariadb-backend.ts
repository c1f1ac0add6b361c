import { randomUUID } from 'node:crypto';

import { createConnection, createPool } from 'mysql2/promise';
import type { Connection, ConnectionOptions, FieldPacket, Pool, QueryResult } from 'mysql2/promise';
import type { TypeCast } from 'mysql2';

import { ConfigError, InternalError } from '../../episode/index.js';
import type { DbBackend, DbSession, PyValue, SqlOutcome } from './backend.js';
import type { DbTable } from './dbbench-task.js';
import { pythonStr } from './python-repr.js';

/** AgentBench's per-statement limit (`asyncio.wait_for(..., 60)`). */
export const DEFAULT_SQL_TIMEOUT_MS = 60_000;
/** MySQL's default `group_concat_max_len`; MariaDB's default is 1 MiB, so the hash sets it explicitly. */
const MYSQL_GROUP_CONCAT_MAX_LEN = 1024;
/** After `KILL QUERY`, how long a statement may take to stop before its connection is killed. */
const KILL_GRACE_MS = 5_000;

export interface MariaDbBackendOptions {
  /** `mysql://user:password@host:port` (or `mariadb://`), e.g. what `scripts/mariadb.sh start` prints. */
  dsn: string;
  /** Default per-statement limit; `openEpisode` may override it. Default 60 s. */
  sqlTimeoutMs?: number;
  /** Administrative connections (create/drop database, hashing, killing runaway queries). Default 4. */
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
  return new MariaDbBackend(pool, connection, sqlTimeoutMs);
}

/**
 * DbBackend over mysql2, set up as AgentBench FC sets up MySQL: one fresh database
 * `dbbench_<uuid>` per episode, the task table with every column TEXT, rows inserted with parameter
 * binding as Python's `str(cell)`, then one dedicated connection per episode in which every
 * statement is followed by a COMMIT. Sessions run with `sql_mode=''` (non-strict).
 */
export class MariaDbBackend implements DbBackend {
  readonly name = 'mariadb' as const;
  readonly #pool: Pool;
  readonly #connection: ConnectionOptions;
  readonly #sqlTimeoutMs: number;
  readonly #open = new Set<MariaDbSession>();
  #closed = false;

  constructor(pool: Pool, connection: ConnectionOptions, sqlTimeoutMs: number) {
    this.#pool = pool;
    this.#connection = connection;
    this.#sqlTimeoutMs = sqlTimeoutMs;
  }

  async openEpisode(table: DbTable, options?: { sqlTimeoutMs?: number }): Promise<DbSession> {
    if (this.#closed) throw new InternalError({ message: 'MariaDbBackend.openEpisode called after close().' });
    const database = `dbbench_${randomUUID().replaceAll('-', '_')}`;
    let conn: Connection | undefined;
    try {
      await this.#pool.query(`CREATE DATABASE ${quoteIdentifier(database)} CHARACTER SET utf8mb4`);
      conn = await this.connectTo(database);
      const name = quoteIdentifier(table.name);
      const columns = table.columns.map(quoteIdentifier);
      await conn.query(`CREATE TABLE IF NOT EXISTS ${name} (${columns.map((c) => `${c} TEXT`).join(', ')})`);
      if (table.rows.length > 0) {
        const tuple = `(${table.columns.map(() => '?').join(', ')})`;
        const values = table.rows.flatMap((row) => row.map(pythonStr));
        await conn.query(`INSERT INTO ${name} (${columns.join(', ')}) VALUES ${table.rows.map(() => tuple).join(', ')}`, values);
      }
      await conn.query('COMMIT');
    } catch (cause) {
      conn?.destroy();
      await this.dropDatabase(database);
      throw new ConfigError({
        message: `Cannot load DBBench table '${table.name}' into MariaDB: ${errorText(cause)}`,
        field: 'data',
        cause,
      });
    }
    const session = new MariaDbSession(this, database, table, conn, options?.sqlTimeoutMs ?? this.#sqlTimeoutMs);
    this.#open.add(session);
    return session;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#open].map((s) => s.dispose()));
    await this.#pool.end();
  }

  // The methods below serve the sessions; they are not part of the DbBackend contract.

  /** A new session connection with the episode's settings. */
  async connectTo(database: string): Promise<Connection> {
    const conn = await createConnection({ ...this.#connection, database });
    conn.on('error', () => undefined); // a dropped idle connection is noticed on the next statement
    await conn.query(`SET SESSION sql_mode = '', autocommit = 1, group_concat_max_len = ${MYSQL_GROUP_CONCAT_MAX_LEN}`);
    return conn;
  }

  /** Asks the server to stop a statement (`QUERY`) or to drop the whole connection (`CONNECTION`). */
  async kill(threadId: number, what: 'QUERY' | 'CONNECTION'): Promise<void> {
    await this.#pool.query(`KILL ${what} ${Math.trunc(threadId)}`).catch(() => undefined);
  }

  async dropDatabase(database: string): Promise<void> {
    await this.#pool.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(database)}`).catch(() => undefined);
  }

  forget(session: MariaDbSession): void {
    this.#open.delete(session);
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

class MariaDbSession implements DbSession {
  readonly #backend: MariaDbBackend;
  readonly #database: string;
  readonly #table: DbTable;
  readonly #timeoutMs: number;
  #conn: Connection | null;
  #disposed = false;

  constructor(backend: MariaDbBackend, database: string, table: DbTable, conn: Connection, timeoutMs: number) {
    this.#backend = backend;
    this.#database = database;
    this.#table = table;
    this.#conn = conn;
    this.#timeoutMs = timeoutMs;
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
    const running = conn.query({ sql, rowsAsArray: true, typeCast: castValue }).then(
      ([result, fields]) => ({ ok: true as const, result, fields }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    const stuck = new Promise<'stuck'>((resolve) => {
      deadline = setTimeout(() => {
        timedOut = true;
        killing = this.#backend.kill(threadId, 'QUERY');
        grace = setTimeout(() => resolve('stuck'), KILL_GRACE_MS);
      }, this.#timeoutMs);
    });
    try {
      const settled = await Promise.race([running, stuck]);
      if (settled === 'stuck') {
        // KILL QUERY did not stop it: kill the connection; the next statement reconnects.
        this.#conn = null;
        await this.#backend.kill(threadId, 'CONNECTION');
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
    return this.#backend.hashTables(this.#database, [this.#table]);
  }

  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#backend.forget(this);
    const conn = this.#conn;
    this.#conn = null;
    if (conn) {
      await this.#backend.kill(conn.threadId, 'CONNECTION');
      conn.destroy();
    }
    await this.#backend.dropDatabase(this.#database);
  }

  async #connection(): Promise<Connection> {
    if (this.#conn === null) this.#conn = await this.#backend.connectTo(this.#database);
    return this.#conn;
  }
}

/** Backtick-quotes an identifier (names here hold spaces, `/`, `#`, parentheses and unicode). */
export function quoteIdentifier(name: string): string {
  return `\`${name.replaceAll('`', '``')}\``;
}

/**
 * A connector error as mysql-connector-python prints it: `NNNN (SQLSTATE): message`, or
 * `NNNN: message` without a SQLSTATE. MariaDB's "MariaDB server version" in syntax errors is
 * reworded to MySQL's "MySQL server version" so the agent sees the reference text.
 */
export function formatConnectorError(error: unknown): string {
  const e = (typeof error === 'object' && error !== null ? error : {}) as {
    errno?: unknown;
    sqlState?: unknown;
    sqlMessage?: unknown;
    fatal?: unknown;
  };
  if (typeof e.errno === 'number' && e.errno > 0 && typeof e.sqlMessage === 'string') {
    const message = e.sqlMessage.replace('your MariaDB server version', 'your MySQL server version');
    return typeof e.sqlState === 'string' && e.sqlState !== '' ? `${e.errno} (${e.sqlState}): ${message}` : `${e.errno}: ${message}`;
  }
  if (e.fatal === true) return '2013 (HY000): Lost connection to MySQL server during query';
  return errorText(error);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isFatal(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { fatal?: unknown }).fatal === true;
}

/** The first result set as rows (FC fetches only that one); DML and other statements give `[]`. */
function firstRowSet(result: QueryResult, fields: FieldPacket[] | FieldPacket[][] | undefined): PyValue[][] {
  if (!Array.isArray(result)) return [];
  const nested = Array.isArray(fields) && fields.length > 0 && Array.isArray(fields[0]);
  if (nested) {
    const first = result.find((r) => Array.isArray(r));
    return (first ?? []) as PyValue[][];
  }
  return result as unknown as PyValue[][];
}

/**
 * What the Python connector makes of each column type: integers (and YEAR, BIT) → int, FLOAT/DOUBLE →
 * float, DECIMAL → Decimal, DATE → date, DATETIME/TIMESTAMP → datetime, TIME → timedelta, binary
 * strings → bytes (here as a latin1 string, one character per byte), other strings → str, NULL → None.
 * Values are read from the raw text the server sends, so nothing is rounded on the way.
 * Invalid dates such as `0000-00-00` become None, as the connector returns them.
 */
const castValue: TypeCast = (field, next) => {
  switch (field.type) {
    case 'TINY':
    case 'SHORT':
    case 'LONG':
    case 'INT24':
    case 'LONGLONG':
    case 'YEAR': {
      const text = field.string('ascii');
      return text === null ? null : { type: 'int', value: text };
    }
    case 'BIT': {
      const bytes = field.buffer();
      if (bytes === null) return null;
      let n = 0n;
      for (const b of bytes) n = (n << 8n) | BigInt(b);
      return { type: 'int', value: n.toString() };
    }
    case 'FLOAT':
    case 'DOUBLE': {
      const text = field.string('ascii');
      return text === null ? null : { type: 'float', value: Number(text) };
    }
    case 'DECIMAL':
    case 'NEWDECIMAL': {
      const text = field.string('ascii');
      return text === null ? null : { type: 'decimal', value: text };
    }
    case 'DATE':
    case 'NEWDATE': {
      const text = field.string('ascii');
      return text === null || !isValidDate(text) ? null : { type: 'date', value: text };
    }
    case 'DATETIME':
    case 'DATETIME2':
    case 'TIMESTAMP':
    case 'TIMESTAMP2': {
      const text = field.string('ascii');
      return text === null || !isValidDate(text) ? null : { type: 'datetime', value: text };
    }
    case 'TIME':
    case 'TIME2': {
      const text = field.string('ascii');
      return text === null ? null : { type: 'timedelta', value: text };
    }
    case 'NULL':
      field.string();
      return null;
    case 'GEOMETRY': {
      const bytes = field.buffer();
      return bytes === null ? null : { type: 'bytes', value: bytes.toString('latin1') };
    }
    case 'JSON':
      return field.string('utf8');
    default: {
      if (field.extendedFormat === 'json') return field.string('utf8');
      // `next` honours the column's character set: a Buffer for binary strings, else a string.
      const value = next() as unknown;
      if (value === null || value === undefined) return null;
      if (Buffer.isBuffer(value)) return { type: 'bytes', value: value.toString('latin1') };
      return String(value);
    }
  }
};

function isValidDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 31;
  return day <= days;
}
