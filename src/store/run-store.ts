import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import Database from 'better-sqlite3';

import {
  ConfigError,
  EPISODE_RECORD_VERSION,
  InternalError,
  READABLE_EPISODE_RECORD_VERSIONS,
  isInfraOutcome,
  readEpisodeRecord,
  supersedes,
  type EpisodeRecord,
  type EpisodeTurns,
  type RecordedTurn,
} from '../episode/index.js';
import { JsonlLog } from './jsonl-log.js';
import { resolveMaxRecordBytes, serializeRecord } from './record-size-cap.js';
import { RUN_MANIFEST_VERSION, manifestDifferences, manifestIdentity, type RunManifest } from './run-manifest.js';

export interface EpisodeTiming {
  index: number;
  attempt: number;
  totalMs: number;
  modelMs: number[];
}

export interface RunStoreOptions {
  /** Cap on one serialized record (default: `HARNESS_MAX_RECORD_BYTES`, else 16 MiB); see `serializeRecord`. */
  maxRecordBytes?: number;
}

/**
 * One directory per run: `run.json` (manifest), `episodes.jsonl` (the records, source of truth),
 * `timings.jsonl` (wall-clock data, kept apart so records stay deterministic), `model-turns.jsonl` (each
 * episode's model turns: request digests and answers, which a later run of the same target can replay,
 * and how many turns were replayed) and `index.sqlite` (a query index rebuilt from the JSONL whenever the
 * run is opened).
 *
 * While a run plays, each finished episode is appended to `episodes.jsonl` and fsynced, in completion
 * order. `finish` then rewrites the file atomically in canonical order (task index, then attempt), so the
 * same seed gives the same bytes at any concurrency. Every record of every attempt stays in the file; the
 * one that counts for a task is its last attempt.
 */
export class RunStore {
  private readonly episodes: JsonlLog<EpisodeRecord>;
  private readonly timings: JsonlLog<EpisodeTiming>;
  private readonly turnLog: JsonlLog<EpisodeTurns>;
  private readonly db: Database.Database;
  private readonly done = new Map<number, EpisodeRecord>();
  /** Highest attempt recorded per task. */
  private readonly attempts = new Map<number, number>();
  /** Records read so far per task, for the attempt of version-1 records (see `lift`). */
  private readonly liftCounts = new Map<number, number>();
  private readonly maxRecordBytes: number;
  readonly repairedBytes: number;

  private constructor(
    readonly dir: string,
    readonly manifest: RunManifest,
    options: RunStoreOptions,
  ) {
    this.maxRecordBytes = resolveMaxRecordBytes(options.maxRecordBytes);
    this.episodes = new JsonlLog(path.join(dir, 'episodes.jsonl'));
    this.timings = new JsonlLog(path.join(dir, 'timings.jsonl'));
    this.turnLog = new JsonlLog(path.join(dir, 'model-turns.jsonl'));
    const { records, repairedBytes } = this.episodes.readAll();
    this.timings.readAll();
    this.turnLog.readAll();
    this.repairedBytes = repairedBytes;
    for (const raw of records) {
      const record = this.lift(raw);
      this.attempts.set(record.task.index, Math.max(record.attempt, this.attempts.get(record.task.index) ?? 0));
      if (supersedes(this.done.get(record.task.index))) this.done.set(record.task.index, record);
    }
    this.db = new Database(path.join(dir, 'index.sqlite'));
    this.db.pragma('journal_mode = WAL');
    // The index is rebuilt from the JSONL whenever the run is opened: its commits need no fsync of their own.
    this.db.pragma('synchronous = OFF');
    // Rebuilt from the JSONL on every open, so its shape may change freely between versions.
    this.db.exec(`DROP TABLE IF EXISTS episodes; CREATE TABLE episodes (
      task_index INTEGER PRIMARY KEY, attempt INTEGER NOT NULL, outcome TEXT NOT NULL, reward REAL NOT NULL, rounds INTEGER NOT NULL,
      hook_effects INTEGER NOT NULL, hook_faults INTEGER NOT NULL)`);
    const insert = this.db.prepare('INSERT OR IGNORE INTO episodes VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.db.transaction(() => {
      for (const r of this.done.values()) insert.run(...indexRow(r));
    })();
  }

  /** Creates a new run directory. Fails if it already holds a run (use `open` to resume). */
  static create(dir: string, manifest: RunManifest, options: RunStoreOptions = {}): RunStore {
    if (existsSync(path.join(dir, 'run.json'))) {
      throw new ConfigError({ message: `${dir} already holds a run. Pass --resume to continue it, or choose another --run-dir.`, field: 'runDir' });
    }
    mkdirSync(dir, { recursive: true });
    const tmp = path.join(dir, 'run.json.tmp');
    writeFileSync(tmp, `${JSON.stringify(manifest, null, 2)}\n`);
    renameSync(tmp, path.join(dir, 'run.json'));
    return new RunStore(dir, manifest, options);
  }

  /** Opens an existing run. With `expect`, its identity must match (same tasks, target, patch, options, data). */
  static open(dir: string, expect?: RunManifest, options: RunStoreOptions = {}): RunStore {
    const file = path.join(dir, 'run.json');
    if (!existsSync(file)) throw new ConfigError({ message: `${dir} holds no run (no run.json).`, field: 'runDir' });
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as RunManifest;
    if (manifest.schemaVersion !== RUN_MANIFEST_VERSION) {
      throw new ConfigError({ message: `${file}: manifest version ${String(manifest.schemaVersion)} is not supported.`, field: 'runDir' });
    }
    if (expect && manifestIdentity(expect) !== manifestIdentity(manifest)) {
      throw new ConfigError({
        message: `Cannot resume ${dir}: it was started with different settings (${manifestDifferences(manifest, expect).join('; ')}). Resume with the same flags, or start a new --run-dir.`,
        field: 'resume',
      });
    }
    return new RunStore(dir, manifest, options);
  }

  static exists(dir: string): boolean {
    return existsSync(path.join(dir, 'run.json'));
  }

  /**
   * Whether a task needs no more playing. With `retryInfra`, a task whose episode ended in an
   * infrastructure failure (model_error, env_error, hook_fault) is played again, unless the failure is
   * permanent (a task that can never be set up).
   */
  isDone(index: number, retryInfra = false): boolean {
    const record = this.done.get(index);
    return record !== undefined && !(retryInfra && isRetryable(record));
  }

  /** The attempt number the next play of a task gets: one more than the last recorded, 1 for a new task. */
  nextAttempt(index: number): number {
    return (this.attempts.get(index) ?? 0) + 1;
  }

  /**
   * Appends one finished episode and returns the record as stored: a record over the size cap, or one that
   * cannot be serialized, is stored as that episode's model_error (see `serializeRecord`). A task is never
   * recorded twice, except to replace an infrastructure failure; `undefined` means the record was refused.
   */
  append(record: EpisodeRecord, timing: Omit<EpisodeTiming, 'index' | 'attempt'>, turns?: Omit<EpisodeTurns, 'index' | 'attempt'>): EpisodeRecord | undefined {
    const index = record.task.index;
    if (!supersedes(this.done.get(index))) return undefined;
    if (record.attempt !== this.nextAttempt(index)) {
      throw new InternalError({ message: `${this.dir}: task ${index} recorded as attempt ${record.attempt}, but its next attempt is ${this.nextAttempt(index)}.` });
    }
    const stored = serializeRecord(record, this.maxRecordBytes);
    this.episodes.appendLine(stored.line);
    this.timings.append({ index, attempt: record.attempt, ...timing });
    if (turns) this.turnLog.append({ index, attempt: record.attempt, ...turns });
    this.done.set(index, stored.record);
    this.attempts.set(index, record.attempt);
    this.db.prepare('INSERT OR REPLACE INTO episodes VALUES (?, ?, ?, ?, ?, ?, ?)').run(...indexRow(stored.record));
    return stored.record;
  }

  /**
   * Rewrites `episodes.jsonl` in canonical order (task index, then attempt; every record kept, version-1
   * records lifted to the current version) unless it already is. Atomic: a crash leaves the complete old
   * append log or the complete new file, never a mix, and the next open reads either the same way.
   */
  finish(): void {
    this.episodes.flush();
    this.timings.flush();
    this.finishTurnLog();
    const { records, lines } = this.episodes.readAll();
    const seen = new Map<number, number>();
    const entries = records.map((raw, position) => {
      const record = this.lift(raw, seen);
      const line = raw.schemaVersion === EPISODE_RECORD_VERSION ? lines[position]! : JSON.stringify(record);
      return { index: record.task.index, attempt: record.attempt, line };
    });
    // Array.prototype.sort is stable: records of the same task and attempt keep their file order.
    entries.sort((a, b) => a.index - b.index || a.attempt - b.attempt);
    const canonical = entries.map((e) => e.line);
    if (canonical.every((line, i) => line === lines[i])) return;
    this.episodes.replaceAll(canonical);
  }

  /** `model-turns.jsonl` in canonical order (task index, then attempt), so its bytes do not depend on concurrency either. */
  private finishTurnLog(): void {
    this.turnLog.flush();
    const { records, lines } = this.turnLog.readAll();
    const order = records.map((r, position) => ({ index: r.index, attempt: r.attempt, position, line: lines[position]! }));
    order.sort((a, b) => a.index - b.index || a.attempt - b.attempt);
    if (order.every((e, i) => e.position === i)) return;
    this.turnLog.replaceAll(order.map((e) => e.line));
  }

  /**
   * The model turns of each task's counting record, as stored beside it (tasks whose record has none, such
   * as runs recorded before turns were kept or episodes that never reached the model, are left out), and
   * how many of them were replayed.
   */
  modelTurns(): Map<number, { replayed: number; turns: RecordedTurn[] }> {
    this.turnLog.flush();
    const found = new Map<number, { replayed: number; turns: RecordedTurn[] }>();
    for (const entry of this.turnLog.readAll().records) {
      if (this.done.get(entry.index)?.attempt === entry.attempt) found.set(entry.index, { replayed: entry.replayed, turns: entry.turns });
    }
    return found;
  }

  /** Records in task order, the counting one per task (completion order varies with concurrency; this does not). */
  records(): EpisodeRecord[] {
    return [...this.done.values()].sort((a, b) => a.task.index - b.task.index);
  }

  /** The SQLite index, for queries across a run's episodes. */
  get index(): Database.Database {
    return this.db;
  }

  close(): void {
    this.episodes.close();
    this.timings.close();
    this.turnLog.close();
    this.db.close();
  }

  /** Checks a stored record's version and returns it in the current shape (`seen` counts records per task). */
  private lift(raw: EpisodeRecord, seen: Map<number, number> = this.liftCounts): EpisodeRecord {
    const version: unknown = raw.schemaVersion;
    // The list holds numbers only: a string or missing version is not in it either.
    if (!(READABLE_EPISODE_RECORD_VERSIONS as readonly unknown[]).includes(version)) {
      throw new ConfigError({
        message: `${this.dir}: episode record version ${String(version)} is not supported (this version reads ${READABLE_EPISODE_RECORD_VERSIONS.join(' and ')}).`,
        field: 'runDir',
      });
    }
    const before = seen.get(raw.task.index) ?? 0;
    seen.set(raw.task.index, before + 1);
    return readEpisodeRecord(raw as unknown as Record<string, unknown>, before);
  }
}

/** An infrastructure failure that a retry could change (not a task that can never be set up). */
function isRetryable(record: EpisodeRecord): boolean {
  return isInfraOutcome(record.outcome) && record.detail.permanent !== true;
}

function indexRow(r: EpisodeRecord): [number, number, string, number, number, number, number] {
  const effects = r.hookTrace.filter((t) => t.disposition === 'applied').length;
  const faults = r.hookTrace.filter((t) => t.fault !== undefined).length;
  return [r.task.index, r.attempt, r.outcome, r.reward, r.rounds, effects, faults];
}
