import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { ConfigError } from '../episode/index.js';
import type { DbBenchOverlay } from '../environments/dbbench/legacy-overlay.js';
import type { HookProvider } from '../hooks/hook-provider.js';
import { describeRejection, validatePatchFile, type Benchmark, type HarnessPatch } from '../patch/index.js';
import { codeHooksOf, dbBenchOverlayOf } from '../patch/patch-parts.js';
import { createPythonHookProvider, type PythonHookProvider, type SandboxPool } from '../sandbox/index.js';
import { sandboxCompiler } from './sandbox-compiler.js';

export interface RunPatch {
  patch: HarnessPatch;
  hooks: PythonHookProvider;
  overlay: DbBenchOverlay;
  manifest: { file: string; sha256: string };
  /** Validator notes (quirks of the original that were accepted) and hooks dropped at install. */
  notes: string[];
}

/**
 * Validates a patch file exactly as `harness-r1 validate` does and installs it for a run: code hooks as
 * sandboxed Python hooks, legacy skills and tool-hint edits as the DBBench overlay. An invalid patch is a
 * usage error naming the field and the rule.
 */
export async function loadRunPatch(file: string, bench: Benchmark, pool: SandboxPool): Promise<RunPatch> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (cause) {
    throw new ConfigError({ message: `Cannot read patch ${file}: ${(cause as Error).message}`, field: 'patch', cause });
  }
  const verdict = await validatePatchFile(file, { bench, compiler: sandboxCompiler(pool) });
  if (verdict.kind === 'invalid') {
    throw new ConfigError({ message: `Patch ${file} is invalid: ${describeRejection(verdict.rejection)}`, field: 'patch' });
  }
  const patch = verdict.patch;
  if (patch.benchmark !== bench) {
    throw new ConfigError({ message: `Patch ${file} is for '${patch.benchmark}', but the run is on '${bench}'.`, field: 'patch' });
  }
  const legacy = patch.actions.filter((a) => a.type !== 'add_code_hook');
  if (bench !== 'dbbench' && legacy.length > 0) {
    throw new ConfigError({
      message: `Patch ${file} has legacy DSL actions (${[...new Set(legacy.map((a) => a.type))].join(', ')}), which harness-r1 runs only on dbbench so far; use add_code_hook actions on ${bench}.`,
      field: 'patch',
    });
  }
  const hooks = await createPythonHookProvider(pool, codeHooksOf(patch), { benchmark: bench, label: `patch ${file}` });
  const overlay = dbBenchOverlayOf(patch);
  const notes = [...verdict.notes.map((n) => `${n.kind}: ${n.message}`), ...hooks.dropped.map((d) => `hook #${d.position} (${d.hook}) dropped at install: ${d.reason}`)];
  return { patch, hooks, overlay, manifest: { file, sha256: createHash('sha256').update(bytes).digest('hex') }, notes };
}

export type { HookProvider };
