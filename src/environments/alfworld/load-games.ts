import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

import { ConfigError } from '../../episode/index.js';
import type { AlfworldWording } from './load-logic.js';
import { ALFWORLD_TASK_TYPES, isAlfworldTaskType, type AlfworldTaskType } from './task-families.js';

/**
 * One shipped game: a line of `games/*.jsonl(.gz)`. Only the PDDL problem is needed to play it (the
 * domain and grammar come from `logic/`); the walkthrough is the expert plan in 2.1.2 wording.
 */
export interface AlfworldGameRecord {
  /** `json_2.1.1/<split>/<task dir>/<trial>`: AgentBench's split path without `/game.tw-pddl`. */
  id: string;
  taskType: AlfworldTaskType;
  /** The task text after "Your task is to: ", with its final period. */
  goal: string;
  solvable: boolean;
  /** The expert plan as shipped ("move X to Y"); see `walkthroughFor` for the 2.1.1 wording. */
  walkthrough: readonly string[];
  pddlProblem: string;
  /** Where the record was read, for messages: `file:line`. */
  source: string;
}

/** The shipped game files under `<dataDir>/alfworld/games/`. */
export const ALFWORLD_GAME_FILES = ['valid_unseen.jsonl', 'valid_train.jsonl.gz'] as const;

export function alfworldGameFilePaths(dataDir: string): string[] {
  return ALFWORLD_GAME_FILES.map((f) => path.join(dataDir, 'alfworld', 'games', f));
}

/**
 * The shipped games file holding a subset's games (`valid_unseen` → `valid_unseen.jsonl`): each file is
 * named after the subset in its ids (`json_2.1.1/<subset>/…`). Undefined for a subset that is not shipped.
 */
export function alfworldGameFileOfSubset(dataDir: string, subset: string): string | undefined {
  const name = ALFWORLD_GAME_FILES.find((f) => f.replace(/\.jsonl(\.gz)?$/, '') === subset);
  return name === undefined ? undefined : path.join(dataDir, 'alfworld', 'games', name);
}

/** The subset a game id belongs to: its second path part (`json_2.1.1/valid_unseen/…` → `valid_unseen`). */
export function alfworldSubsetOf(id: string): string {
  return id.split('/')[1] ?? '';
}

/** Every shipped game (valid_unseen then valid_train), checked for duplicate ids across files. */
export function loadAlfworldGames(dataDir: string): AlfworldGameRecord[] {
  const games = alfworldGameFilePaths(dataDir).flatMap((f) => loadAlfworldGamesFile(f));
  const seen = new Map<string, string>();
  for (const g of games) {
    const first = seen.get(g.id);
    if (first) throw new ConfigError({ message: `${g.source}: game id '${g.id}' was already read at ${first}.`, field: 'id' });
    seen.set(g.id, g.source);
  }
  return games;
}

/**
 * Reads a games file in the shipped format: one JSON object per line with `id`, `task_type`, `goal`,
 * `solvable`, `walkthrough_2_1_2` and `pddl_problem`. Gzip is recognised by its magic bytes, so `.jsonl`
 * and `.jsonl.gz` both work whatever the name. A malformed line is a ConfigError naming file, line and field.
 */
export function loadAlfworldGamesFile(file: string): AlfworldGameRecord[] {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (cause) {
    throw new ConfigError({ message: `Cannot read ALFWorld games file ${file}: ${(cause as Error).message}`, field: 'games', cause });
  }
  let text: string;
  try {
    text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
  } catch (cause) {
    throw new ConfigError({ message: `${file}: not a valid gzip file (${(cause as Error).message}).`, field: 'games', cause });
  }
  const games: AlfworldGameRecord[] = [];
  const ids = new Set<string>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    const where = `${file}:${i + 1}`;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch (cause) {
      throw new ConfigError({ message: `${where}: not valid JSON (${(cause as Error).message}).`, field: 'games', cause });
    }
    const game = parseGameRecord(record, where);
    if (ids.has(game.id)) throw new ConfigError({ message: `${where}: duplicate game id '${game.id}'.`, field: 'id' });
    ids.add(game.id);
    games.push(game);
  }
  if (games.length === 0) throw new ConfigError({ message: `${file}: the file holds no games.`, field: 'games' });
  return games;
}

export function parseGameRecord(record: unknown, where: string): AlfworldGameRecord {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    throw new ConfigError({ message: `${where}: a game must be a JSON object.`, field: 'games' });
  }
  const r = record as Record<string, unknown>;
  const field = <T>(name: string, ok: (v: unknown) => v is T, expected: string): T => {
    const v = r[name];
    if (!ok(v)) throw new ConfigError({ message: `${where}: field '${name}' must be ${expected}.`, field: name });
    return v;
  };
  const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
  const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
  const isSteps = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
  const taskType = r.task_type;
  if (!isAlfworldTaskType(taskType)) {
    throw new ConfigError({ message: `${where}: field 'task_type' is '${String(taskType)}'.`, field: 'task_type', allowed: ALFWORLD_TASK_TYPES });
  }
  return {
    id: normalizeGameId(field('id', isText, 'a non-empty string')),
    taskType,
    goal: field('goal', isText, 'a non-empty string'),
    solvable: field('solvable', isBool, 'true or false'),
    walkthrough: field('walkthrough_2_1_2', isSteps, 'a list of commands'),
    pddlProblem: field('pddl_problem', isText, 'the PDDL problem text'),
    source: where,
  };
}

/** Game ids are split paths without `/game.tw-pddl`; either form is accepted. */
export function normalizeGameId(id: string): string {
  return id.replace(/\/game\.tw-pddl$/, '');
}

/** Looks a game up by id (with or without `/game.tw-pddl`). An unknown id is a ConfigError. */
export function findAlfworldGame(games: readonly AlfworldGameRecord[], id: string): AlfworldGameRecord {
  const wanted = normalizeGameId(id);
  const game = games.find((g) => g.id === wanted);
  if (!game) {
    throw new ConfigError({ message: `Unknown ALFWorld game id '${id}': it is not among the ${games.length} games loaded (ids look like json_2.1.1/valid_unseen/<task>/<trial>).`, field: 'id' });
  }
  return game;
}

/**
 * The expert plan in a wording. The shipped plans say "move X to Y" (2.1.2); for 2.1.1 that becomes
 * "put X in/on Y", the only command whose text differs between the two.
 */
export function walkthroughFor(game: AlfworldGameRecord, wording: AlfworldWording): string[] {
  if (wording === '2.1.2') return [...game.walkthrough];
  return game.walkthrough.map((c) => c.replace(/^move (.+?) to (.+)$/, 'put $1 in/on $2'));
}
