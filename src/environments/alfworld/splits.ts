import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ConfigError } from '../../episode/index.js';
import { alfworldGameFileOfSubset, alfworldSubsetOf, loadAlfworldGamesFile, normalizeGameId, type AlfworldGameRecord } from './load-games.js';
import { ALFWORLD_FAMILY_OF } from './task-families.js';

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
  /** The split's name, or `file:<name>` for a games file played as a split. */
  name: string;
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
  return { name: split, file, entries, available, missing };
}

/**
 * A named split with only the games files it needs: the files of the subsets its paths name
 * (`valid_unseen/…` → `games/valid_unseen.jsonl`). A bad line in a games file therefore breaks only the
 * splits that play games from it; games of subsets that are not shipped are `missing`.
 */
export function loadAlfworldSplitGames(dataDir: string, split: string): AlfworldSplit {
  const file = alfworldSplitPath(dataDir, split);
  const subsets = [...new Set(readSplitEntries(file).map((e) => alfworldSubsetOf(e.id)))];
  const games = subsets.flatMap((subset) => {
    const gamesFile = alfworldGameFileOfSubset(dataDir, subset);
    return gamesFile === undefined ? [] : loadAlfworldGamesFile(gamesFile);
  });
  return loadAlfworldSplit(dataDir, split, games);
}

/**
 * A games file (`--games FILE`, the shipped format) played as a split: every game in file order, grouped
 * by nothing, each in the family of its task type; all of them available.
 */
export function alfworldGamesFileSplit(file: string, name: string): AlfworldSplit {
  const games = loadAlfworldGamesFile(file);
  const available = games.map((game, index) => ({ entry: { index, family: ALFWORLD_FAMILY_OF[game.taskType], path: `${game.id}/game.tw-pddl`, id: game.id }, game }));
  return { name, file, entries: available.map((a) => a.entry), available, missing: [] };
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
