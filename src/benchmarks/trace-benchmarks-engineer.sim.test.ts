import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { engineerBenchmark, TEST_REGISTRY } from '../testing/sim-baseline.fixture.js';

import { resolveTarget, type ResolvedTarget } from '../app/resolve-target.js';
import { sandboxCompiler } from '../app/sandbox-compiler.js';
import { resolveDataDir } from '../config/data-dir.js';
import type { EpisodeRecord } from '../episode/index.js';
import { alfworldEnvironment } from './alfworld/environment.js';
import { webShopEnvironment } from './webshop/environment.js';
import { runBatch } from '../evaluation/run-batch.js';
import type { HookProvider } from '../hooks/hook-provider.js';
import { NO_HOOKS } from '../hooks/native-hooks.js';
import { validatePatch } from '../patch/index.js';
import { createPythonHookProvider, createSandboxPool, type SandboxPool } from '../sandbox/index.js';
import { RUN_MANIFEST_VERSION } from '../store/run-manifest.js';
import { RunStore } from '../store/run-store.js';
import type { EngineerInput, EngineerResult } from '../engineer/engineer.js';
import { SIGNATURE_PATCH_NOTE, createSymbolicEngineer } from '../engineer/symbolic/symbolic-engineer.js';

/**
 * The symbolic engineer on real WebShop and ALFWorld baselines from the simulated targets (no hooks),
 * its patch validated, installed as sandboxed Python hooks, and the same tasks played again. The
 * numbers printed are from simulated targets, not real models.
 */
const dataDir = resolveDataDir();

type Bench = 'webshop' | 'alfworld';
const SETUPS: Record<Bench, { spec: string; split: string; tasks: number[] }> = {
  webshop: { spec: 'sim:webshop?seed=1', split: 'test', tasks: Array.from({ length: 30 }, (_, i) => i) },
  alfworld: { spec: 'sim:alfworld?seed=1', split: 'dev', tasks: Array.from({ length: 20 }, (_, i) => i) },
};

let pool: SandboxPool;
const dirs: string[] = [];

async function play(bench: Bench, target: ResolvedTarget, hooks: HookProvider): Promise<EpisodeRecord[]> {
  const { spec, split, tasks } = SETUPS[bench];
  const dir = mkdtempSync(path.join(tmpdir(), 'harness-symbolic-'));
  dirs.push(dir);
  const environment = bench === 'webshop' ? webShopEnvironment({ dataDir }) : alfworldEnvironment({ dataDir, split: 'dev' });
  const store = RunStore.create(dir, {
    schemaVersion: RUN_MANIFEST_VERSION, runId: 'symbolic', createdAt: '', bench, split, taskIndices: tasks,
    target: { spec, label: target.model.label, simulated: true }, patch: null, options: {},
  });
  try {
    const { records } = await runBatch({ environment, model: target.model, hooks, taskIndices: tasks, store, concurrency: 2 });
    return records;
  } finally {
    store.close();
    await environment.close();
  }
}

function engineerInput(bench: Bench, episodes: EpisodeRecord[]): EngineerInput {
  return { benchmark: engineerBenchmark(bench), batchTag: 'batch_000', split: SETUPS[bench].split, taskIndices: SETUPS[bench].tasks, episodes, passThreshold: 1 };
}

interface BenchPatch {
  benchmark: string;
  actions: { type: 'add_code_hook'; hook: 'on_init' | 'on_post_step' | 'make_pre_hint' | 'on_before_action'; code: string }[];
}

function patchOf(result: EngineerResult): BenchPatch {
  if (result.status !== 'ok' || result.proposal.kind !== 'patch') throw new Error(`no patch: ${JSON.stringify(result)}`);
  return result.proposal.patch as BenchPatch;
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

const succeeded = (records: EpisodeRecord[]) => records.filter((r) => r.outcome === 'success').length;
const scored = (records: EpisodeRecord[]) => records.filter((r) => !['model_error', 'env_error', 'hook_fault'].includes(r.outcome)).length;
const meanReward = (records: EpisodeRecord[]) => (records.reduce((s, r) => s + r.reward, 0) / Math.max(1, records.length)).toFixed(3);

beforeAll(async () => {
  // The fault checks below are semantic; a generous budget keeps a loaded machine from causing timeouts.
  pool = createSandboxPool({ size: 1, hookTimeoutMs: 1000 });
  await pool.ready();
});

afterAll(async () => {
  await pool?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe.each(['webshop', 'alfworld'] as const)('the symbolic engineer on simulated-target baselines (%s)', (bench) => {
  let target: ResolvedTarget;
  let baseline: EpisodeRecord[];
  let result: EngineerResult;

  beforeAll(async () => {
    target = await resolveTarget(SETUPS[bench].spec, { dataDir, registry: TEST_REGISTRY });
    baseline = await play(bench, target, NO_HOOKS);
    result = await createSymbolicEngineer().propose(engineerInput(bench, baseline));
  }, 300_000);

  afterAll(async () => {
    await target?.close();
  });

  it('writes a valid patch from recurring signatures', async () => {
    expect(baseline).toHaveLength(SETUPS[bench].tasks.length);
    expect(result.status).toBe('ok');
    if (result.status === 'ok') console.log(`symbolic engineer notes, ${bench} (simulated target):\n  ${(result.notes ?? []).join('\n  ')}`);
    expect(result.status === 'ok' && result.notes).toContain(SIGNATURE_PATCH_NOTE);
    const patch = patchOf(result);
    expect(patch.benchmark).toBe(bench);
    const verdict = await validatePatch(patch, { bench, benchmarks: TEST_REGISTRY.patchRules(), compiler: sandboxCompiler(pool), codeHookOnly: true, rejectRuntimeNoop: true });
    if (verdict.kind === 'invalid') throw new Error(JSON.stringify(verdict.rejection));
    expect(verdict.kind).toBe('valid');
  });

  it('installed and rerun on the same tasks: hooks fire, no sandbox fault', async () => {
    const patch = patchOf(result);
    const hooks = await createPythonHookProvider(pool, patch.actions, { rules: { numberedInstances: bench === 'alfworld' }, label: 'symbolic patch' });
    expect(hooks.dropped).toEqual([]);
    const patched = await play(bench, target, hooks);
    expect(patched).toHaveLength(SETUPS[bench].tasks.length);

    const faults = patched.flatMap((r) => r.hookTrace.filter((t) => t.fault).map((t) => `#${r.task.index} ${t.hook}: ${t.fault!.kind} ${t.fault!.message}`));
    expect(faults).toEqual([]);
    expect(patched.filter((r) => r.outcome === 'hook_fault')).toEqual([]);

    const effects: Record<string, number> = {};
    for (const r of patched) for (const t of r.hookTrace) if (t.effect !== 'none') effects[`${t.hook}:${t.effect}`] = (effects[`${t.hook}:${t.effect}`] ?? 0) + 1;
    expect(Object.keys(effects).some((k) => k.startsWith('on_before_action:') || k.startsWith('make_pre_hint:'))).toBe(true);

    const flips = SETUPS[bench].tasks.filter((_, i) => (baseline[i]!.outcome === 'success') !== (patched[i]!.outcome === 'success'));
    const rescued = flips.filter((i) => patched[i]!.outcome === 'success').length;
    console.log(
      `symbolic patch, ${SETUPS[bench].spec}, tasks 0:${SETUPS[bench].tasks.length}: baseline ${succeeded(baseline)}/${scored(baseline)} ` +
        `(mean reward ${meanReward(baseline)}) -> patched ${succeeded(patched)}/${scored(patched)} (mean reward ${meanReward(patched)}; ` +
        `rescued ${rescued}, regressed ${flips.length - rescued}); hook effects ${JSON.stringify(effects)}`,
    );
    expect(succeeded(patched)).toBeGreaterThanOrEqual(succeeded(baseline));
  }, 300_000);

  it('writes no ground truth and ignores detail', async () => {
    const text = JSON.stringify(patchOf(result));
    const seen = baseline.map((r) => JSON.stringify(r.messages)).join('\n');
    for (const s of [...new Set(baseline.flatMap((r) => strings(r.detail)))].filter((x) => x.trim().length >= 3 && !seen.includes(x))) {
      expect(text).not.toContain(s);
    }
    const planted = baseline.map((r) => ({ ...r, detail: { answer: 'PLANTED-GROUND-TRUTH' } }));
    expect(JSON.stringify(patchOf(await createSymbolicEngineer().propose(engineerInput(bench, planted))))).toBe(text);
  });

  it('is deterministic: the same baseline, in another order, gives a byte-identical result', async () => {
    const again = await createSymbolicEngineer().propose(engineerInput(bench, structuredClone(baseline).reverse()));
    expect(JSON.stringify(again)).toBe(JSON.stringify(result));
  });
});
