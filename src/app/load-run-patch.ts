import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { ConfigError } from '../episode/index.js';
import type { AnyBenchmarkDefinition } from '../benchmark/definition.js';
import type { HookProvider } from '../hooks/hook-provider.js';
import { compileRulesOf, describeRejection, validatePatchFile, type HarnessPatch, type PatchRulesLookup } from '../patch/index.js';
import { codeHooksOf } from '../patch/patch-parts.js';
import { createPythonHookProvider, type PythonHookProvider, type SandboxPool } from '../sandbox/index.js';
import { sandboxCompiler } from './sandbox-compiler.js';

export interface RunPatch {
  patch: HarnessPatch;
  hooks: PythonHookProvider;
  manifest: { file: string; sha256: string };
  /** Validator notes (quirks of the original that were accepted) and hooks dropped at install. */
  notes: string[];
}

/**
 * Validates a patch file exactly as `harness-r1 validate` does and installs it for a run: code hooks as
 * sandboxed Python hooks; legacy actions go to the benchmark, which installs those it honours. An invalid patch is a
 * usage error naming the field and the rule.
 */
export async function loadRunPatch(file: string, definition: AnyBenchmarkDefinition, benchmarks: PatchRulesLookup, pool: SandboxPool): Promise<RunPatch> {
  const bench = definition.name;
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (cause) {
    throw new ConfigError({ message: `Cannot read patch ${file}: ${(cause as Error).message}`, field: 'patch', cause });
  }
  const verdict = await validatePatchFile(file, { bench, benchmarks, compiler: sandboxCompiler(pool) });
  if (verdict.kind === 'invalid') {
    throw new ConfigError({ message: `Patch ${file} is invalid: ${describeRejection(verdict.rejection)}`, field: 'patch' });
  }
  const patch = verdict.patch;
  if (patch.benchmark !== bench) {
    throw new ConfigError({ message: `Patch ${file} is for '${patch.benchmark}', but the run is on '${bench}'.`, field: 'patch' });
  }
  const legacy = patch.actions.filter((a) => a.type !== 'add_code_hook');
  if (definition.evaluation.codeHookOnly && legacy.length > 0) {
    throw new ConfigError({
      message: `Patch ${file} has legacy DSL actions (${[...new Set(legacy.map((a) => a.type))].join(', ')}), which the ${bench} runtime does not run; use add_code_hook actions on ${bench}.`,
      field: 'patch',
    });
  }
  const hooks = await createPythonHookProvider(pool, codeHooksOf(patch), { rules: compileRulesOf(definition.patch), label: `patch ${file}` });
  const notes = [...verdict.notes.map((n) => `${n.kind}: ${n.message}`), ...hooks.dropped.map((d) => `hook #${d.position} (${d.hook}) dropped at install: ${d.reason}`)];
  return { patch, hooks, manifest: { file, sha256: createHash('sha256').update(bytes).digest('hex') }, notes };
}

export type { HookProvider };
