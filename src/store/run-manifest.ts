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
  return JSON.stringify({ bench: m.bench, split: m.split, taskIndices: m.taskIndices, target: m.target.spec, patch: m.patch?.sha256 ?? null, options: m.options });
}
