import os from 'node:os';

import { ConfigError } from '../episode/index.js';

/** How the pool keeps hook code off the network (see README "Network"). */
export type NetworkIsolationMode = 'auto' | 'required' | 'off';

/** Settings of a sandbox pool. Every field has a default; see `resolveSandboxOptions`. */
export interface SandboxPoolOptions {
  /** Worker processes kept warm. Default: min(4, available cores), at least 1. */
  size?: number;
  /** Wall-clock limit of one hook call, enforced outside the interpreter. Default 50 ms (the original's budget). */
  hookTimeoutMs?: number;
  /**
   * Extra time after `hookTimeoutMs` before the parent SIGKILLs the worker, for work that ignores the
   * in-process interrupt (C code such as a catastrophic regex). Default 100 ms.
   */
  killGraceMs?: number;
  /** Traced `line` events allowed per hook call (the original's deterministic budget). Default 2000. */
  lineBudget?: number;
  /**
   * A hook whose calls have cost this many worker kills in one episode (it ignored the interrupt, or took
   * the worker down otherwise) is switched off for the rest of that episode; its later calls report a
   * `disabled` fault without running. 0 never switches a hook off. Default 2 (each kill costs the call's
   * budget, the grace period and a worker restart; one kill may be a machine hiccup, two are the hook).
   */
  hookKillLimit?: number;
  /** Hard cap on a worker's WebAssembly memory; growing past it is a Python MemoryError. Default 1024 MiB. */
  memoryLimitMb?: number;
  /** A worker whose WebAssembly memory grew past this is drained (no new episodes) and replaced. Default 384 MiB. */
  recycleHeapMb?: number;
  /** Deadline for validating a hook or opening an episode in a worker. Default 15 000 ms. */
  compileTimeoutMs?: number;
  /** Deadline for one worker to start. Default 120 000 ms. */
  startTimeoutMs?: number;
  /** JSON text of one hook result larger than this becomes a `bad_result` fault. Default 1 000 000 chars. */
  maxResultChars?: number;
  /** `auto` uses `unshare -n` when it works; `required` fails pool creation without it; `off` never uses it. */
  networkIsolation?: NetworkIsolationMode;
  /** Start workers from a Pyodide memory snapshot made by the first worker (about 5x faster). Default true. */
  useSnapshot?: boolean;
  /** Native stack of the interpreter thread; deep recursion then ends in RecursionError, not a crash. Default 256. */
  interpreterStackMb?: number;
  /** Test-only switches. Never set these outside tests. */
  testing?: {
    /**
     * Run hooks WITHOUT validation, with the full builtins and no in-interpreter guards, as if hook code had
     * escaped the interpreter; used to show that the OS boundary alone contains it.
     */
    simulateInterpreterEscape?: boolean;
  };
}

export interface ResolvedSandboxOptions {
  size: number;
  hookTimeoutMs: number;
  killGraceMs: number;
  lineBudget: number;
  hookKillLimit: number;
  memoryLimitMb: number;
  recycleHeapMb: number;
  compileTimeoutMs: number;
  startTimeoutMs: number;
  maxResultChars: number;
  networkIsolation: NetworkIsolationMode;
  useSnapshot: boolean;
  interpreterStackMb: number;
  simulateInterpreterEscape: boolean;
}

export const DEFAULT_HOOK_KILL_LIMIT = 2;

const NETWORK_MODES: readonly NetworkIsolationMode[] = ['auto', 'required', 'off'];

function positiveInt(field: keyof SandboxPoolOptions, value: number | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError({ message: `Sandbox option '${field}' must be an integer >= ${min}; got ${String(value)}.`, field });
  }
  return value;
}

/** Fills in defaults and rejects impossible values with a `ConfigError` naming the option. */
export function resolveSandboxOptions(options: SandboxPoolOptions = {}): ResolvedSandboxOptions {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  const networkIsolation = options.networkIsolation ?? 'auto';
  if (!NETWORK_MODES.includes(networkIsolation)) {
    throw new ConfigError({
      message: `Sandbox option 'networkIsolation' is '${String(networkIsolation)}'.`,
      field: 'networkIsolation',
      allowed: NETWORK_MODES,
    });
  }
  const resolved: ResolvedSandboxOptions = {
    size: positiveInt('size', options.size, Math.max(1, Math.min(4, cores))),
    hookTimeoutMs: positiveInt('hookTimeoutMs', options.hookTimeoutMs, 50),
    killGraceMs: positiveInt('killGraceMs', options.killGraceMs, 100, 0),
    lineBudget: positiveInt('lineBudget', options.lineBudget, 2000),
    hookKillLimit: positiveInt('hookKillLimit', options.hookKillLimit, DEFAULT_HOOK_KILL_LIMIT, 0),
    memoryLimitMb: positiveInt('memoryLimitMb', options.memoryLimitMb, 1024, 64),
    recycleHeapMb: positiveInt('recycleHeapMb', options.recycleHeapMb, 384, 32),
    compileTimeoutMs: positiveInt('compileTimeoutMs', options.compileTimeoutMs, 15_000),
    startTimeoutMs: positiveInt('startTimeoutMs', options.startTimeoutMs, 120_000),
    maxResultChars: positiveInt('maxResultChars', options.maxResultChars, 1_000_000),
    networkIsolation,
    useSnapshot: options.useSnapshot ?? true,
    interpreterStackMb: positiveInt('interpreterStackMb', options.interpreterStackMb, 256, 4),
    simulateInterpreterEscape: options.testing?.simulateInterpreterEscape === true,
  };
  if (resolved.recycleHeapMb > resolved.memoryLimitMb) {
    throw new ConfigError({
      message: `Sandbox option 'recycleHeapMb' (${resolved.recycleHeapMb}) must not exceed 'memoryLimitMb' (${resolved.memoryLimitMb}).`,
      field: 'recycleHeapMb',
    });
  }
  return resolved;
}
