import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DBBENCH_ENGINEER } from '../engineer/dbbench-engineer.js';

import { TEST_REGISTRY } from '../../../testing/sim-baseline.fixture.js';

import { BUILTIN_PATCH_RULES } from '../../../testing/builtin-patch-rules.js';

import { resolveTarget, type ResolvedTarget } from '../../../app/resolve-target.js';
import { sandboxCompiler } from '../../../app/sandbox-compiler.js';
import { resolveDataDir } from '../../../config/data-dir.js';
import type { EpisodeRecord } from '../../../episode/index.js';
import { dbBenchEnvironment } from '../environment.js';
import { createSqliteBackend } from '../../../environments/dbbench/sqlite-backend.js';
import { runBatch } from '../../../evaluation/run-batch.js';
import type { HookProvider } from '../../../hooks/hook-provider.js';
import { NO_HOOKS } from '../../../hooks/native-hooks.js';
import { validatePatch } from '../../../patch/index.js';
import { createPythonHookProvider, createSandboxPool, type SandboxPool } from '../../../sandbox/index.js';
import { RUN_MANIFEST_VERSION } from '../../../store/run-manifest.js';
import { RunStore } from '../../../store/run-store.js';
import type { EngineerInput, EngineerResult } from '../../../engineer/engineer.js';
import type { SymbolicPatch } from './compose-patch.js';
import { SIGNATURE_PATCH_NOTE, createSymbolicEngineer } from '../../../engineer/symbolic/symbolic-engineer.js';

/**
 * The symbolic engineer on real baseline episodes: DBBench dev 0:60 played by the simulated target
 * (`sim:dbbench?seed=1`, SQLite backend, no hooks), the patch it writes validated and installed as
 * sandboxed Python hooks, and the same tasks played again. Results are from the simulated target.
 */
const dataDir = resolveDataDir();
const SPEC = 'sim:dbbench?seed=1';
const TASKS = Array.from({ length: 60 }, (_, i) => i);

let pool: SandboxPool;
let target: ResolvedTarget;
const dirs: string[] = [];

async function play(hooks: HookProvider): Promise<EpisodeRecord[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'harness-symbolic-'));
  dirs.push(dir);
  const environment = dbBenchEnvironment({ dataDir, split: 'dev', backend: createSqliteBackend() });
  const store = RunStore.create(dir, {
    schemaVersion: RUN_MANIFEST_VERSION, runId: 'symbolic', createdAt: '', bench: 'dbbench', split: 'dev', taskIndices: TASKS,
    target: { spec: SPEC, label: target.model.label, simulated: true }, patch: null, options: {},
  });
  try {
    const { records } = await runBatch({ environment, model: target.model, hooks, taskIndices: TASKS, store, concurrency: 2 });
    return records;
  } finally {
    store.close();
    await environment.close();
  }
}

function engineerInput(episodes: EpisodeRecord[]): EngineerInput {
  return { benchmark: DBBENCH_ENGINEER, batchTag: 'batch_000', split: 'dev', taskIndices: TASKS, episodes, passThreshold: 1 };
}

function patchOf(result: EngineerResult): SymbolicPatch {
  if (result.status !== 'ok' || result.proposal.kind !== 'patch') throw new Error(`no patch: ${JSON.stringify(result)}`);
  return result.proposal.patch as SymbolicPatch;
}

/** Every string inside a value (deep). */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

let baseline: EpisodeRecord[];
let result: EngineerResult;

beforeAll(async () => {
  // The fault checks below are semantic; a generous budget keeps a loaded machine from causing timeouts.
  pool = createSandboxPool({ size: 1, hookTimeoutMs: 1000 });
  target = await resolveTarget(SPEC, { dataDir, registry: TEST_REGISTRY });
  baseline = await play(NO_HOOKS);
  result = await createSymbolicEngineer().propose(engineerInput(baseline));
}, 300_000);

afterAll(async () => {
  await target?.close();
  await pool?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const succeeded = (records: EpisodeRecord[]) => records.filter((r) => r.outcome === 'success').length;
const scored = (records: EpisodeRecord[]) => records.filter((r) => !['model_error', 'env_error', 'hook_fault'].includes(r.outcome)).length;

describe('the symbolic engineer on simulated-target baselines (DBBench dev 0:60)', () => {
  it('writes a valid patch from recurring signatures', async () => {
    expect(baseline).toHaveLength(TASKS.length);
    expect(result.status).toBe('ok');
    if (result.status === 'ok') console.log(`symbolic engineer notes (simulated target):\n  ${(result.notes ?? []).join('\n  ')}`);
    expect(result.status === 'ok' && result.notes).toContain(SIGNATURE_PATCH_NOTE);
    const verdict = await validatePatch(patchOf(result), { benchmarks: BUILTIN_PATCH_RULES, bench: 'dbbench', compiler: sandboxCompiler(pool), codeHookOnly: true, rejectRuntimeNoop: true });
    expect(verdict.kind).toBe('valid');
  });

  it('installed and rerun on the same tasks: hooks fire, no sandbox fault, success goes up', async () => {
    const patch = patchOf(result);
    const hooks = await createPythonHookProvider(pool, patch.actions, { rules: { numberedInstances: false }, label: 'symbolic patch' });
    expect(hooks.dropped).toEqual([]);
    const patched = await play(hooks);
    expect(patched).toHaveLength(TASKS.length);

    const faults = patched.flatMap((r) => r.hookTrace.filter((t) => t.fault).map((t) => `dev#${r.task.index} ${t.hook}: ${t.fault!.kind} ${t.fault!.message}`));
    expect(faults).toEqual([]);
    expect(patched.filter((r) => r.outcome === 'hook_fault')).toEqual([]);

    const effects: Record<string, number> = {};
    for (const r of patched) for (const t of r.hookTrace) if (t.effect !== 'none') effects[`${t.hook}:${t.effect}`] = (effects[`${t.hook}:${t.effect}`] ?? 0) + 1;
    expect(effects['on_init:init']).toBe(scored(patched));
    expect(effects['on_before_action:block_and_prompt'] ?? 0).toBeGreaterThan(0);
    expect(effects['make_pre_hint:hint'] ?? 0).toBeGreaterThan(0);

    const flips = TASKS.filter((_, i) => (baseline[i]!.outcome === 'success') !== (patched[i]!.outcome === 'success'));
    const rescued = flips.filter((i) => patched[i]!.outcome === 'success').length;
    console.log(
      `symbolic patch, simulated target ${SPEC}, dev 0:60: baseline ${succeeded(baseline)}/${scored(baseline)} -> patched ` +
        `${succeeded(patched)}/${scored(patched)} (rescued ${rescued}, regressed ${flips.length - rescued}); hook effects ${JSON.stringify(effects)}`,
    );
    expect(succeeded(patched)).toBeGreaterThan(succeeded(baseline));
  }, 300_000);

  it('writes no ground truth: no string found only in detail appears in the patch, and detail does not change it', async () => {
    const text = JSON.stringify(patchOf(result));
    const seen = baseline.map((r) => JSON.stringify(r.messages)).join('\n');
    const onlyInDetail = [...new Set(baseline.flatMap((r) => strings(r.detail)))].filter((s) => s.trim().length >= 2 && !seen.includes(s));
    expect(onlyInDetail.length).toBeGreaterThan(0);
    for (const label of onlyInDetail) expect(text).not.toContain(label);
    const withoutDetail = baseline.map((r) => ({ ...r, detail: { answer: ['PLANTED-GROUND-TRUTH'], reason: 'expected PLANTED-GROUND-TRUTH' } }));
    const again = patchOf(await createSymbolicEngineer().propose(engineerInput(withoutDetail)));
    expect(JSON.stringify(again)).toBe(text);
  });

  it('is deterministic on real episodes: the same baseline gives a byte-identical patch', async () => {
    const again = await createSymbolicEngineer().propose(engineerInput(structuredClone(baseline)));
    expect(JSON.stringify(again)).toBe(JSON.stringify(result));
  });
});
