import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import Database from 'better-sqlite3';

import { ConfigError, EPISODE_RECORD_VERSION, isInfraOutcome, type EpisodeRecord } from '../episode/index.js';
import { JsonlLog } from './jsonl-log.js';
import { RUN_MANIFEST_VERSION, manifestDifferences, manifestIdentity, type RunManifest } from './run-manifest.js';

export interface EpisodeTiming {
  index: number;
  totalMs: number;
  modelMs: number[];
}

/**
 * One directory per run: `run.json` (manifest), `episodes.jsonl` (the records, source of truth),
 * `timings.jsonl` (wall-clock data, kept apart so records stay deterministic) and `index.sqlite`
 * (a query index rebuilt from the JSONL whenever the run is opened).
 */
export class RunStore {
  private readonly episodes: JsonlLog<EpisodeRecord>;
  private readonly timings: JsonlLog<EpisodeTiming>;
  private readonly db: Database.Database;
  private readonly done = new Map<number, EpisodeRecord>();
  readonly repairedBytes: number;

  private constructor(
    readonly dir: string,
    readonly manifest: RunManifest,
  ) {
    this.episodes = new JsonlLog(path.join(dir, 'episodes.jsonl'));
    this.timings = new JsonlLog(path.join(dir, 'timings.jsonl'));
    const { records, repairedBytes } = this.episodes.readAll();
    this.timings.readAll();
    this.repairedBytes = repairedBytes;
    for (const record of records) {
      if (record.schemaVersion !== EPISODE_RECORD_VERSION) {
        throw new ConfigError({ message: `${dir}: episode record version ${String(record.schemaVersion)} is not supported (expected ${EPISODE_RECORD_VERSION}).`, field: 'runDir' });
      }
      // A task is recorded once, except that an infrastructure failure may be followed by a retry, which wins.
      const earlier = this.done.get(record.task.index);
      if (!earlier || isInfraOutcome(earlier.outcome)) this.done.set(record.task.index, record);
    }
    this.db = new Database(path.join(dir, 'index.sqlite'));
    this.db.pragma('journal_mode = WAL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS episodes (
      task_index INTEGER PRIMARY KEY, outcome TEXT NOT NULL, reward REAL NOT NULL, rounds INTEGER NOT NULL,
      hook_effects INTEGER NOT NULL, hook_faults INTEGER NOT NULL)`);
    this.db.exec('DELETE FROM episodes');
    const insert = this.db.prepare('INSERT OR IGNORE INTO episodes VALUES (?, ?, ?, ?, ?, ?)');
    this.db.transaction(() => {
      for (const r of this.done.values()) insert.run(...indexRow(r));
    })();
  }

  /** Creates a new run directory. Fails if it already holds a run (use `open` to resume). */
  static create(dir: string, manifest: RunManifest): RunStore {
    if (existsSync(path.join(dir, 'run.json'))) {
      throw new ConfigError({ message: `${dir} already holds a run. Pass --resume to continue it, or choose another --run-dir.`, field: 'runDir' });
    }
    mkdirSync(dir, { recursive: true });
    const tmp = path.join(dir, 'run.json.tmp');
    writeFileSync(tmp, `${JSON.stringify(manifest, null, 2)}\n`);
    renameSync(tmp, path.join(dir, 'run.json'));
    return new RunStore(dir, manifest);
  }

  /** Opens an existing run. With `expect`, its identity must match (same tasks, target, patch, options). */
  static open(dir: string, expect?: RunManifest): RunStore {
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
    return new RunStore(dir, manifest);
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

  /** Appends one finished episode. A task is never recorded twice, except to replace an infrastructure failure. */
  append(record: EpisodeRecord, timing: Omit<EpisodeTiming, 'index'>): void {
    const earlier = this.done.get(record.task.index);
    if (earlier && !isInfraOutcome(earlier.outcome)) return;
    this.episodes.append(record);
    this.timings.append({ index: record.task.index, ...timing });
    this.done.set(record.task.index, record);
    this.db.prepare('INSERT OR REPLACE INTO episodes VALUES (?, ?, ?, ?, ?, ?)').run(...indexRow(record));
  }

  /** Records in task order (completion order varies with concurrency; this does not). */
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
    this.db.close();
  }
}

/** An infrastructure failure that a retry could change (not a task that can never be set up). */
function isRetryable(record: EpisodeRecord): boolean {
  return isInfraOutcome(record.outcome) && record.detail.permanent !== true;
}

function indexRow(r: EpisodeRecord): [number, string, number, number, number, number] {
  const effects = r.hookTrace.filter((t) => t.disposition === 'applied').length;
  const faults = r.hookTrace.filter((t) => t.fault !== undefined).length;
  return [r.task.index, r.outcome, r.reward, r.rounds, effects, faults];
}
