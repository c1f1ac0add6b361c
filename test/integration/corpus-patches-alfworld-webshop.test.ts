import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { TEST_REGISTRY } from '../../src/testing/sim-baseline.fixture.js';

import { loadRunPatch } from '../../src/app/load-run-patch.js';
import { resolveTarget, type ResolvedTarget } from '../../src/app/resolve-target.js';
import { resolveDataDir } from '../../src/config/data-dir.js';
import { runBatch } from '../../src/evaluation/run-batch.js';
import { summarizeRun } from '../../src/evaluation/summarize-run.js';
import { createSandboxPool, type SandboxPool } from '../../src/sandbox/index.js';
import { RUN_MANIFEST_VERSION } from '../../src/store/run-manifest.js';
import { RunStore } from '../../src/store/run-store.js';

/**
 * The original release's ALFWorld and WebShop patches, installed into their simulated targets' episodes:
 * no sandbox fault may come from our side (worker crash, timeout, memory, unconvertible result). A hook's
 * own Python exception is the patch's business (e.g. a helper defined in another hook), as in the original.
 */
const dataDir = resolveDataDir();
const corpusRoot = path.join(dataDir, 'patches', 'heldout_generalization');
const OUR_SIDE = new Set(['worker_crash', 'timeout', 'memory', 'bad_result', 'compile']);
const cases = (['alfworld', 'webshop'] as const).flatMap((bench) =>
  readdirSync(corpusRoot, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((editor) =>
      readdirSync(path.join(corpusRoot, editor.name))
        .map((seed) => path.join(corpusRoot, editor.name, seed, `${bench}.json`))
        .filter((file) => existsSync(file))
        .map((file) => [bench, path.relative(corpusRoot, file), file] as const),
    ),
);

let pool: SandboxPool;
const targets = new Map<string, ResolvedTarget>();
const dirs: string[] = [];
beforeAll(async () => {
  // A semantic check, not a timing one: a generous hook budget keeps a loaded machine from turning a slow
  // scheduler into a "timeout" fault. The 50 ms budget itself is tested in src/sandbox and sandbox-hostile.
  pool = createSandboxPool({ size: 2, hookTimeoutMs: 1000 });
  for (const bench of ['alfworld', 'webshop']) targets.set(bench, await resolveTarget(`sim:${bench}?seed=1`, { dataDir, registry: TEST_REGISTRY }));
});
afterAll(async () => {
  for (const t of targets.values()) await t.close();
  await pool.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('the original ALFWorld and WebShop patches run with the simulated targets', () => {
  it('finds the shipped patches', () => {
    expect(cases.filter(([b]) => b === 'alfworld')).toHaveLength(5);
    expect(cases.filter(([b]) => b === 'webshop')).toHaveLength(6);
  });

  it.each(cases)('%s %s: no sandbox fault from our side', async (bench, _name, file) => {
    const definition = TEST_REGISTRY.get(bench);
    const patch = await loadRunPatch(file, definition, TEST_REGISTRY.patchRules(), pool);
    expect(patch.hooks.dropped).toEqual([]);
    const { environment } = await definition.open({ dataDir, split: 'dev', protocol: 'fc', options: {}, patch: patch.patch });
    const tasks = Array.from({ length: bench === 'alfworld' ? 20 : 30 }, (_, i) => i);
    const dir = mkdtempSync(path.join(tmpdir(), 'harness-corpus-'));
    dirs.push(dir);
    const target = targets.get(bench)!;
    const store = RunStore.create(dir, {
      schemaVersion: RUN_MANIFEST_VERSION, runId: 'corpus', createdAt: '', bench, split: environment.split, taskIndices: tasks,
      target: { spec: `sim:${bench}?seed=1`, label: target.model.label, simulated: true }, patch: patch.manifest, options: {},
    });
    const { records } = await runBatch({ environment, model: target.model, hooks: patch.hooks, taskIndices: tasks, store, concurrency: 4 });
    store.close();
    await environment.close();
    const summary = summarizeRun(records);
    const faults = records.flatMap((r) => r.hookTrace.filter((t) => t.fault).map((t) => `${t.hook}:${t.fault!.kind}`));
    console.log(`${bench} ${path.relative(corpusRoot, file)}: success ${summary.successes}/${summary.scored}; effects ${JSON.stringify(summary.hookEffects)}; faults ${faults.length} (${[...new Set(faults)].join(', ')})`);
    expect(records).toHaveLength(tasks.length);
    expect(faults.filter((f) => OUR_SIDE.has(f.split(':')[1]!))).toEqual([]);
    expect(records.filter((r) => r.outcome === 'hook_fault' || r.outcome === 'env_error')).toEqual([]);
  }, 300_000);
});
