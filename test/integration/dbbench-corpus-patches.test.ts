import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { dbBenchOverlayOf } from '../../src/benchmarks/dbbench/overlay-of-patch.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { TEST_REGISTRY } from '../../src/testing/sim-baseline.fixture.js';

import { loadRunPatch } from '../../src/app/load-run-patch.js';
import { resolveTarget, type ResolvedTarget } from '../../src/app/resolve-target.js';
import { resolveDataDir } from '../../src/config/data-dir.js';
import { dbBenchEnvironment } from '../../src/benchmarks/dbbench/environment.js';
import { createSqliteBackend } from '../../src/environments/dbbench/sqlite-backend.js';
import { runBatch } from '../../src/evaluation/run-batch.js';
import { summarizeRun } from '../../src/evaluation/summarize-run.js';
import { createSandboxPool, type SandboxPool } from '../../src/sandbox/index.js';
import { RUN_MANIFEST_VERSION } from '../../src/store/run-manifest.js';
import { RunStore } from '../../src/store/run-store.js';

/**
 * Every valid DBBench patch of the original release's corpus, installed into the simulated target's
 * episodes over the whole dev split: the hooks must run with no sandbox fault caused by our side
 * (worker crashes, timeouts, memory, unconvertible results), and the firing counts are printed.
 */
const dataDir = resolveDataDir();
const corpusRoot = path.join(dataDir, 'patches', 'heldout_generalization');
const patches = readdirSync(corpusRoot, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((editor) =>
    readdirSync(path.join(corpusRoot, editor.name)).flatMap((seed) => {
      const file = path.join(corpusRoot, editor.name, seed, 'dbbench.json');
      return readdirSync(path.join(corpusRoot, editor.name, seed)).includes('dbbench.json') ? [file] : [];
    }),
  );
const OUR_SIDE = new Set(['worker_crash', 'timeout', 'memory', 'bad_result', 'compile']);

let pool: SandboxPool;
let target: ResolvedTarget;
const dirs: string[] = [];
beforeAll(async () => {
  // A semantic check, not a timing one: a generous hook budget keeps a loaded machine from turning a slow
  // scheduler into a "timeout" fault. The 50 ms budget itself is tested in src/sandbox and sandbox-hostile.
  pool = createSandboxPool({ size: 2, hookTimeoutMs: 1000 });
  target = await resolveTarget('sim:dbbench?seed=1', { dataDir, registry: TEST_REGISTRY });
});
afterAll(async () => {
  await target.close();
  await pool.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('the original DBBench patches run over dev with the simulated target', () => {
  it('finds the shipped DBBench patches', () => {
    expect(patches.length).toBe(6);
  });

  it.each(patches.map((p) => [path.relative(corpusRoot, p), p]))('%s: hooks fire, no sandbox fault from our side', async (_name, file) => {
    const patch = await loadRunPatch(file, TEST_REGISTRY.get('dbbench'), TEST_REGISTRY.patchRules(), pool);
    expect(patch.hooks.dropped).toEqual([]);
    const environment = dbBenchEnvironment({ dataDir, split: 'dev', backend: createSqliteBackend(), overlay: dbBenchOverlayOf(patch.patch) });
    const dir = mkdtempSync(path.join(tmpdir(), 'harness-corpus-'));
    dirs.push(dir);
    const tasks = Array.from({ length: 60 }, (_, i) => i);
    const store = RunStore.create(dir, {
      schemaVersion: RUN_MANIFEST_VERSION, runId: 'corpus', createdAt: '', bench: 'dbbench', split: 'dev', taskIndices: tasks,
      target: { spec: 'sim:dbbench?seed=1', label: target.model.label, simulated: true }, patch: patch.manifest, options: {},
    });
    const { records } = await runBatch({ environment, model: target.model, hooks: patch.hooks, taskIndices: tasks, store, concurrency: 4 });
    store.close();
    await environment.close();
    const summary = summarizeRun(records);
    const faults = records.flatMap((r) => r.hookTrace.filter((t) => t.fault).map((t) => `${t.hook}:${t.fault!.kind}`));
    const calls: Record<string, number> = {};
    for (const r of records) for (const t of r.hookTrace) calls[t.hook] = (calls[t.hook] ?? 0) + 1;
    console.log(
      `${path.relative(corpusRoot, file)}: success ${summary.successes}/${summary.scored}; hook calls ${JSON.stringify(calls)}; ` +
        `effects ${JSON.stringify(summary.hookEffects)}; faults ${JSON.stringify(faults)}`,
    );
    expect(records).toHaveLength(60);
    expect(faults.filter((f) => OUR_SIDE.has(f.split(':')[1]!))).toEqual([]);
    expect(records.filter((r) => r.outcome === 'hook_fault')).toEqual([]);
    expect(Object.keys(summary.hookEffects).length).toBeGreaterThan(0);
  }, 300_000);
});
