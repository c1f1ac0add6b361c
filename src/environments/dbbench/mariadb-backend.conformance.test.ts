import { createHash } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import type { DbSession } from './backend.js';
import type { DbTable } from './dbbench-task.js';
import { parseStoredHash, replayGoldSolutions } from './gold-replay.js';
import { loadDbBenchSplit } from './load-tasks.js';
import { createMariaDbBackend, formatConnectorError, parseMariaDbDsn } from './mariadb-backend.js';
import type { MariaDbBackend } from './mariadb-backend.js';

const DSN = process.env.HARNESS_MARIADB_DSN;
const SKIP_REASON =
  'HARNESS_MARIADB_DSN is not set; run `export HARNESS_MARIADB_DSN="$(scripts/mariadb.sh start)"` (CI does) to run the live MariaDB tests';

/**
 * Gold mutations whose stored hash no engine reproduces. standard #225: the stored `answer_md5`
 * matches no state reachable from the shipped table with the gold SQL (a data glitch; MySQL-less
 * verification in docs/benchmarks.md §1.6 found the same).
 */
const KNOWN_MISSES: Record<string, readonly number[]> = { dev: [], standard: [225] };

describe('MariaDB backend helpers (no server needed)', () => {
  it('parses DSNs and names the problem in a ConfigError', () => {
    expect(parseMariaDbDsn('mysql://harness:p%40ss@127.0.0.1:33306')).toEqual({
      host: '127.0.0.1',
      port: 33306,
      user: 'harness',
      password: 'p@ss',
    });
    expect(parseMariaDbDsn('mariadb://u@db.local').port).toBe(3306);
    for (const [dsn, problem] of [
      ['127.0.0.1:33306', 'not a URL'],
      ['postgres://u:p@h:1', 'unsupported scheme'],
      ['mysql://:p@h:1', 'no user'],
      ['mysql://u:p@h:1/somedb', 'a database name is not allowed'],
    ] as const) {
      expect(() => parseMariaDbDsn(dsn)).toThrow(expect.objectContaining({ code: 'config_error', message: expect.stringContaining(problem) }));
    }
  });

  it('never echoes the password of a bad DSN', () => {
    expect(() => parseMariaDbDsn('postgres://u:secret@h:1')).toThrow(expect.objectContaining({ message: expect.not.stringContaining('secret') }));
  });

  it('refuses an unreachable server with a ConfigError', async () => {
    await expect(createMariaDbBackend({ dsn: 'mysql://u:p@127.0.0.1:1', connectTimeoutMs: 2_000 })).rejects.toMatchObject({
      code: 'config_error',
      message: expect.stringContaining('scripts/mariadb.sh start'),
    });
  });

  it('formats server errors as mysql-connector-python does', () => {
    expect(formatConnectorError({ errno: 1146, sqlState: '42S02', sqlMessage: "Table 'd.t' doesn't exist" })).toBe(
      "1146 (42S02): Table 'd.t' doesn't exist",
    );
    expect(formatConnectorError({ errno: 1234, sqlMessage: 'x' })).toBe('1234: x');
  });

  it('parses the stored answer_md5 repr', () => {
    expect(parseStoredHash("[('03b2eddd4fe471e0f29fc9e907fd5a5d',)]")).toBe('03b2eddd4fe471e0f29fc9e907fd5a5d');
    expect(parseStoredHash('[(None,)]')).toBeNull();
  });
});

if (!DSN) {
  describe('MariaDB backend against a live server', () => {
    it.skip(`skipped: ${SKIP_REASON}`, () => undefined);
  });
} else {
  describe('MariaDB backend against a live server', () => {
    let backend: MariaDbBackend;
    const table: DbTable = {
      name: 'Medals (2004) – Women #1',
      columns: ['Event / Class', 'Score', 'Year'],
      rows: [
        ['Women +60kg Bronze', '5', 1980],
        ['Men 100 m', '162', 1999],
        ['Relay', 'n/a', { type: 'float', value: 82562 }],
      ],
    };
    let session: DbSession;

    beforeAll(async () => {
      backend = await createMariaDbBackend({ dsn: DSN });
      session = await backend.openEpisode(table);
    });
    afterAll(async () => {
      await session?.dispose();
      await backend?.close();
    });

    it('answers SELECT 1 with a Python int', async () => {
      expect(await session.execute('SELECT 1')).toEqual({ kind: 'rows', rows: [[{ type: 'int', value: '1' }]] });
    });

    it('stores every cell as TEXT holding Python str()', async () => {
      expect(await session.execute('SELECT `Year` FROM `Medals (2004) – Women #1`')).toEqual({
        kind: 'rows',
        rows: [['1980'], ['1999'], ['82562.0']],
      });
    });

    it('returns SUM over text as a float and COUNT as an int', async () => {
      const outcome = await session.execute("SELECT SUM(`Score`), COUNT(*) FROM `Medals (2004) – Women #1` WHERE `Score` <> 'n/a'");
      expect(outcome).toEqual({ kind: 'rows', rows: [[{ type: 'float', value: 167 }, { type: 'int', value: '2' }]] });
    });

    it('converts DECIMAL, DATE, DATETIME, TIME, NULL and binary values', async () => {
      const outcome = await session.execute(
        "SELECT CAST(1.5 AS DECIMAL(5,2)), DATE('2024-02-29'), CAST('2024-02-29 13:14:15' AS DATETIME), TIMEDIFF('10:00:00', '09:30:00'), NULL, CAST('ab' AS BINARY), DATE('0000-00-00')",
      );
      expect(outcome).toEqual({
        kind: 'rows',
        rows: [
          [
            { type: 'decimal', value: '1.50' },
            { type: 'date', value: '2024-02-29' },
            { type: 'datetime', value: '2024-02-29 13:14:15' },
            { type: 'timedelta', value: '00:30:00' },
            null,
            { type: 'bytes', value: 'ab' },
            null,
          ],
        ],
      });
    });

    it('gives syntax errors in the connector shape with MySQL wording', async () => {
      const outcome = await session.execute('SELEC 1');
      expect(outcome.kind).toBe('error');
      expect(outcome.kind === 'error' && outcome.message).toMatch(
        /^1064 \(42000\): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'SELEC 1' at line 1$/,
      );
    });

    it('rejects several statements in one call', async () => {
      const outcome = await session.execute('SELECT 1; SELECT 2');
      expect(outcome.kind === 'error' && outcome.message).toMatch(/^1064 \(42000\): /);
      expect(await session.execute('SELECT 1;')).toMatchObject({ kind: 'rows' });
    });

    it('answers SHOW TABLES and DESCRIBE in MySQL shape', async () => {
      expect(await session.execute('SHOW TABLES')).toEqual({ kind: 'rows', rows: [['Medals (2004) – Women #1']] });
      const describe = await session.execute('DESCRIBE `Medals (2004) – Women #1`');
      expect(describe).toEqual({
        kind: 'rows',
        rows: table.columns.map((c) => [c, 'text', 'YES', '', null, '']),
      });
    });

    it('compares text with numbers as MySQL does (non-strict sql_mode)', async () => {
      expect(await session.execute("UPDATE `Medals (2004) – Women #1` SET `Score` = '6' WHERE `Score` = 5")).toEqual({ kind: 'rows', rows: [] });
      expect(await session.execute('SELECT COUNT(*) FROM `Medals (2004) – Women #1` WHERE `Score` = 6')).toEqual({
        kind: 'rows',
        rows: [[{ type: 'int', value: '1' }]],
      });
    });

    it('hashes the table exactly as the FC grader does', async () => {
      const rows = await session.execute('SELECT * FROM `Medals (2004) – Women #1`');
      if (rows.kind !== 'rows') throw new Error('SELECT * failed');
      const md5 = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');
      const rowHashes = rows.rows.map((r) => md5(r.map((v) => String(v)).join(',')).slice(0, 5)).sort();
      expect(await session.tableHash()).toBe(md5(rowHashes.join(',')));
    });

    it('times out a slow statement, kills it and keeps the session usable', async () => {
      const quick = await backend.openEpisode(table, { sqlTimeoutMs: 500 });
      try {
        const started = Date.now();
        expect(await quick.execute("SELECT BENCHMARK(10000000000, MD5('x'))")).toEqual({ kind: 'timeout' });
        expect(Date.now() - started).toBeLessThan(4_000);
        const running = await quick.execute("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE 'SELECT BENCHMARK%'");
        expect(running).toEqual({ kind: 'rows', rows: [[{ type: 'int', value: '0' }]] });
        expect(await quick.execute('SELECT SLEEP(3)')).toEqual({ kind: 'timeout' });
        expect(await quick.execute('SELECT 2')).toEqual({ kind: 'rows', rows: [[{ type: 'int', value: '2' }]] });
      } finally {
        await quick.dispose();
      }
    });

    it('drops the episode database on dispose', async () => {
      const other = await backend.openEpisode(table);
      const name = await other.execute('SELECT DATABASE()');
      const database = name.kind === 'rows' ? name.rows[0]?.[0] : undefined;
      expect(database).toMatch(/^dbbench_[0-9a-z]{10}_[0-9a-z]+$/);
      await other.dispose();
      expect(await session.execute(`SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '${String(database)}'`)).toEqual({
        kind: 'rows',
        rows: [[{ type: 'int', value: '0' }]],
      });
    });

    it(
      'reproduces the stored hash of every gold mutation in dev + standard except the known glitch',
      async () => {
        const dataDir = resolveDataDir();
        let reproduced = 0;
        let total = 0;
        const unexpected: string[] = [];
        for (const split of ['dev', 'standard'] as const) {
          const result = await replayGoldSolutions({ tasks: loadDbBenchSplit(dataDir, split), backend });
          reproduced += result.reproduced;
          total += result.total;
          for (const miss of result.misses) {
            const line = `${split} #${miss.index}: expected ${miss.expected}, got ${miss.actual}${miss.error ? ` (${miss.error})` : ''}`;
            console.log(`gold replay miss: ${line}${KNOWN_MISSES[split]?.includes(miss.index) ? ' [known]' : ''}`);
            if (!KNOWN_MISSES[split]?.includes(miss.index)) unexpected.push(line);
          }
          console.log(`gold replay ${split}: ${result.reproduced}/${result.total} reproduced`);
        }
        console.log(`gold replay dev + standard: ${reproduced}/${total} reproduced`);
        expect(total).toBe(240);
        expect(unexpected).toEqual([]);
        expect(reproduced).toBeGreaterThanOrEqual(239);
      },
      600_000,
    );
  });
}
