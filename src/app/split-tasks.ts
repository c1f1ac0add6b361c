/**
 * Where the tasks of a split manifest are played: a manifest names tasks by identity (`dev:7`,
 * `synthetic:512`, an ALFWorld game id), an environment by split and index. The mapping is the
 * benchmark's, so it lives in the composition root; tasks the shipped data cannot play (ALFWorld train
 * games) are returned apart, never dropped silently.
 */
import { ConfigError } from '../episode/index.js';
import { loadAlfworldSplitGames } from '../environments/alfworld/splits.js';
import type { LocatedSplit, LocatedTask } from '../training/rows/export-rl.js';
import type { SplitManifest, SplitTask } from '../task-splits/index.js';

export type { LocatedSplit, LocatedTask };

const PREFIXED = /^([a-z]+):(\d+)$/;

/** The environment tasks of some manifest tasks (in manifest order). */
export function locateSplitTasks(manifest: SplitManifest, tasks: readonly SplitTask[], dataDir: string): LocatedSplit {
  switch (manifest.benchmark) {
    case 'dbbench':
      return byPrefix(tasks, (prefix) => (prefix === 'dev' || prefix === 'standard' ? { split: prefix, options: {} } : undefined), 'a --pool task file is not a shipped split (play it with --data)');
    case 'webshop':
      return byPrefix(tasks, (prefix) => (prefix === 'synthetic' || prefix === 'human' ? { split: 'dev', options: { goals: prefix } } : undefined), 'not a WebShop goal identity');
    case 'alfworld': {
      const games = loadAlfworldSplitGames(dataDir, 'train_valid');
      const position = new Map(games.available.map((a, i) => [a.entry.id, i]));
      const located: LocatedTask[] = [];
      const unplayable: LocatedSplit['unplayable'] = [];
      for (const task of tasks) {
        const index = position.get(task.id);
        if (index === undefined) unplayable.push({ id: task.id, reason: 'game not shipped with the data' });
        else located.push({ ...task, index });
      }
      return { split: 'train_valid', options: {}, tasks: located, unplayable };
    }
    default:
      throw new ConfigError({ message: `No task locator for ${manifest.benchmark} split manifests.`, field: 'bench', allowed: ['dbbench', 'webshop', 'alfworld'] });
  }
}

function byPrefix(tasks: readonly SplitTask[], place: (prefix: string) => { split: string; options: Record<string, unknown> } | undefined, why: string): LocatedSplit {
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
