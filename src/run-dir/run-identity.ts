/**
 * What an improve run is (`<run>/improve.json`): every setting that changes its results: benchmark,
 * split or task file, tasks and their batching, target, engineer (its SPEC carries its sampling), metric,
 * pass threshold, protocol and round cap, the revision pass, the baseline target strategy (absent for the
 * plain target, so runs made before strategies existed resume unchanged), generate-only and a patch source
 * (each absent when not used) and the benchmark's own options. An improve
 * run directory is only ever continued with the same identity, so a resumed run never mixes batches of two
 * configurations; `improve` refuses another one with the differences.
 */
import { ConfigError } from '../episode/index.js';

export const IMPROVE_IDENTITY_VERSION = 1 as const;

export interface ImproveIdentity {
  schemaVersion: typeof IMPROVE_IDENTITY_VERSION;
  bench: string;
  split: string;
  taskIndices: number[];
  batchSize: number;
  /** `--batches N` (only the first N batches), or null for all. */
  batches: number | null;
  target: string;
  /** The engineer SPEC, or {@link PATCH_SOURCE_ENGINEER} when patches are replayed from `patchSource`. */
  engineer: string;
  metric: string;
  threshold: number;
  protocol: string;
  revise: boolean;
  /** The benchmark's identity of its environment (backend, grading, round cap, task file and its hash…). */
  options: Record<string, unknown>;
  /** Lifecycle positions whose hooks reruns do not call (`--disable-hooks`); absent when none. */
  disabledHooks?: readonly string[];
  /** The baseline target strategy the baseline and every rerun are played with (`--strategy`); absent: the plain target. */
  strategy?: string;
  /** The wall-clock limit of one hook call in reruns (`--hook-timeout-ms`); absent: the default. */
  hookTimeoutMs?: number;
  /** `--generate-only`: patches are generated and written out, never rerun or scored; absent otherwise. */
  generateOnly?: true;
  /** `--patch-source DIR`: the folder, resolved; absent when an engineer is asked. */
  patchSource?: string;
  /** sha256 over the patch files of the run's batches in `patchSource` (a changed, added or removed file changes it). */
  patchSourceDigest?: string;
}

/** What `engineer` says in the identity of a run whose patches are replayed from a patch source. */
export const PATCH_SOURCE_ENGINEER = '(patch source)';

/**
 * What a strategy and a hook time limit add to improve's identity and its rerun context: each only when
 * given, so a run without them keeps the identity (and the rerun cache keys) it had before they existed.
 */
export function strategyAndTimeout<S extends string>(o: { strategy?: S | undefined; hookTimeoutMs?: number | undefined }): { strategy?: S; hookTimeoutMs?: number } {
  return { ...(o.strategy ? { strategy: o.strategy } : {}), ...(o.hookTimeoutMs !== undefined ? { hookTimeoutMs: o.hookTimeoutMs } : {}) };
}

function flatten(identity: ImproveIdentity): Record<string, unknown> {
  const { options, schemaVersion: _version, ...rest } = identity;
  return { ...rest, ...Object.fromEntries(Object.entries(options).map(([k, v]) => [`options.${k}`, v])) };
}

/** What differs between a stored identity and a given one, as `name: stored → given` lines (empty when none). */
export function identityDifferences(stored: ImproveIdentity, given: ImproveIdentity): string[] {
  const a = flatten(stored);
  const b = flatten(given);
  const show = (v: unknown): string => (v === undefined ? '(unset)' : Array.isArray(v) && v.length > 8 ? `${v.length} tasks ${v[0]}…${v[v.length - 1]}` : JSON.stringify(v));
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .map((k) => `${k}: ${show(a[k])} → ${show(b[k])}`);
}

/** Refuses to continue `dir` with another identity, naming every difference and the ways out. */
export function checkSameIdentity(dir: string, stored: ImproveIdentity, given: ImproveIdentity): void {
  if (stored.schemaVersion !== IMPROVE_IDENTITY_VERSION) {
    throw new ConfigError({ message: `${dir}: improve.json version ${String(stored.schemaVersion)} is not supported.`, field: 'runDir' });
  }
  const differences = identityDifferences(stored, given);
  if (differences.length === 0) return;
  throw new ConfigError({
    message: `Cannot continue ${dir}: it was started with different settings:\n  ${differences.join('\n  ')}\nRun with the same settings to resume it, pass --new to start a new run directory, or choose another --run-dir.`,
    field: 'runDir',
  });
}
