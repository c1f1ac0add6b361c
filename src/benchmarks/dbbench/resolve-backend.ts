import { ConfigError } from '../../episode/index.js';
import type { DbBackend } from '../../environments/dbbench/backend.js';
import { createMariaDbBackend } from '../../environments/dbbench/mariadb-backend.js';
import { createSqliteBackend } from '../../environments/dbbench/sqlite-backend.js';

export const BACKENDS = ['sqlite', 'mariadb'] as const;

/**
 * The DBBench database: embedded SQLite by default, MariaDB/MySQL when a DSN is given. With `concurrency`,
 * SQLite starts that many database processes up front, at most `sqliteWorkers` (`--sqlite-workers`);
 * past that, episodes share them. `sqliteInlineMs` (`--sqlite-inline-ms`) is the budget of a bounded
 * statement in the runtime's thread (`sqlite-bounded-session.ts`; 0 sends every statement to a process).
 */
export async function resolveDbBackend(
  name: string | undefined,
  dsn: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  concurrency?: number,
  sqliteWorkers?: number,
  sqliteInlineMs?: number,
): Promise<DbBackend> {
  const chosen = name ?? (dsn ? 'mariadb' : 'sqlite');
  if (chosen === 'sqlite') {
    const maxWorkers = sqliteWorkers;
    if (maxWorkers !== undefined && (!Number.isInteger(maxWorkers) || maxWorkers < 1)) {
      throw new ConfigError({ message: `--sqlite-workers must be a positive integer, got ${sqliteWorkers}.`, field: 'sqliteWorkers' });
    }
    if (sqliteInlineMs !== undefined && !(Number.isFinite(sqliteInlineMs) && sqliteInlineMs >= 0)) {
      throw new ConfigError({ message: `--sqlite-inline-ms must be a non-negative number of milliseconds, got ${sqliteInlineMs}.`, field: 'sqliteInlineMs' });
    }
    return createSqliteBackend({
      ...(concurrency === undefined ? {} : { warmWorkers: concurrency }),
      ...(maxWorkers === undefined ? {} : { maxWorkers }),
      ...(sqliteInlineMs === undefined ? {} : { inlineBudgetMs: sqliteInlineMs }),
    });
  }
  if (chosen === 'mariadb') {
    const url = dsn ?? env.HARNESS_MARIADB_DSN;
    if (!url) {
      throw new ConfigError({ message: "--backend mariadb needs --dsn mysql://user:pass@host:port (or HARNESS_MARIADB_DSN).", field: 'dsn' });
    }
    return await createMariaDbBackend({ dsn: url });
  }
  throw new ConfigError({ message: `Unknown backend '${chosen}'.`, field: 'backend', allowed: BACKENDS });
}
