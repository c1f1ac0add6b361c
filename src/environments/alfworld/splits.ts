import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ConfigError } from '../../episode/index.js';
import { normalizeGameId, type AlfworldGameRecord } from './load-games.js';

/** AgentBench's ALFWorld splits and their files under `<dataDir>/alfworld/splits/`. */
export const ALFWORLD_SPLITS = {
  dev: 'dev.json',
  standard: 'standard.json',
  new_std: 'new_std.json',
  train_valid: 'train_valid.json',
} as const;

export type AlfworldSplitName = keyof typeof ALFWORLD_SPLITS;

/** One game path of a split, at its position in AgentBench's order (families in file order, then paths). */
export interface AlfworldSplitEntry {
  index: number;
  /** The split's family key ("pick_and_place", "look_at_obj", …). */
  family: string;
  /** The path as written in the split file (`…/game.tw-pddl`). */
  path: string;
  /** The game id it refers to (the path without `/game.tw-pddl`). */
  id: string;
}

/**
 * A split resolved against the shipped games. Games the data does not ship are listed in `missing`,
 * never dropped silently: new_std has 16 valid_unseen trials only the 2.1.1 release zip holds, and
 * train_valid lists `train/` games, none of which are shipped.
 */
export interface AlfworldSplit {
  name: AlfworldSplitName;
  file: string;
  entries: readonly AlfworldSplitEntry[];
  /** The shipped games of the split, in split order. */
  available: readonly { entry: AlfworldSplitEntry; game: AlfworldGameRecord }[];
  missing: readonly AlfworldSplitEntry[];
}

export function isAlfworldSplitName(value: string): value is AlfworldSplitName {
  return Object.hasOwn(ALFWORLD_SPLITS, value);
}

export function alfworldSplitPath(dataDir: string, split: string): string {
  if (!isAlfworldSplitName(split)) {
    throw new ConfigError({ message: `Unknown ALFWorld split '${split}'.`, field: 'split', allowed: Object.keys(ALFWORLD_SPLITS) });
  }
  return path.join(dataDir, 'alfworld', 'splits', ALFWORLD_SPLITS[split]);
}

/** Reads a split file and matches its paths to `games` (usually `loadAlfworldGames(dataDir)`). */
export function loadAlfworldSplit(dataDir: string, split: string, games: readonly AlfworldGameRecord[]): AlfworldSplit {
  const file = alfworldSplitPath(dataDir, split);
  const entries = readSplitEntries(file);
  const byId = new Map(games.map((g) => [g.id, g]));
  const available: { entry: AlfworldSplitEntry; game: AlfworldGameRecord }[] = [];
  const missing: AlfworldSplitEntry[] = [];
  for (const entry of entries) {
    const game = byId.get(entry.id);
    if (game) available.push({ entry, game });
    else missing.push(entry);
  }
  return { name: split as AlfworldSplitName, file, entries, available, missing };
}

/** The entries of a split file: a JSON object from family key to a list of game paths. */
export function readSplitEntries(file: string): AlfworldSplitEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new ConfigError({ message: `Cannot read ALFWorld split file ${file}: ${(cause as Error).message}`, field: 'split', cause });
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ConfigError({ message: `${file}: a split must be a JSON object from family to game paths.`, field: 'split' });
  }
  const entries: AlfworldSplitEntry[] = [];
  for (const [family, paths] of Object.entries(data)) {
    if (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string')) {
      throw new ConfigError({ message: `${file}: family '${family}' must list game paths.`, field: family });
    }
    for (const p of paths as string[]) entries.push({ index: entries.length, family, path: p, id: normalizeGameId(p) });
  }
  return entries;
}
