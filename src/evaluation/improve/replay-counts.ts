import type { ReplayMode } from '../../models/replay-mode.js';
import type { RunStore } from '../../store/run-store.js';

/**
 * How a rerun was played: the replay mode, the model turns of its counting episodes, and how many of them
 * were answered from the baseline's recorded turns instead of a model call (the calls it saved).
 */
export interface ReplayCounts {
  mode: ReplayMode;
  /** Model turns of the rerun's counting episodes (replayed ones included). */
  turns: number;
  /** Turns answered from the baseline's recording: model calls saved. */
  replayed: number;
}

/** The replay counts of `tasks` in a run store, read from its `model-turns.jsonl`. */
export function replayCounts(mode: ReplayMode, store: RunStore, tasks: readonly number[]): ReplayCounts {
  const byTask = store.modelTurns();
  let turns = 0;
  let replayed = 0;
  for (const index of tasks) {
    const entry = byTask.get(index);
    if (!entry) continue;
    turns += entry.turns.length;
    replayed += entry.replayed;
  }
  return { mode, turns, replayed };
}
