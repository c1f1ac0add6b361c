import { isInfraOutcome, type EpisodeRecord } from '../episode/index.js';
import { familyOf } from '../evaluation/summarize-families.js';
import type { BatchArtifacts, RunArtifacts } from '../run-dir/read-run.js';

/** What happened to one task between the baseline and the patched rerun. */
export type TaskChange =
  /** Failed in the baseline, passes with the patch. */
  | 'rescued'
  /** Passed in the baseline, fails with the patch. */
  | 'regressed'
  | 'still_pass'
  | 'still_fail'
  /** Left out of the batch because its baseline episode failed for infrastructure reasons. */
  | 'excluded'
  /** The batch's patch was never rerun (no failures, no patch, invalid patch, …). */
  | 'not_rerun'
  /** The rerun of this task is missing or ended in an infrastructure failure. */
  | 'missing'
  /** A plain run: there is nothing to compare with. */
  | 'single';

export interface TaskRow {
  index: number;
  batchTag: string | null;
  /** The task's family or type (e.g. `pick_and_place`, `counting`), when recorded. */
  type: string | null;
  baseline: EpisodeRecord | null;
  patched: EpisodeRecord | null;
  change: TaskChange;
}

export interface HookFiring {
  /** `hook:effect`, `hook:effect (ignored)` or `hook fault: kind`. */
  key: string;
  count: number;
}

/** The hooks that did something in an episode: applied and ignored effects and faults, with counts. */
export function summarizeHookFirings(record: EpisodeRecord): HookFiring[] {
  const counts = new Map<string, number>();
  for (const t of record.hookTrace) {
    let key: string | null = null;
    if (t.fault) key = `${t.hook} fault: ${t.fault.kind}`;
    else if (t.disposition === 'applied') key = `${t.hook}:${t.effect}`;
    else if (t.disposition === 'ignored') key = `${t.hook}:${t.effect} (ignored)`;
    if (key !== null) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.entries()].map(([key, count]) => ({ key, count }));
}

function taskType(record: EpisodeRecord | null): string | null {
  const family = record ? familyOf(record) : '';
  return family === '' ? null : family;
}

function batchThreshold(batch: BatchArtifacts): number {
  return batch.metadata?.threshold ?? 1;
}

/** One row per task, in task order: the baseline and patched episodes side by side. */
export function buildTaskRows(artifacts: RunArtifacts): TaskRow[] {
  if (artifacts.kind === 'run') {
    return artifacts.run.records.map((r) => ({ index: r.task.index, batchTag: null, type: taskType(r), baseline: r, patched: null, change: 'single' }));
  }
  const baseline = new Map(artifacts.baseline.records.map((r) => [r.task.index, r]));
  const rows: TaskRow[] = [];
  for (const batch of artifacts.batches) {
    const patchedByIndex = new Map((batch.rerun?.records ?? []).map((r) => [r.task.index, r]));
    const threshold = batchThreshold(batch);
    for (const index of batch.result.taskIndices) {
      const before = baseline.get(index) ?? null;
      const after = patchedByIndex.get(index) ?? null;
      rows.push({ index, batchTag: batch.tag, type: taskType(before ?? after), baseline: before, patched: after, change: classify(batch, index, before, after, threshold) });
    }
  }
  return rows.sort((a, b) => a.index - b.index);
}

function classify(batch: BatchArtifacts, index: number, before: EpisodeRecord | null, after: EpisodeRecord | null, threshold: number): TaskChange {
  if (batch.result.excludedTasks.includes(index) || before === null) return 'excluded';
  if (batch.result.rerun === null) return 'not_rerun';
  if (after === null || isInfraOutcome(after.outcome)) return 'missing';
  const was = before.reward >= threshold;
  const now = after.reward >= threshold;
  if (was && now) return 'still_pass';
  if (!was && !now) return 'still_fail';
  return now ? 'rescued' : 'regressed';
}
