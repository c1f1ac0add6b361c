import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { resolveTarget } from '../../src/app/resolve-target.js';
import { TEST_REGISTRY } from '../../src/testing/sim-baseline.fixture.js';
import { resolveDataDir } from '../../src/config/data-dir.js';
import type { DbBackend } from '../../src/environments/dbbench/backend.js';
import { dbBenchEnvironment } from '../../src/benchmarks/dbbench/environment.js';
import { createMariaDbBackend } from '../../src/environments/dbbench/mariadb-backend.js';
import { createSqliteBackend } from '../../src/environments/dbbench/sqlite-backend.js';
import { runBatch } from '../../src/evaluation/run-batch.js';
import { NO_HOOKS } from '../../src/hooks/native-hooks.js';
import { RUN_MANIFEST_VERSION } from '../../src/store/run-manifest.js';
import { RunStore } from '../../src/store/run-store.js';

/**
 * Tasks whose table MySQL refuses to create or fill end as a permanent env_error (retries skip them),
 * with the same record on either backend: the SQLite backend predicts MySQL's refusal, the MariaDB
 * backend reports the server's.
 */
const dataDir = resolveDataDir();
const DSN = process.env.HARNESS_MARIADB_DSN;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const SETUP_ERRORS: Record<string, Record<number, string>> = {
  dev: { 5: "1166 (42000): Incorrect column name ''" },
  'standard.v0.2': {
    13: "1060 (42S21): Duplicate column name 'Score'",
    14: "1060 (42S21): Duplicate column name 'Score'",
    17: "1136 (21S01): Column count doesn't match value count at row 26",
    77: "1136 (21S01): Column count doesn't match value count at row 13",
  },
};

/** Plays the split's listed tasks (and one playable task) through the batch runner; returns outcome and detail per task. */
async function marks(split: string, backend: DbBackend): Promise<Record<number, unknown>> {
  const tasks = [...Object.keys(SETUP_ERRORS[split]!).map(Number), 0];
  const dir = mkdtempSync(path.join(tmpdir(), 'harness-setup-marks-'));
  dirs.push(dir);
  const target = await resolveTarget('sim:dbbench?seed=1', { dataDir, registry: TEST_REGISTRY });
  const environment = dbBenchEnvironment({ dataDir, split, backend });
  const store = RunStore.create(dir, {
    schemaVersion: RUN_MANIFEST_VERSION, runId: 'marks', createdAt: '', bench: 'dbbench', split, taskIndices: tasks,
    target: { spec: 'sim:dbbench?seed=1', label: target.model.label, simulated: true }, patch: null, options: {},
  });
  try {
    const { records } = await runBatch({ environment, model: target.model, hooks: NO_HOOKS, taskIndices: tasks, store });
    return Object.fromEntries(records.map((r) => [r.task.index, r.outcome === 'env_error' ? { outcome: r.outcome, detail: r.detail } : { outcome: 'played' }]));
  } finally {
    store.close();
    await environment.close();
    await target.close();
  }
}

function expected(split: string): Record<number, unknown> {
  const out: Record<number, unknown> = { 0: { outcome: 'played' } };
  for (const [index, error] of Object.entries(SETUP_ERRORS[split]!)) {
    out[Number(index)] = { outcome: 'env_error', detail: { error: `task ${index}: the task table cannot be created: ${error}`, stage: 'setup', permanent: true } };
  }
  return out;
}

describe('permanent env_error marks for tasks MySQL cannot set up', () => {
  for (const split of Object.keys(SETUP_ERRORS)) {
    it(`SQLite (${split})`, async () => {
      expect(await marks(split, createSqliteBackend())).toEqual(expected(split));
    });
    it.skipIf(!DSN)(`MariaDB gives the same marks (${split})${DSN ? '' : ' — skipped: HARNESS_MARIADB_DSN is not set'}`, async () => {
      const sqlite = await marks(split, createSqliteBackend());
      const mariadb = await marks(split, await createMariaDbBackend({ dsn: DSN! }));
      expect(mariadb).toEqual(sqlite);
      expect(mariadb).toEqual(expected(split));
    });
  }
});
