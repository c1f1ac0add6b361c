import { mkdirSync } from 'node:fs';
import path from 'node:path';

import Database from 'better-sqlite3';

import type { FinishedReward } from './reward-result.js';

export type JobState = 'queued' | 'running' | 'done';

export interface StoredJob {
  evalKey: string;
  rowKey: string;
  response: string;
  state: JobState;
  result: FinishedReward | null;
}

interface JobRow {
  eval_key: string;
  row_key: string;
  response: string;
  state: JobState;
  result: string | null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS jobs (
  eval_key TEXT PRIMARY KEY,
  row_key TEXT NOT NULL,
  response TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done')),
  result TEXT,
  created_at TEXT NOT NULL,
  finished_at TEXT,
  rerun_seconds REAL
);
CREATE TABLE IF NOT EXISTS response_keys (
  response_key TEXT PRIMARY KEY,
  eval_key TEXT NOT NULL
);
`;

/**
 * The service's persistent job table (`<store>/jobs.sqlite`): every job with its request and, once done,
 * its reward. A process killed at any point loses nothing written: WAL with synchronous NORMAL survives a
 * process crash, and jobs found queued or running at the next start are played again (their rerun store
 * keeps the episodes already finished).
 */
export class JobStore {
  private readonly db: Database.Database;
  private readonly statements;

  constructor(dir: string) {
    mkdirSync(dir, { recursive: true });
    this.db = new Database(path.join(dir, 'jobs.sqlite'));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(SCHEMA);
    this.statements = {
      get: this.db.prepare<[string], JobRow>('SELECT eval_key, row_key, response, state, result FROM jobs WHERE eval_key = ?'),
      insert: this.db.prepare<[string, string, string, string, string | null, string]>('INSERT OR IGNORE INTO jobs (eval_key, row_key, response, state, result, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
      state: this.db.prepare<[string, string]>('UPDATE jobs SET state = ? WHERE eval_key = ?'),
      finish: this.db.prepare<[string, string, number | null, string]>("UPDATE jobs SET state = 'done', result = ?, finished_at = ?, rerun_seconds = ? WHERE eval_key = ?"),
      remove: this.db.prepare<[string]>('DELETE FROM jobs WHERE eval_key = ?'),
      unfinished: this.db.prepare<[], JobRow>("SELECT eval_key, row_key, response, state, result FROM jobs WHERE state != 'done' ORDER BY created_at, eval_key"),
      responseKey: this.db.prepare<[string], { eval_key: string }>('SELECT eval_key FROM response_keys WHERE response_key = ?'),
      putResponseKey: this.db.prepare<[string, string]>('INSERT OR IGNORE INTO response_keys (response_key, eval_key) VALUES (?, ?)'),
      done: this.db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM jobs WHERE state = 'done'"),
    };
  }

  get(evalKey: string): StoredJob | undefined {
    const row = this.statements.get.get(evalKey);
    return row && toJob(row);
  }

  /** A new job, queued; a job already stored under the key is left as it is. */
  addQueued(evalKey: string, rowKey: string, response: string): void {
    this.statements.insert.run(evalKey, rowKey, response, 'queued', null, new Date().toISOString());
  }

  /** A job whose reward is known without a rerun, stored done at once. */
  addDone(evalKey: string, rowKey: string, response: string, result: FinishedReward): void {
    this.statements.insert.run(evalKey, rowKey, response, 'done', JSON.stringify(result), new Date().toISOString());
  }

  setState(evalKey: string, state: Exclude<JobState, 'done'>): void {
    this.statements.state.run(state, evalKey);
  }

  finish(evalKey: string, result: FinishedReward, rerunSeconds: number | null): void {
    this.statements.finish.run(JSON.stringify(result), new Date().toISOString(), rerunSeconds, evalKey);
  }

  remove(evalKey: string): void {
    this.statements.remove.run(evalKey);
  }

  /** Jobs a previous process left queued or running, oldest first. */
  unfinished(): StoredJob[] {
    return this.statements.unfinished.all().map(toJob);
  }

  doneCount(): number {
    return this.statements.done.get()!.n;
  }

  evalKeyOfResponse(responseKey: string): string | undefined {
    return this.statements.responseKey.get(responseKey)?.eval_key;
  }

  putResponseKey(responseKey: string, evalKey: string): void {
    this.statements.putResponseKey.run(responseKey, evalKey);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

function toJob(row: JobRow): StoredJob {
  return { evalKey: row.eval_key, rowKey: row.row_key, response: row.response, state: row.state, result: row.result === null ? null : (JSON.parse(row.result) as FinishedReward) };
}
