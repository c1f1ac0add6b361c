/**
 * Where the tasks of a split manifest are played: a manifest names tasks by identity (`dev:7`, a game id),
 * an environment by split and index. The mapping is each benchmark's (`paperSplits.locate`); tasks the
 * shipped data cannot play are returned apart, never dropped silently.
 */
import type { AnyBenchmarkDefinition } from '../benchmark/definition.js';
import { ConfigError } from '../episode/index.js';
import type { LocatedSplit, LocatedTask, SplitTask } from '../task-splits/index.js';

export type { LocatedSplit, LocatedTask };

/** The environment tasks of some manifest tasks (in manifest order). */
export function locateSplitTasks(definition: AnyBenchmarkDefinition, tasks: readonly SplitTask[], dataDir: string): LocatedSplit {
  const locate = definition.paperSplits?.locate;
  if (locate === undefined) throw new ConfigError({ message: `${definition.name} cannot place split-manifest tasks in its environment (its definition has no paperSplits.locate).`, field: 'bench' });
  return locate(tasks, dataDir);
}
