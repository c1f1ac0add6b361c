import { isInfraOutcome, type EpisodeRecord } from '../../episode/index.js';

/** What the reward decision and the batch result read from a rerun's episode records. */
export interface RerunFindings {
  /** Applied hook effects by `hook:effect`. */
  hookEffects: Record<string, number>;
  /** Every fault of every hook call. */
  hookFaults: number;
  /** Applied effects in all (0: the patch was inert). */
  appliedEffects: number;
  /** Episodes that still ended in an infrastructure failure. */
  infra: EpisodeRecord[];
  /** Rewards of the episodes that were played through, by task index. */
  patchedRewards: Map<number, number>;
  /** Notes for the batch result: hooks the sandbox switched off (their calls kept costing worker kills). */
  sandboxNotes: string[];
}

/** Reads a rerun's records: effects that applied, faults, infrastructure failures, the rewards that count. */
export function rerunFindings(records: readonly EpisodeRecord[]): RerunFindings {
  const hookEffects: Record<string, number> = {};
  let hookFaults = 0;
  let appliedEffects = 0;
  const switchedOff = new Set<string>();
  for (const r of records) {
    for (const t of r.hookTrace) {
      if (t.fault) hookFaults++;
      if (t.fault?.kind === 'disabled') switchedOff.add(`#${r.task.index} ${t.hook}[${t.hookIndex}]`);
      if (t.disposition === 'applied') {
        hookEffects[`${t.hook}:${t.effect}`] = (hookEffects[`${t.hook}:${t.effect}`] ?? 0) + 1;
        appliedEffects++;
      }
    }
  }
  return {
    hookEffects,
    hookFaults,
    appliedEffects,
    infra: records.filter((r) => isInfraOutcome(r.outcome)),
    patchedRewards: new Map(records.filter((r) => !isInfraOutcome(r.outcome)).map((r) => [r.task.index, r.reward])),
    sandboxNotes: switchedOff.size > 0 ? [`${switchedOff.size} hook(s) switched off after repeated sandbox worker kills: ${[...switchedOff].join(', ')}`] : [],
  };
}
