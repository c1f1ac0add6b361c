import { ConfigError } from '../episode/index.js';
import type { SplitTask } from './split-manifest.js';

/** A manifest task and the index an environment plays it at. */
export interface LocatedTask extends SplitTask {
  index: number;
}

/** Manifest tasks placed in an environment: its split, the options its indices need, and what cannot be played. */
export interface LocatedSplit {
  split: string;
  options: Record<string, unknown>;
  tasks: LocatedTask[];
  unplayable: { id: string; reason: string }[];
}

const PREFIXED = /^([a-z]+):(\d+)$/;

/**
 * Places tasks named `<prefix>:<index>` (`dev:7`, `synthetic:512`): `place` says which environment split
 * and options a prefix means, or undefined for a prefix the shipped data cannot play (reported with `why`).
 * Tasks of two environments in one call are refused: an export plays one environment at a time.
 */
export function locateByPrefix(tasks: readonly SplitTask[], place: (prefix: string) => { split: string; options: Record<string, unknown> } | undefined, why: string): LocatedSplit {
  let where: { split: string; options: Record<string, unknown> } | undefined;
  const located: LocatedTask[] = [];
  const unplayable: LocatedSplit['unplayable'] = [];
  for (const task of tasks) {
    const match = PREFIXED.exec(task.id);
    const here = match ? place(match[1]!) : undefined;
    if (!match || !here) {
      unplayable.push({ id: task.id, reason: why });
      continue;
    }
    if (where && (where.split !== here.split || JSON.stringify(where.options) !== JSON.stringify(here.options))) {
      throw new ConfigError({ message: `The manifest mixes tasks of two environments (${where.split} and ${here.split}); export one at a time.`, field: 'split' });
    }
    where = here;
    located.push({ ...task, index: Number(match[2]) });
  }
  return { split: where?.split ?? 'dev', options: where?.options ?? {}, tasks: located, unplayable };
}
