import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { createConnection, type Connection } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DbSession } from './backend.js';
import type { DbTable } from './dbbench-task.js';
import { formatSqlOutcome } from './format-result.js';
import { createMariaDbBackend, parseMariaDbDsn, type MariaDbBackend } from './mariadb-backend.js';

const DSN = process.env.HARNESS_MARIADB_DSN;

const MEDALS: DbTable = { name: 'Medals', columns: ['Nation', 'Gold'], rows: [['Norway', '3'], ['Sweden', '1']] };

async function text(session: DbSession, sql: string): Promise<string> {
  return formatSqlOutcome(await session.execute(sql));
}

/** `[('<database>', '<user>@<host>')]` → the two parts. */
async function whoAmI(session: DbSession): Promise<{ database: string; user: string; host: string }> {
  const outcome = await session.execute('SELECT DATABASE(), CURRENT_USER()');
  if (outcome.kind !== 'rows') throw new Error(formatSqlOutcome(outcome));
  const [database, current] = outcome.rows[0] as [string, string];
  const [user, host] = current.split('@') as [string, string];
  return { database, user, host };
}

if (!DSN) {
  describe('MariaDB per-episode accounts', () => {
    it.skip('skipped: HARNESS_MARIADB_DSN is not set (CI starts scripts/mariadb.sh)', () => undefined);
  });
} else {
  describe('MariaDB per-episode accounts', () => {
    let admin: Connection;

    /** Whether an account exists, asked without reading mysql.*: CREATE USER fails for an existing one. */
    async function accountExists(user: string, host: string): Promise<boolean> {
      try {
        await admin.query('CREATE USER ?@? IDENTIFIED BY ?', [user, host, `probe-${Math.random()}`]);
      } catch (error) {
        if ((error as { errno?: number }).errno === 1396) return true;
        throw error;
      }
      await admin.query('DROP USER ?@?', [user, host]);
      return false;
    }

    async function databaseExists(name: string): Promise<boolean> {
      const [rows] = await admin.query({ sql: 'SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?', values: [name], rowsAsArray: true });
      return String((rows as unknown[][])[0]?.[0]) === '1';
    }

    beforeAll(async () => {
      const dsn = parseMariaDbDsn(DSN);
      admin = await createConnection({ host: dsn.host, port: dsn.port, user: dsn.user, password: dsn.password });
    });
    afterAll(async () => {
      await admin?.end();
    });

    it("keeps concurrent episodes apart: one cannot list, read, change or drop the other's database, nor reach mysql.*", async () => {
      const runA = await createMariaDbBackend({ dsn: DSN });
      const runB = await createMariaDbBackend({ dsn: DSN });
      try {
        const [a, sibling, b] = await Promise.all([runA.openEpisode(MEDALS), runA.openEpisode(MEDALS), runB.openEpisode(MEDALS)]);
        const me = await whoAmI(a);
        const targets = [(await whoAmI(sibling)).database, (await whoAmI(b)).database];
        for (const other of targets) {
          expect(await text(a, `DROP DATABASE \`${other}\``)).toMatch(new RegExp(`^1044 \\(42000\\): Access denied for user '[^']+'@'[^']+' to database '${other}'$`));
          expect(await text(a, `SELECT * FROM \`${other}\`.Medals`)).toMatch(/^1142 \(42000\): SELECT command denied to user /);
          expect(await text(a, `DELETE FROM \`${other}\`.Medals`)).toMatch(/^1142 \(42000\): DELETE command denied to user /);
        }
        expect(await text(a, 'SHOW DATABASES')).toBe(`[('${me.database}',), ('information_schema',)]`);
        expect(await text(a, 'SELECT SCHEMA_NAME FROM information_schema.SCHEMATA ORDER BY 1')).toBe(`[('${me.database}',), ('information_schema',)]`);
        expect(me.user).toBe(me.database);
        expect(await text(a, 'SELECT User FROM mysql.user')).toMatch(/^1142 \(42000\): SELECT command denied to user .* for table `mysql`\.`user`$/);
        expect(await text(a, 'CREATE DATABASE dbbench_mine')).toMatch(/^1044 \(42000\): Access denied for user /);
        expect(await text(a, "CREATE USER 'x'@'%'")).toMatch(/^1227 \(42000\): Access denied; you need \(at least one of\) the CREATE USER privilege/);
        // Its own database is its to change.
        expect(await text(a, "UPDATE Medals SET Gold = '9'")).toBe('[]');
        expect(await text(sibling, 'SELECT Gold FROM Medals ORDER BY Nation')).toBe("[('3',), ('1',)]");
        expect(await text(b, 'SELECT Gold FROM Medals ORDER BY Nation')).toBe("[('3',), ('1',)]");
        expect(await sibling.tableHash()).toBe(await b.tableHash());
      } finally {
        await Promise.all([runA.close(), runB.close()]);
      }
    });

    it('drops the episode account and database on dispose, and the rest of the run on close', async () => {
      const run = await createMariaDbBackend({ dsn: DSN });
      const closedLater = await run.openEpisode(MEDALS);
      const disposed = await run.openEpisode(MEDALS);
      const first = await whoAmI(disposed);
      const second = await whoAmI(closedLater);
      expect(await accountExists(first.user, first.host)).toBe(true);
      await disposed.dispose();
      expect(await accountExists(first.user, first.host)).toBe(false);
      expect(await databaseExists(first.database)).toBe(false);
      expect(await databaseExists(second.database)).toBe(true);
      await run.close();
      expect(await accountExists(second.user, second.host)).toBe(false);
      expect(await databaseExists(second.database)).toBe(false);
      const [rows] = await admin.query({ sql: 'SELECT COUNT(*) FROM dbbench_registry.episodes WHERE run = ?', values: [run.runTag], rowsAsArray: true });
      expect(String((rows as unknown[][])[0]?.[0])).toBe('0');
    });

    it("cleans a killed run's database and account at the next start, and leaves a live run's alone", async () => {
      const live = await createMariaDbBackend({ dsn: DSN });
      let next: MariaDbBackend | undefined;
      try {
        const liveSession = await live.openEpisode(MEDALS);
        const liveEpisode = await whoAmI(liveSession);

        const helper = fileURLToPath(new URL('../../../test/fixtures/mariadb-episode-helper.ts', import.meta.url));
        const tsxRoot = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
        const loader = pathToFileURL(path.join(tsxRoot, 'dist', 'loader.mjs')).href;
        const child = spawn(process.execPath, ['--import', loader, helper], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, HARNESS_MARIADB_DSN: DSN } });
        const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
        const [database, current] = await new Promise<[string, string]>((resolve, reject) => {
          let out = '';
          child.stdout!.on('data', (chunk: Buffer) => {
            out += chunk.toString();
            const m = /episode (\[.*\])\n/.exec(out);
            if (m) resolve(JSON.parse(m[1]!) as [string, string]);
          });
          child.on('close', (code) => reject(new Error(`the helper ended early (${code}): ${out}`)));
        });
        child.kill('SIGKILL');
        await closed;
        const [user, host] = current.split('@') as [string, string];
        expect(await databaseExists(database)).toBe(true);
        expect(await accountExists(user, host)).toBe(true);

        next = await createMariaDbBackend({ dsn: DSN });
        expect(next.leftovers.databases).toContain(database);
        expect(next.leftovers.databases).not.toContain(liveEpisode.database);
        expect(await databaseExists(database)).toBe(false);
        expect(await accountExists(user, host)).toBe(false);
        expect(await databaseExists(liveEpisode.database)).toBe(true);
        expect(await text(liveSession, 'SELECT COUNT(*) FROM Medals')).toBe('[(2,)]');
      } finally {
        await next?.close();
        await live.close();
      }
    });

    it('refuses, with the rights to grant, an account that cannot create episode accounts', async () => {
      const dsn = parseMariaDbDsn(DSN);
      const [rows] = await admin.query({ sql: "SELECT SUBSTRING_INDEX(USER(), '@', -1)", rowsAsArray: true });
      const host = String((rows as unknown[][])[0]?.[0]);
      await admin.query('CREATE USER IF NOT EXISTS ?@? IDENTIFIED BY ?', ['dbbench_limited', host, 'limited']);
      try {
        await admin.query('GRANT ALL PRIVILEGES ON `dbbench\\_%`.* TO ?@?', ['dbbench_limited', host]);
        await expect(createMariaDbBackend({ dsn: `mysql://dbbench_limited:limited@${dsn.host}:${dsn.port}` })).rejects.toMatchObject({
          code: 'config_error',
          message: expect.stringContaining('CREATE USER ON *.*'),
        });
      } finally {
        await admin.query('DROP USER ?@?', ['dbbench_limited', host]);
      }
    });
  });
}
