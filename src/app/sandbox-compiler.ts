import type { HookCompiler } from '../patch/index.js';
import { compileHook, createSandboxPool, type SandboxPool } from '../sandbox/index.js';

/** A hook compiler plus the resource behind it (a sandbox pool), closed after validation. */
export interface CompilerHandle {
  compiler: HookCompiler;
  close(): Promise<void>;
}

/** The real hook compiler: `compile_hook` rules run by CPython (Pyodide) inside a sandbox worker. */
export function sandboxCompiler(pool: SandboxPool): HookCompiler {
  return async (source, rules) => {
    const verdict = await compileHook(pool, source, rules);
    return verdict.ok ? { ok: true } : { ok: false, reason: verdict.reason };
  };
}

/** Opens a one-worker pool for validation only, closed with the handle. */
export async function openSandboxCompiler(): Promise<CompilerHandle> {
  const pool = await createSandboxPool({ size: 1 });
  return { compiler: sandboxCompiler(pool), close: () => pool.close() };
}
