/** Bumped whenever the run manifest's shape changes (optional informational fields excepted). */
export const RUN_MANIFEST_VERSION = 1 as const;

/** What a run's data holds beyond its identity: what the chosen split names but the data does not ship. */
export interface RunDataNotes {
  /** Games (tasks) the split lists that the data does not ship: they are not played. */
  unshipped?: { count: number; listed: number; ids: string[] };
}

/**
 * What a run is: which tasks, which target, which patch and options. Resuming a run requires the same
 * identity (everything but `createdAt` and `data`), so a resumed run never mixes two configurations. A
 * task file given instead of a named split (`--data`, `--games`) is part of `options` (`dataFile`: path and
 * sha256), so a run, a baseline or a rerun is never reused for another file or another version of it.
 */
export interface RunManifest {
  schemaVersion: typeof RUN_MANIFEST_VERSION;
  runId: string;
  createdAt: string;
  bench: string;
  split: string;
  taskIndices: number[];
  target: { spec: string; label: string; simulated: boolean };
  patch: { file: string; sha256: string } | null;
  options: Record<string, unknown>;
  data?: RunDataNotes;
}

/** The parts of a manifest that must match for `--resume`. */
export function manifestIdentity(m: RunManifest): string {
  return JSON.stringify(identityParts(m));
}

function identityParts(m: RunManifest): Record<string, unknown> {
  return { bench: m.bench, split: m.split, taskIndices: m.taskIndices, target: m.target.spec, patch: m.patch?.sha256 ?? null, ...Object.fromEntries(Object.entries(m.options).map(([k, v]) => [`options.${k}`, v])) };
}

/** What differs between two manifests' identities, as `name: stored → given` lines (empty when none). */
export function manifestDifferences(stored: RunManifest, given: RunManifest): string[] {
  const a = identityParts(stored);
  const b = identityParts(given);
  const show = (v: unknown): string => (v === undefined ? '(unset)' : Array.isArray(v) && v.length > 8 ? `${v.length} items` : JSON.stringify(v));
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .map((k) => `${k}: ${show(a[k])} → ${show(b[k])}`);
}
