import { ConfigError } from '../../episode/index.js';
import { MysqlError } from './mysql-compat/errors.js';

/**
 * Resource ceilings of the SQLite backend.
 *
 * Why these mechanisms: better-sqlite3 runs a statement synchronously inside one native call, and this
 * build of SQLite has neither a progress handler (OMIT_PROGRESS_CALLBACK) nor an exposed
 * `sqlite3_interrupt`; it is also built with DEFAULT_MEMSTATUS=0, which leaves `PRAGMA hard_heap_limit`
 * and `soft_heap_limit` without effect. A thread stuck in such a call cannot be stopped (terminating a
 * worker thread only takes effect when it next runs JavaScript), and V8's heap limits do not see
 * SQLite's own allocations. So each episode database lives in a child process that can be killed:
 * - the database (main and temp) is capped at `databaseLimitMb` with `max_page_count`: a statement that
 *   grows it further fails inside SQLite, its changes undone, as MySQL's `1114 The table '…' is full`,
 *   and nothing has to be killed (this is what stops `CREATE TABLE … AS` an endless recursive CTE);
 * - temporary b-trees and sorts are kept in memory (`temp_store = MEMORY`), so they count towards the
 *   process's resident memory instead of filling the disk;
 * - a watchdog thread inside the process samples its resident set size while a statement runs and kills
 *   the process (SIGKILL) once it passes `memoryLimitMb`; it also kills the process if its parent is gone;
 * - the parent kills the process when a statement has not answered within the statement timeout plus a
 *   grace period;
 * - the V8 heap of the process is capped at half of `memoryLimitMb`.
 * After a kill, the episode's database is rebuilt in a fresh process from the snapshot taken after the
 * last statement that changed it, and the agent gets a MySQL-style error; the episode goes on.
 */
export interface SqliteLimits {
  /** Resident memory of one database process, in MiB. Default {@link DEFAULT_MEMORY_LIMIT_MB}. */
  memoryLimitMb: number;
  /** Size of one episode database (and separately of its temp database), in MiB. Default {@link DEFAULT_DATABASE_LIMIT_MB}. */
  databaseLimitMb: number;
}

/**
 * A database process idles at 60–110 MiB (more when it runs from TypeScript sources); 512 MiB leaves
 * room for a full 64 MiB database, its snapshot and large results, and bounds eight processes at 4 GiB.
 */
export const DEFAULT_MEMORY_LIMIT_MB = 512;
/** The shipped task tables hold at most a few hundred kilobytes; 64 MiB leaves room for any honest work. */
export const DEFAULT_DATABASE_LIMIT_MB = 64;
/** Below this the process cannot even start. */
const MIN_MEMORY_LIMIT_MB = 128;

export const DEFAULT_SQLITE_LIMITS: SqliteLimits = { memoryLimitMb: DEFAULT_MEMORY_LIMIT_MB, databaseLimitMb: DEFAULT_DATABASE_LIMIT_MB };

/** Fills in defaults and rejects values that cannot work, as ConfigErrors naming the option. */
export function resolveSqliteLimits(options: Partial<SqliteLimits> = {}): SqliteLimits {
  const memoryLimitMb = options.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB;
  const databaseLimitMb = options.databaseLimitMb ?? DEFAULT_DATABASE_LIMIT_MB;
  if (!Number.isInteger(memoryLimitMb) || memoryLimitMb < MIN_MEMORY_LIMIT_MB) {
    throw new ConfigError({ message: `memoryLimitMb must be an integer of at least ${MIN_MEMORY_LIMIT_MB}, got ${memoryLimitMb}.`, field: 'memoryLimitMb' });
  }
  if (!Number.isInteger(databaseLimitMb) || databaseLimitMb < 1 || databaseLimitMb >= memoryLimitMb) {
    throw new ConfigError({
      message: `databaseLimitMb must be a positive integer below memoryLimitMb (${memoryLimitMb}), got ${databaseLimitMb}.`,
      field: 'databaseLimitMb',
    });
  }
  return { memoryLimitMb, databaseLimitMb };
}

/**
 * What the agent sees when its statement drove the database process past its memory ceiling:
 * MySQL's ER_OUT_OF_RESOURCES, as the Python connector prints it.
 */
export function outOfMemoryError(): MysqlError {
  return new MysqlError(
    1041,
    'HY000',
    "Out of memory; check if mysqld or some other process uses all available memory; if not, you may have to use 'ulimit' to allow mysqld to use more memory or you can add more swap space",
  );
}

/** What a MySQL client sees when the server goes away in the middle of a statement (a crashed database process). */
export function lostConnectionError(): MysqlError {
  return new MysqlError(2013, 'HY000', 'Lost connection to MySQL server during query');
}
