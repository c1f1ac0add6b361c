/** Bumped whenever the run manifest's shape changes. */
export const RUN_MANIFEST_VERSION = 1 as const;

/**
 * What a run is: which tasks, which target, which patch and options. Resuming a run requires the same
 * identity (everything but `createdAt`), so a resumed run never mixes two configurations.
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
