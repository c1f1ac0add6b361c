import { isHookName, type HookName } from '../episode/index.js';
import type { EpisodeHooks, HookCallResult, HookProvider } from '../hooks/hook-provider.js';
import { compileHook, originalBenchmarkArgument, type CompileRules } from './compile-hook.js';
import type { SandboxEpisode, SandboxPool } from './worker-pool.js';

export interface PythonHookSource {
  hook: HookName;
  code: string;
}

export interface PythonHookProviderOptions {
  /** The compile rules of the benchmark the hooks are for (e.g. the numbered-instance literal rule). */
  rules?: CompileRules;
  label?: string;
}

/** A hook that failed `compile_hook` at install time and was dropped, as the original does silently. */
export interface DroppedHook {
  /** Position in the list given to `createPythonHookProvider`. */
  position: number;
  hook: string;
  reason: string;
}

export interface InstalledHook {
  position: number;
  hook: HookName;
  /** Position among the installed hooks with the same name: the `hookIndex` of its results. */
  hookIndex: number;
  nodeCount: number;
}

export interface PythonHookProvider extends HookProvider {
  readonly installed: readonly InstalledHook[];
  readonly dropped: readonly DroppedHook[];
  /** CPython version (inside Pyodide) that validated the hooks. */
  readonly pythonVersion: string;
}

/**
 * Sandboxed Python hooks for episodes (protocol.md §4.1, §5.2, §5.3). Hooks are compiled once here; one that
 * fails `compile_hook` is dropped (listed in `dropped` with the reason) and the rest keep patch order.
 *
 * Per episode, `nb` is a Python dict inside the worker the episode is pinned to; every hook of the episode
 * shares it live. Each call deep-copies ctx (JSON, then a dict subclass with attribute reads). Results come
 * back as JSON (`raw`): dicts become objects, tuples and lists arrays, and values JSON cannot hold become
 * marker objects `{ "$pyType": "set", "pyRepr": "{1, 2}" }` (also non-finite floats and integers beyond
 * ±2^53). A failing hook gives a fault and the episode goes on:
 * - `exception`, `line_budget`, `memory`, `bad_result` (unconvertible or too large result): nb keeps the
 *   hook's partial writes, as in the original;
 * - `timeout`: interrupted inside the interpreter (nb kept), or, if it ignored the interrupt, its worker was
 *   killed (nb reset);
 * - `worker_crash`: the worker died. The hook in flight gets the fault (`timeout`/`memory` when that was the
 *   cause) and later hooks of the same call run on a fresh worker with a fresh nb; an episode whose worker
 *   died while it was idle gets `worker_crash` for every hook of its next call (none run), then continues
 *   with a fresh nb.
 */
export async function createPythonHookProvider(
  pool: SandboxPool,
  hooks: readonly PythonHookSource[],
  options: PythonHookProviderOptions = {},
): Promise<PythonHookProvider> {
  const benchmark = originalBenchmarkArgument(options.rules);
  const installed: InstalledHook[] = [];
  const dropped: DroppedHook[] = [];
  const sources: string[] = [];
  const byName = new Map<HookName, number[]>();
  let pythonVersion = pool.info().pythonVersion ?? 'unknown';
  const verdicts = await Promise.all(hooks.map((entry) => (isHookName(entry.hook) ? compileHook(pool, entry.code, options.rules) : undefined)));
  for (const [position, entry] of hooks.entries()) {
    const verdict = verdicts[position];
    if (verdict === undefined || !isHookName(entry.hook)) {
      dropped.push({ position, hook: String(entry.hook), reason: `unknown hook name '${String(entry.hook)}'` });
      continue;
    }
    pythonVersion = verdict.pythonVersion;
    if (!verdict.ok) {
      dropped.push({ position, hook: entry.hook, reason: verdict.reason });
      continue;
    }
    const indices = byName.get(entry.hook) ?? [];
    installed.push({ position, hook: entry.hook, hookIndex: indices.length, nodeCount: verdict.nodeCount });
    indices.push(sources.length);
    byName.set(entry.hook, indices);
    sources.push(entry.code);
  }
  const hookset = { sources, benchmark };
  const label = options.label ?? `python hooks (${installed.length} installed${dropped.length ? `, ${dropped.length} dropped` : ''})`;

  return {
    label,
    installed,
    dropped,
    pythonVersion,
    async openEpisode(): Promise<EpisodeHooks> {
      const episode = sources.length > 0 ? await pool.openEpisode(hookset) : undefined;
      return createEpisodeHooks(episode, byName);
    },
  };
}

function createEpisodeHooks(episode: SandboxEpisode | undefined, byName: ReadonlyMap<HookName, number[]>): EpisodeHooks {
  return {
    count: (hook) => byName.get(hook)?.length ?? 0,
    async call(hook, ctx) {
      const indices = byName.get(hook) ?? [];
      if (episode === undefined || indices.length === 0) return [];
      const lost = episode.takeLostWorker();
      if (lost !== undefined) return indices.map((_, hookIndex) => ({ hookIndex, fault: lost }));
      let ctxJson: string;
      try {
        ctxJson = JSON.stringify(ctx);
      } catch (error) {
        const message = `ctx cannot be sent to the sandbox: ${(error as Error).message}`;
        return indices.map((_, hookIndex) => ({ hookIndex, fault: { kind: 'exception', message } }));
      }
      const results: HookCallResult[] = [];
      for (const [hookIndex, globalIndex] of indices.entries()) {
        const outcome = await episode.call(globalIndex, ctxJson);
        results.push('fault' in outcome ? { hookIndex, fault: outcome.fault } : { hookIndex, raw: outcome.raw });
      }
      return results;
    },
    async close() {
      await episode?.close();
    },
  };
}
