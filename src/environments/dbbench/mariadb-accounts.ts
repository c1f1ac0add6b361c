import { randomBytes } from 'node:crypto';

import type { Connection, ConnectionOptions, Pool } from 'mysql2/promise';

import { errorText, quoteIdentifier } from './mariadb-values.js';

/**
 * Per-episode databases and accounts on a shared MariaDB server, and how a run tells its own leftovers
 * from another live run's.
 *
 * Each episode gets a database and an account of the same name, `dbbench_<run>_<n>`, with every right on
 * that database and nothing else: it cannot list, read or drop other databases, nor reach `mysql.*`.
 *
 * Liveness: a run holds the server lock `harness_r1_run_<run>` (GET_LOCK) on a connection of its own
 * for as long as it lives; the server releases it when that connection closes, which a crashed or
 * killed process's does at once. So the lock is free exactly when the run is gone, on whatever host it
 * ran, and pids that are reused or live on another machine do not matter.
 *
 * Inventory: before it creates anything for an episode, a run writes the episode's name and account
 * host to `dbbench_registry.episodes`, and deletes the row once both are dropped. At start, a run drops
 * the databases and accounts of every registry row whose run lock is free, then every `dbbench_<run>_<n>`
 * database without a row whose run lock is free, and databases named as earlier versions named them
 * (`dbbench_<uuid>`, shared account) whose tables are over an hour old. Order keeps the inventory
 * complete through a crash: row, then database, then account when creating; account, then database,
 * then row when dropping.
 */

export const REGISTRY_DATABASE = 'dbbench_registry';
const REGISTRY = `${quoteIdentifier(REGISTRY_DATABASE)}.episodes`;
const RUN_TAG_LENGTH = 10;
const EPISODE_NAME = /^dbbench_([0-9a-z]{10})_[0-9a-z]+$/;
const LEGACY_NAME = /^dbbench_[0-9a-f]{8}(?:_[0-9a-f]{4}){3}_[0-9a-f]{12}$/;
/** Databases of earlier versions (no run lock) are left alone while they may still be in use. */
const LEGACY_AGE_SECONDS = 3600;
/** A leftover whose statement still runs (a killed run's query) must not stall the start for long. */
const CLEANUP_LOCK_WAIT_SECONDS = 5;

export function runLockName(tag: string): string {
  return `harness_r1_run_${tag}`;
}

/** An episode's database and account: same name, one host, a random password. */
export interface EpisodeAccount {
  name: string;
  host: string;
  password: string;
}

/** `'user'@'host'` with both parts as SQL strings. */
export function accountName(name: string, host: string): string {
  return `${sqlString(name)}@${sqlString(host)}`;
}

function sqlString(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/** A database name as GRANT reads it: `_` and `%` are wildcards there, so they are escaped. */
function grantDatabase(name: string): string {
  return quoteIdentifier(name.replace(/[_%\\]/g, (c) => `\\${c}`));
}

/** What cleaning at start removed. */
export interface LeftoverReport {
  databases: string[];
  accounts: string[];
  /** Leftovers that could not be removed now (e.g. a statement of theirs still runs); a later start retries. */
  kept: string[];
}

/**
 * One run's hold on the server: its lock, its name tag, and the host its accounts are created for (the
 * address the server sees the harness connect from).
 */
export class MariaDbRunLease {
  readonly tag: string;
  readonly host: string;
  readonly #lockConnection: Connection;
  #next = 0;

  private constructor(tag: string, host: string, lockConnection: Connection) {
    this.tag = tag;
    this.host = host;
    this.#lockConnection = lockConnection;
  }

  /** Takes a fresh run tag and its lock on a connection of its own. */
  static async acquire(connection: ConnectionOptions): Promise<MariaDbRunLease> {
    const { createConnection } = await import('mysql2/promise');
    const conn = await createConnection(connection);
    conn.on('error', () => undefined);
    try {
      for (let attempt = 0; attempt < 5; attempt++) {
        const tag = randomTag();
        const [rows] = await conn.query({ sql: 'SELECT GET_LOCK(?, 0), SUBSTRING_INDEX(USER(), ?, -1)', values: [runLockName(tag), '@'], rowsAsArray: true });
        const [got, host] = (rows as unknown[][])[0] ?? [];
        if (String(got) === '1') return new MariaDbRunLease(tag, String(host), conn);
      }
      throw new Error('could not take a run lock');
    } catch (error) {
      conn.destroy();
      throw error;
    }
  }

  /** A new episode account (name unique within the run, random password). */
  nextAccount(): EpisodeAccount {
    const name = `dbbench_${this.tag}_${(this.#next++).toString(36)}`;
    return { name, host: this.host, password: randomBytes(24).toString('base64url') };
  }

  async release(): Promise<void> {
    await this.#lockConnection.query('SELECT RELEASE_LOCK(?)', [runLockName(this.tag)]).catch(() => undefined);
    await this.#lockConnection.end().catch(() => this.#lockConnection.destroy());
  }
}

function randomTag(): string {
  let tag = '';
  while (tag.length < RUN_TAG_LENGTH) tag += randomBytes(8).readBigUInt64BE().toString(36);
  return tag.slice(0, RUN_TAG_LENGTH);
}

/** Creates the registry if it is missing (idempotent; concurrent starts are fine). */
export async function ensureRegistry(pool: Pool): Promise<void> {
  await pool.query(`CREATE DATABASE IF NOT EXISTS ${quoteIdentifier(REGISTRY_DATABASE)} CHARACTER SET utf8mb4`);
  await pool.query(
    `CREATE TABLE IF NOT EXISTS ${REGISTRY} (name VARCHAR(64) NOT NULL PRIMARY KEY, host VARCHAR(255) NOT NULL, run VARCHAR(16) NOT NULL, created TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
  );
}

/** Registers, then creates, an episode's database and account with rights on that database only. */
export async function createEpisodeAccount(pool: Pool, lease: MariaDbRunLease, account: EpisodeAccount): Promise<void> {
  await pool.query(`INSERT INTO ${REGISTRY} (name, host, run) VALUES (?, ?, ?)`, [account.name, account.host, lease.tag]);
  await pool.query(`CREATE DATABASE ${quoteIdentifier(account.name)} CHARACTER SET utf8mb4`);
  const who = accountName(account.name, account.host);
  await pool.query(`CREATE USER ${who} IDENTIFIED BY ${sqlString(account.password)}`);
  await pool.query(`GRANT ALL PRIVILEGES ON ${grantDatabase(account.name)}.* TO ${who}`);
}

/**
 * Drops an episode's account, then its database, then its registry row. Each step tolerates what is
 * already gone; an error of the server (e.g. a lock wait timeout) propagates and leaves the row.
 */
export async function dropEpisodeAccount(pool: Pool, name: string, hosts: readonly string[]): Promise<void> {
  const conn = await pool.getConnection();
  try {
    await conn.query(`SET SESSION lock_wait_timeout = ${CLEANUP_LOCK_WAIT_SECONDS}`);
    await conn.query(`DROP USER IF EXISTS ${[...new Set(hosts)].map((h) => accountName(name, h)).join(', ')}`);
    await conn.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)}`);
    await conn.query(`DELETE FROM ${REGISTRY} WHERE name = ?`, [name]);
  } finally {
    conn.release();
  }
}

async function runIsGone(pool: Pool, tag: string, own: MariaDbRunLease): Promise<boolean> {
  if (tag === own.tag) return false;
  const [rows] = await pool.query({ sql: 'SELECT IS_FREE_LOCK(?)', values: [runLockName(tag)], rowsAsArray: true });
  return String((rows as unknown[][])[0]?.[0]) === '1';
}

/**
 * Removes what runs that are gone left behind (see the module comment). Never touches a live run's
 * databases: every name it drops belongs to a run whose lock is free, or is an earlier version's over an
 * hour old.
 */
export async function removeLeftovers(pool: Pool, lease: MariaDbRunLease): Promise<LeftoverReport> {
  const report: LeftoverReport = { databases: [], accounts: [], kept: [] };
  const gone = new Map<string, boolean>();
  const isGone = async (tag: string): Promise<boolean> => {
    if (!gone.has(tag)) gone.set(tag, await runIsGone(pool, tag, lease));
    return gone.get(tag)!;
  };
  const drop = async (name: string, hosts: string[], hadDatabase: boolean): Promise<void> => {
    try {
      await dropEpisodeAccount(pool, name, hosts);
      report.accounts.push(name);
      if (hadDatabase) report.databases.push(name);
    } catch (error) {
      report.kept.push(`${name}: ${errorText(error)}`);
    }
  };

  const [schemaRows] = await pool.query({ sql: "SHOW DATABASES LIKE 'dbbench\\_%'", rowsAsArray: true });
  const databases = new Set((schemaRows as unknown[][]).map((r) => String(r[0])));
  const [registryRows] = await pool.query({ sql: `SELECT name, host, run FROM ${REGISTRY} ORDER BY name`, rowsAsArray: true });
  const registered = new Set<string>();
  for (const [name, host, run] of registryRows as string[][]) {
    registered.add(name!);
    if (await isGone(run!)) await drop(name!, [host!], databases.has(name!));
  }
  for (const name of [...databases].sort()) {
    if (registered.has(name)) continue;
    const tag = EPISODE_NAME.exec(name)?.[1];
    // No row (e.g. the registry was dropped by hand): the account, if any, is on this run's host.
    if (tag !== undefined && (await isGone(tag))) await drop(name, [lease.host], true);
  }
  for (const name of await oldLegacyDatabases(pool, [...databases].filter((n) => LEGACY_NAME.test(n)))) {
    try {
      await pool.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)}`);
      report.databases.push(name);
    } catch (error) {
      report.kept.push(`${name}: ${errorText(error)}`);
    }
  }
  return report;
}

/** Legacy databases whose newest table is older than {@link LEGACY_AGE_SECONDS}, or that hold no table. */
async function oldLegacyDatabases(pool: Pool, names: string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const [rows] = await pool.query({
    sql: `SELECT s.SCHEMA_NAME, MAX(t.CREATE_TIME) < NOW() - INTERVAL ${LEGACY_AGE_SECONDS} SECOND, COUNT(t.TABLE_NAME)
          FROM information_schema.SCHEMATA s LEFT JOIN information_schema.TABLES t ON t.TABLE_SCHEMA = s.SCHEMA_NAME
          WHERE s.SCHEMA_NAME IN (?) GROUP BY s.SCHEMA_NAME`,
    values: [names],
    rowsAsArray: true,
  });
  return (rows as unknown[][]).filter(([, old, tables]) => String(old) === '1' || String(tables) === '0').map(([name]) => String(name));
}
