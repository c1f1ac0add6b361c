import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { renderRunSummary } from '../../src/cli/render-summary.js';
import { resolveTarget } from '../../src/app/resolve-target.js';
import { TEST_REGISTRY } from '../../src/testing/sim-baseline.fixture.js';
import { resolveDataDir } from '../../src/config/data-dir.js';
import type { EpisodeRecord } from '../../src/episode/index.js';
import type { DbBackend } from '../../src/environments/dbbench/backend.js';
import { dbBenchEnvironment } from '../../src/benchmarks/dbbench/environment.js';
import { loadDbBenchSplit } from '../../src/environments/dbbench/load-tasks.js';
import { createMariaDbBackend } from '../../src/environments/dbbench/mariadb-backend.js';
import { createSqliteBackend } from '../../src/environments/dbbench/sqlite-backend.js';
import { runBatch } from '../../src/evaluation/run-batch.js';
import { summarizeRun } from '../../src/evaluation/summarize-run.js';
import { NO_HOOKS } from '../../src/hooks/native-hooks.js';
import { RUN_MANIFEST_VERSION } from '../../src/store/run-manifest.js';
import { RunStore } from '../../src/store/run-store.js';

/**
 * standard #225: the gold UPDATE runs, but the stored hash matches no reachable table state, so even the
 * gold answer fails. The task is still scored (as AgentBench scores it); its records say why.
 * Played by the simulated target with no faults, which runs each task's gold SQL and commits.
 */
const dataDir = resolveDataDir();
const DSN = process.env.HARNESS_MARIADB_DSN;
const SPEC = 'sim:dbbench?seed=1&faults=none';
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const standard = loadDbBenchSplit(dataDir, 'standard');
const MUTATIONS = standard.filter((t) => t.kind === 'mutation' && t.index !== 225 && t.index > 200).slice(0, 2).map((t) => t.index);
const QUERY = standard.find((t) => t.kind === 'query')!.index;
const TASKS = [225, ...MUTATIONS, QUERY];

async function play(backend: DbBackend): Promise<EpisodeRecord[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'harness-gold-flag-'));
  dirs.push(dir);
  const target = await resolveTarget(SPEC, { dataDir, registry: TEST_REGISTRY });
  const environment = dbBenchEnvironment({ dataDir, split: 'standard', backend });
  const store = RunStore.create(dir, {
    schemaVersion: RUN_MANIFEST_VERSION, runId: 'gold-flag', createdAt: '', bench: 'dbbench', split: 'standard', taskIndices: TASKS,
    target: { spec: SPEC, label: target.model.label, simulated: true }, patch: null, options: {},
  });
  try {
    const { records } = await runBatch({ environment, model: target.model, hooks: NO_HOOKS, taskIndices: TASKS, store, concurrency: 2 });
    return [...records].sort((a, b) => a.task.index - b.task.index);
  } finally {
    store.close();
    await environment.close();
    await target.close();
  }
}

function check(records: EpisodeRecord[]): void {
  const byIndex = new Map(records.map((r) => [r.task.index, r]));
  const glitch = byIndex.get(225)!;
  expect(glitch.detail.goldUnreproducible).toBe(true);
  // Scoring is unchanged: the gold answer is committed and still fails.
  expect(glitch.outcome).toBe('wrong_answer');
  expect(glitch.reward).toBe(0);
  for (const index of [...MUTATIONS, QUERY]) {
    const record = byIndex.get(index)!;
    expect(record.detail.goldUnreproducible, `task ${index}`).toBeUndefined();
  }
  for (const index of MUTATIONS) expect(byIndex.get(index)!.outcome, `task ${index}`).toBe('success');
  const summary = summarizeRun(records);
  expect(summary.goldUnreproducible).toBe(1);
  expect(summary.scored).toBe(TASKS.length);
  expect(renderRunSummary(records, summary, 'sim')).toContain('unreproducible gold: 1 episode(s)');
}

describe('tasks whose gold cannot reproduce the stored answer', () => {
  it('are flagged in records and counted in the run summary (SQLite)', async () => {
    check(await play(createSqliteBackend()));
  });
  it.skipIf(!DSN)(`are flagged the same on MariaDB${DSN ? '' : ' — skipped: HARNESS_MARIADB_DSN is not set'}`, async () => {
    const records = await play(await createMariaDbBackend({ dsn: DSN! }));
    check(records);
  });
  it('leave the records of the other tasks as they were', async () => {
    const records = await play(createSqliteBackend({ isolation: 'inline' }));
    expect(Object.keys(records.find((r) => r.task.index === MUTATIONS[0])!.detail)[0]).toBe('type');
    expect(summarizeRun(records.filter((r) => r.task.index !== 225)).goldUnreproducible).toBe(0);
  });
});
