/**
 * The episodes an agent-SFT export can learn from, read through the run-directory reader: a `run` store
 * (harnessed when it was played with a patch) or an `improve` run directory, whose baseline episodes had no
 * intervention and whose reruns had the batch's patch installed.
 */
import { createHash } from 'node:crypto';

import { isInfraOutcome, type EpisodeRecord } from '../../episode/index.js';
import type { RunArtifacts, StoredRun } from '../../run-dir/read-run.js';

/** Whether the target played with a harness: a patch installed (`harnessed`) or none (`no_intervention`). */
export type EpisodeKind = 'harnessed' | 'no_intervention';

/** Which kinds of episodes an export keeps. */
export const EPISODE_CHOICES = ['baseline', 'harnessed', 'both'] as const;
export type EpisodeChoice = (typeof EPISODE_CHOICES)[number];

export function isEpisodeChoice(value: string): value is EpisodeChoice {
  return (EPISODE_CHOICES as readonly string[]).includes(value);
}

export function choiceKeeps(choice: EpisodeChoice, kind: EpisodeKind): boolean {
  return choice === 'both' || (choice === 'baseline') === (kind === 'no_intervention');
}

/** One stored episode and where it came from. */
export interface SourcedEpisode {
  record: EpisodeRecord;
  kind: EpisodeKind;
  /** The run directory's name, as given (`--from`). */
  sourceRun: string;
  sourceRunKind: RunArtifacts['kind'];
  /** The run store inside it: `.` (a run), `baseline` or `reruns/<key>` (improve). */
  sourcePart: string;
  /** The improve batch whose rerun played it; null otherwise. */
  batchTag: string | null;
  /** The patch file's digest (`run --patch`), or of the batch's normalized patch (improve reruns). */
  patchSha256: string | null;
  target: { spec: string; label: string; simulated: boolean };
  /** The task file the run played instead of a split (its digest), part of the task's identity. */
  dataFileSha256: string | null;
}

function dataFileSha(run: StoredRun): string | null {
  const file = run.manifest.options.dataFile;
  if (typeof file === 'object' && file !== null && typeof (file as { sha256?: unknown }).sha256 === 'string') return (file as { sha256: string }).sha256;
  return null;
}

function fromStore(run: StoredRun, base: { sourceRun: string; sourceRunKind: RunArtifacts['kind']; kind: EpisodeKind; batchTag: string | null; patchSha256: string | null }): SourcedEpisode[] {
  return run.records.map((record) => ({ record, ...base, sourcePart: run.dir, target: run.manifest.target, dataFileSha256: dataFileSha(run) }));
}

/** Every final episode record of a run directory, each with its kind and source. */
export function collectEpisodes(artifacts: RunArtifacts, sourceRun: string): SourcedEpisode[] {
  if (artifacts.kind === 'run') {
    const patch = artifacts.run.manifest.patch;
    return fromStore(artifacts.run, { sourceRun, sourceRunKind: 'run', kind: patch ? 'harnessed' : 'no_intervention', batchTag: null, patchSha256: patch?.sha256 ?? null });
  }
  const out = fromStore(artifacts.baseline, { sourceRun, sourceRunKind: 'improve', kind: 'no_intervention', batchTag: null, patchSha256: null });
  const seen = new Set<string>();
  for (const batch of artifacts.batches) {
    if (!batch.rerun || seen.has(batch.rerun.dir)) continue;
    seen.add(batch.rerun.dir);
    // A rerun store records its batch, not a patch file: the patch is the batch's normalized patch.json.
    const patchSha256 = batch.rerun.manifest.patch?.sha256 ?? (batch.patch ? createHash('sha256').update(JSON.stringify(batch.patch)).digest('hex') : null);
    out.push(...fromStore(batch.rerun, { sourceRun, sourceRunKind: 'improve', kind: 'harnessed', batchTag: batch.tag, patchSha256 }));
  }
  return out;
}

/** A task's identity across runs: benchmark, split and index, and the task file's digest when one was played. */
export function taskIdentity(e: SourcedEpisode): string {
  const t = e.record.task;
  return `${t.bench}/${t.split}/${t.index}${e.dataFileSha256 ? `@${e.dataFileSha256.slice(0, 16)}` : ''}`;
}

/** Why an episode is not a demonstration, or null when it is one. */
export function skipReason(e: SourcedEpisode, minReward: number): 'infrastructure_failure' | 'failure' | 'empty' | null {
  if (isInfraOutcome(e.record.outcome)) return 'infrastructure_failure';
  if (!(e.record.reward >= minReward)) return 'failure';
  if (!e.record.messages.some((m) => m.role === 'assistant')) return 'empty';
  return null;
}

/** Hook effects the runtime applied in the episode (0 for a harnessed episode no hook changed). */
export function appliedHookEffects(record: EpisodeRecord): number {
  return record.hookTrace.filter((h) => h.disposition === 'applied' && h.effect !== 'none').length;
}
