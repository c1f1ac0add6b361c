import { ConfigError, InternalError } from '../episode/index.js';
import { HELD_OUT_PARTITIONS, TRAINING_PARTITIONS, type PartitionName } from './partitions.js';
import type { SplitManifest } from './split-manifest.js';

/** A task an exporter is about to write: its identity, and its content hash when known. */
export interface TaskRef {
  id: string;
  sha256?: string | null;
}

/** A training task that is a validation or test task, by identity or by identical content. */
export interface Leak {
  id: string;
  heldOutId: string;
  partition: 'test' | 'validation';
  matchedBy: 'identity' | 'content';
}

type HeldOut = { id: string; partition: 'test' | 'validation' };

function heldOutIndex(manifest: SplitManifest): { byId: Map<string, HeldOut>; byHash: Map<string, HeldOut> } {
  const byId = new Map<string, HeldOut>();
  const byHash = new Map<string, HeldOut>();
  for (const partition of HELD_OUT_PARTITIONS) {
    for (const task of manifest.partitions[partition].tasks) {
      const entry = { id: task.id, partition };
      if (!byId.has(task.id)) byId.set(task.id, entry);
      if (task.sha256 && !byHash.has(task.sha256)) byHash.set(task.sha256, entry);
    }
  }
  return { byId, byHash };
}

/**
 * Every task among `tasks` that is one of the manifest's validation or test tasks: the same identity,
 * or (when a hash is given) the same content under another identity. Plain strings are identities.
 */
export function findLeaks(manifest: SplitManifest, tasks: Iterable<string | TaskRef>): Leak[] {
  const { byId, byHash } = heldOutIndex(manifest);
  const leaks: Leak[] = [];
  for (const item of tasks) {
    const ref = typeof item === 'string' ? { id: item } : item;
    const sameId = byId.get(ref.id);
    if (sameId) {
      leaks.push({ id: ref.id, heldOutId: sameId.id, partition: sameId.partition, matchedBy: 'identity' });
      continue;
    }
    const sameContent = ref.sha256 ? byHash.get(ref.sha256) : undefined;
    if (sameContent) leaks.push({ id: ref.id, heldOutId: sameContent.id, partition: sameContent.partition, matchedBy: 'content' });
  }
  return leaks;
}

function describe(leaks: readonly Leak[]): string {
  const shown = leaks
    .slice(0, 5)
    .map((l) => (l.matchedBy === 'identity' ? `${l.id} (${l.partition})` : `${l.id} (same content as ${l.partition} task ${l.heldOutId})`));
  return `${shown.join(', ')}${leaks.length > 5 ? `, and ${leaks.length - 5} more` : ''}`;
}

/**
 * The check exporters run before writing SFT or RL data: throws a ConfigError naming the leaked
 * tasks when any of `tasks` is a validation or test task of `manifest`. `what` names the output in
 * the message (e.g. "rl rows").
 */
export function assertNoLeakage(manifest: SplitManifest, tasks: Iterable<string | TaskRef>, what = 'training data'): void {
  const leaks = findLeaks(manifest, tasks);
  if (leaks.length === 0) return;
  throw new ConfigError({
    message: `${leaks.length} ${manifest.benchmark} task(s) in ${what} are held out for validation or test: ${describe(leaks)}. Training data must come from sft_train or rl_train.`,
    field: 'split',
  });
}

/**
 * The manifest's own invariant: no task in two partitions, and no training task with the content
 * of a held-out one. The builder checks every manifest with this before returning it.
 */
export function checkManifestDisjoint(manifest: SplitManifest): void {
  const owner = new Map<string, PartitionName>();
  for (const [name, partition] of Object.entries(manifest.partitions) as [PartitionName, SplitManifest['partitions'][PartitionName]][]) {
    for (const task of partition.tasks) {
      const first = owner.get(task.id);
      if (first) throw new InternalError({ message: `Split builder put ${manifest.benchmark} task ${task.id} in both ${first} and ${name}.` });
      owner.set(task.id, name);
    }
  }
  const leaks = findLeaks(manifest, TRAINING_PARTITIONS.flatMap((p) => manifest.partitions[p].tasks));
  if (leaks.length > 0) throw new InternalError({ message: `Split builder leaked held-out tasks into training: ${describe(leaks)}.` });
}
