import type { DbBackend, DbSession, SqlOutcome } from './backend.js';
import type { DbBenchTask } from './dbbench-task.js';

export interface GoldReplayOptions {
  tasks: readonly DbBenchTask[];
  backend: DbBackend;
  /** Called after each replayed task. */
  onProgress?: (progress: GoldReplayProgress) => void;
  /** Per-statement limit for the gold SQL; the backend's default when omitted. */
  sqlTimeoutMs?: number;
}

export interface GoldReplayProgress {
  done: number;
  total: number;
  index: number;
  reproduced: boolean;
}

export interface GoldReplayMiss {
  /** The task's `index` (its position in the split file). */
  index: number;
  /** The stored hash with its Python repr removed (null for `[(None,)]`). */
  expected: string | null;
  /** The hash after running the gold SQL; null if none could be computed. */
  actual: string | null;
  /** Why the gold SQL or the setup failed, when it did. */
  error?: string;
}

export interface GoldReplayResult {
  reproduced: number;
  total: number;
  misses: GoldReplayMiss[];
}

/**
 * Checks a backend against the ground truth: for every mutation task (INSERT/UPDATE/DELETE) it opens
 * a fresh episode, runs the gold statement `label[0]`, hashes the table and compares the hash with the
 * task's stored `answer_md5`. Query tasks are skipped on purpose: they are graded against `label`,
 * and their reference SQL (`sql.query`) is unreliable (half of it fails even on MySQL-compatible
 * engines, see docs/benchmarks.md §1.2), so replaying it would measure the data, not the backend.
 * Tasks run one after another; a failure in one task is recorded as a miss and the replay goes on.
 */
export async function replayGoldSolutions(options: GoldReplayOptions): Promise<GoldReplayResult> {
  const tasks = options.tasks.filter((t) => t.kind === 'mutation');
  const misses: GoldReplayMiss[] = [];
  let reproduced = 0;
  for (const task of tasks) {
    const replay = await replayGold(task, options.backend, options.sqlTimeoutMs);
    const { expected, actual, error } = replay;
    const ok = error === undefined && actual !== null && actual === expected;
    if (ok) reproduced++;
    else misses.push(error === undefined ? { index: task.index, expected, actual } : { index: task.index, expected, actual, error });
    options.onProgress?.({ done: reproduced + misses.length, total: tasks.length, index: task.index, reproduced: ok });
  }
  return { reproduced, total: tasks.length, misses };
}

/** One gold replay: what the stored hash says, what the table hashes to after the gold SQL, and what failed. */
export interface GoldReplay {
  expected: string | null;
  /** The table hash after the gold SQL (null if none could be computed). */
  actual: string | null;
  /** Why the gold SQL or the setup failed, when it did. */
  error?: string;
  /** The failure came from the backend itself (it threw, or the table could not be set up), not from the gold SQL. */
  infrastructure?: boolean;
}

/** Opens a fresh episode for a mutation task, runs its gold statement `label[0]` and hashes the table. */
export async function replayGold(task: DbBenchTask, backend: DbBackend, sqlTimeoutMs?: number): Promise<GoldReplay> {
  const expected = parseStoredHash(task.answerMd5 ?? '');
  const gold = task.label[0];
  const options = sqlTimeoutMs === undefined ? undefined : { sqlTimeoutMs };
  if (backend.runOnFreshTable && gold !== undefined && gold.trim() !== '') {
    // One exchange when the backend offers it; the same steps one by one below when it did not go plainly.
    const fresh = await backend.runOnFreshTable(task.table, gold, options).catch(() => undefined);
    if (fresh?.setupError) return { expected, actual: null, error: `the task table cannot be created: ${fresh.setupError}`, infrastructure: true };
    if (fresh?.outcome) {
      const error = goldError(fresh.outcome);
      return error === undefined ? { expected, actual: fresh.hash } : { expected, actual: fresh.hash, error };
    }
  }
  let actual: string | null = null;
  let session: DbSession | undefined;
  try {
    session = await backend.openEpisode(task.table, options);
    if (session.setupError) return { expected, actual, error: `the task table cannot be created: ${session.setupError}`, infrastructure: true };
    const error = gold === undefined || gold.trim() === '' ? 'task has no gold SQL in label[0]' : goldError(await session.execute(gold));
    actual = await session.tableHash();
    return error === undefined ? { expected, actual } : { expected, actual, error };
  } catch (cause) {
    return { expected, actual, error: cause instanceof Error ? cause.message : String(cause), infrastructure: true };
  } finally {
    await session?.dispose();
  }
}

/** What a gold statement's outcome says went wrong, if anything. */
function goldError(outcome: SqlOutcome): string | undefined {
  if (outcome.kind === 'error') return `gold SQL failed: ${outcome.message}`;
  if (outcome.kind === 'timeout') return 'gold SQL timed out';
  return undefined;
}

/**
 * The hash inside a stored `answer_md5`, which is the Python repr of the MySQL result, e.g.
 * `[('03b2eddd4fe471e0f29fc9e907fd5a5d',)]` → `03b2eddd4fe471e0f29fc9e907fd5a5d`, and `[(None,)]` →
 * null. Text in neither shape (e.g. an already bare hash) is returned trimmed.
 */
export function parseStoredHash(stored: string): string | null {
  const text = stored.trim();
  const quoted = /^\[\(\s*(['"])(.*)\1\s*,\s*\)\]$/s.exec(text);
  if (quoted) return quoted[2] ?? '';
  if (/^\[\(\s*None\s*,\s*\)\]$/.test(text)) return null;
  return text;
}
