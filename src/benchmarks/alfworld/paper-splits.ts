import path from 'node:path';

import { ConfigError } from '../../episode/index.js';
import { alfworldGameFilePaths, loadAlfworldGames, loadAlfworldGamesFile, type AlfworldGameRecord } from '../../environments/alfworld/load-games.js';
import { alfworldSplitPath, loadAlfworldSplitGames, readSplitEntries, type AlfworldSplitEntry } from '../../environments/alfworld/splits.js';
import type { PyValue } from '../../python/python-json.js';
import { createPythonRandom, type PythonRandom } from '../../python/python-random.js';
import {
  allocateLargestRemainder,
  canonicalSha256,
  compareWithPaper,
  fileSha256,
  formatCount,
  PARTITIONS,
  SPLIT_BATCH_SIZE,
  type PaperCounts,
  type LocatedSplit,
  type LocatedTask,
  type PaperSplits,
  type SplitTask,
  type PartitionName,
  type SourceFile,
  type SplitFile,
  type SplitManifest,
  type SplitPartition,
} from '../../task-splits/index.js';

export const ALFWORLD_SPLIT_PROCEDURE = 'alfworld-family-stratified-v1';

/** The paper's ALFWorld split parameters (Appendix 10, as we read it; `src/task-splits/README.md`). */
export const ALFWORLD_SPLIT = {
  /** The release's test list (`data/alfworld/test_set.json`): all of new_std plus this many from train_valid. */
  testFromTrainValid: 391,
  testSeed: 20260609,
  partitionSeed: 20260614,
  validationTasks: 99,
} as const;

/** The counts the paper's ALFWorld splits have. */
export const ALFWORLD_PAPER_COUNTS: PaperCounts = {
  pool: { count: 3150 - 391, basis: 'derived', note: 'train_valid (3,150) minus its 391 test games' },
  test: { count: 500, basis: 'stated', note: 'all 109 new_std + 391 stratified from train_valid, seed 20260609' },
  validation: { count: 99, basis: 'stated', note: 'stratified by family, seed 20260614' },
  sft_train: { count: null, basis: 'unknown', note: 'the SFT/RL proportion is not stated; we halve per family' },
  rl_train: { count: null, basis: 'unknown', note: 'see sft_train' },
};

/** The file name of each partition, in AgentBench's split format. `test_set.json` is the release's name. */
export const ALFWORLD_SPLIT_FILES: Readonly<Record<PartitionName, string>> = {
  test: 'test_set.json',
  validation: 'validation_set.json',
  sft_train: 'sft_train_set.json',
  rl_train: 'rl_train_set.json',
};

/**
 * Each partition as an AgentBench split file (`{"mixed": [game paths]}`, two-space JSON as the release
 * writes `test_set.json`), so AgentBench itself can run it.
 */
export function alfworldSplitFiles(manifest: SplitManifest): SplitFile[] {
  return PARTITIONS.map((partition) => {
    const mixed = manifest.partitions[partition].tasks.map((t) => `${t.id}/game.tw-pddl`);
    return { name: ALFWORLD_SPLIT_FILES[partition], content: `${JSON.stringify({ mixed }, null, 2)}\n` };
  });
}

/** ALFWorld's paper splits, for its definition. */
export const alfworldPaperSplits: PaperSplits = {
  poolHelp: 'a games .jsonl(.gz)',
  build: (options) => buildAlfworldSplits(options),
  files: alfworldSplitFiles,
  filesHelp: 'AgentBench split files',
  locate: (tasks, dataDir) => locateAlfworldGames(tasks, dataDir),
};

/** Manifest games by their position among the shipped train_valid games; games not shipped are returned apart. */
function locateAlfworldGames(tasks: readonly SplitTask[], dataDir: string): LocatedSplit {
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

export interface AlfworldSplitOptions {
  /** The benchmark data folder (holding `alfworld/`). */
  dataDir: string;
  /** A games file in the shipped format (`.jsonl` or `.jsonl.gz`), e.g. the train games the data lacks. */
  pool?: string;
}

/**
 * ALFWorld (our reading of Appendix 10, stratified by the six families of the split files):
 * 1. test — `Random(20260609)`: 391 train_valid games allotted to families by largest remainder and
 *    drawn with `sample` family by family (split-file order), appended to all of new_std and shuffled.
 *    This reproduces the release's `data/alfworld/test_set.json` entry for entry.
 * 2. the pool — the other 2,759 train_valid games. `Random(20260614)`: each family shuffled and halved
 *    (SFT gets the smaller half), 99 validation games allotted over the RL halves by largest remainder
 *    and drawn with `sample`, then SFT, RL and validation each shuffled.
 * Identities are game ids; a game's hash needs its content, which the shipped data holds only for
 * valid_unseen and valid_train (so for 93 of the 109 new_std games and none of train_valid).
 */
export function buildAlfworldSplits(options: AlfworldSplitOptions): SplitManifest {
  const { dataDir } = options;
  const newStdFile = alfworldSplitPath(dataDir, 'new_std');
  const trainValidFile = alfworldSplitPath(dataDir, 'train_valid');
  const newStd = readSplitEntries(newStdFile);
  const trainValid = readSplitEntries(trainValidFile);
  const poolGames = options.pool === undefined ? [] : loadAlfworldGamesFile(options.pool);
  const hashes = gameHashes(loadAlfworldGames(dataDir), poolGames);

  const families = distinct(trainValid.map((e) => e.family));
  const byFamily = (entries: readonly AlfworldSplitEntry[]): Map<string, AlfworldSplitEntry[]> =>
    new Map(families.map((f) => [f, entries.filter((e) => e.family === f)]));

  // 1. Test.
  const testRng = createPythonRandom(ALFWORLD_SPLIT.testSeed);
  const trainValidByFamily = byFamily(trainValid);
  const testAlloc = allocateLargestRemainder(sizes(trainValidByFamily), Math.min(ALFWORLD_SPLIT.testFromTrainValid, trainValid.length));
  const drawn = families.flatMap((f) => testRng.sample(trainValidByFamily.get(f)!, testAlloc.get(f)!));
  const test = [...newStd, ...drawn];
  testRng.shuffle(test);

  // 2. Pool → SFT / RL side → validation.
  const testIds = new Set(test.map((e) => e.id));
  const rng = createPythonRandom(ALFWORLD_SPLIT.partitionSeed);
  const sftByFamily = new Map<string, AlfworldSplitEntry[]>();
  const rlSideByFamily = new Map<string, AlfworldSplitEntry[]>();
  for (const f of families) {
    const rest = trainValidByFamily.get(f)!.filter((e) => !testIds.has(e.id));
    rng.shuffle(rest);
    const half = Math.floor(rest.length / 2);
    sftByFamily.set(f, rest.slice(0, half));
    rlSideByFamily.set(f, rest.slice(half));
  }
  const rlSideTotal = [...rlSideByFamily.values()].reduce((n, l) => n + l.length, 0);
  const validationTotal = Math.min(ALFWORLD_SPLIT.validationTasks, Math.floor(rlSideTotal / 2));
  const validationAlloc = allocateLargestRemainder(sizes(rlSideByFamily), validationTotal);
  const validationByFamily = new Map(families.map((f) => [f, rng.sample(rlSideByFamily.get(f)!, validationAlloc.get(f)!)]));
  const sft = shuffled(rng, families.flatMap((f) => sftByFamily.get(f)!));
  const rl = shuffled(
    rng,
    families.flatMap((f) => rlSideByFamily.get(f)!.filter((e) => !validationByFamily.get(f)!.includes(e))),
  );
  const validation = shuffled(rng, families.flatMap((f) => validationByFamily.get(f)!));

  const partition = (entries: readonly AlfworldSplitEntry[]): SplitPartition => ({
    tasks: entries.map((e) => ({ id: e.id, sha256: hashes.get(e.id) ?? null, family: e.family })),
    families: Object.fromEntries(families.map((f) => [f, entries.filter((e) => e.family === f).length])),
  });
  const partitions: Record<PartitionName, SplitPartition> = {
    test: partition(test),
    validation: partition(validation),
    sft_train: partition(sft),
    rl_train: partition(rl),
  };
  const all = Object.values(partitions).flatMap((p) => p.tasks);
  const withoutContent = all.filter((t) => t.sha256 === null).length;
  const counts = {
    pool: trainValid.length - drawn.length,
    test: test.length,
    validation: validation.length,
    sft_train: sft.length,
    rl_train: rl.length,
  };
  const notes: string[] = [];
  if (withoutContent > 0) {
    const missingTest = partitions.test.tasks.filter((t) => t.sha256 === null).length;
    notes.push(
      `${formatCount(withoutContent)} of ${formatCount(all.length)} games are not in the data (${missingTest} of the ${test.length} test games; the train games of train_valid are not shipped): their sha256 is null and they cannot be played until a games file holding them is given with --pool.`,
    );
  }
  const listed = new Set([...newStd, ...trainValid].map((e) => e.id));
  const unlisted = poolGames.filter((g) => !listed.has(g.id)).length;
  if (unlisted > 0) notes.push(`${unlisted} of the ${poolGames.length} --pool games are in neither new_std nor train_valid; the splits do not use them.`);
  const why: Partial<Record<PartitionName | 'pool', string>> = {};
  if (validationTotal < ALFWORLD_SPLIT.validationTasks) {
    why.validation = `the RL side has only ${formatCount(rlSideTotal)} games; validation is capped at half of them`;
    notes.push(`Validation capped at ${validationTotal}: ${why.validation}.`);
  }
  return {
    schemaVersion: 1,
    kind: 'harness-r1/task-splits',
    benchmark: 'alfworld',
    procedure: ALFWORLD_SPLIT_PROCEDURE,
    pool: {
      kind: options.pool === undefined ? 'shipped' : 'user',
      description: `AgentBench train_valid (${formatCount(trainValid.length)} games) minus its ${drawn.length} test games; game content from the shipped games${options.pool === undefined ? '' : ' and --pool'}`,
    },
    seeds: { test: ALFWORLD_SPLIT.testSeed, partition: ALFWORLD_SPLIT.partitionSeed },
    batchSize: SPLIT_BATCH_SIZE,
    sources: sources(dataDir, newStdFile, trainValidFile, options.pool),
    counts: { ...counts, excluded: 0, withoutContent },
    comparison: compareWithPaper(ALFWORLD_PAPER_COUNTS, counts, why),
    notes,
    partitions,
    excluded: [],
  };
}

function gameHashes(shipped: readonly AlfworldGameRecord[], pool: readonly AlfworldGameRecord[]): Map<string, string> {
  const hashes = new Map<string, string>();
  for (const game of [...shipped, ...pool]) {
    const hash = alfworldGameHash(game);
    const known = hashes.get(game.id);
    if (known !== undefined && known !== hash) {
      throw new ConfigError({ message: `${game.source}: game '${game.id}' differs from the shipped game with that id.`, field: 'pool' });
    }
    hashes.set(game.id, hash);
  }
  return hashes;
}

function sizes(groups: ReadonlyMap<string, readonly unknown[]>): Map<string, number> {
  return new Map([...groups].map(([k, v]) => [k, v.length]));
}

function distinct(values: readonly string[]): string[] {
  return [...new Set(values)];
}

function shuffled<T>(rng: PythonRandom, items: T[]): T[] {
  rng.shuffle(items);
  return items;
}

function sources(dataDir: string, newStdFile: string, trainValidFile: string, pool: string | undefined): SourceFile[] {
  const shipped = (role: string, file: string): SourceFile => ({ role, path: path.relative(dataDir, file).split(path.sep).join('/'), ...fileSha256(file) });
  const list = [shipped('split new_std', newStdFile), shipped('split train_valid', trainValidFile), ...alfworldGameFilePaths(dataDir).map((f) => shipped('games', f))];
  if (pool !== undefined) list.push({ role: 'games (--pool)', path: pool, ...fileSha256(pool) });
  return list;
}

/** The content hash of a shipped ALFWorld game: its record with the data file's field names. */
export function alfworldGameHash(game: AlfworldGameRecord): string {
  return canonicalSha256(
    new Map<string, PyValue>([
      ['id', game.id],
      ['task_type', game.taskType],
      ['goal', game.goal],
      ['solvable', game.solvable],
      ['walkthrough_2_1_2', [...game.walkthrough]],
      ['pddl_problem', game.pddlProblem],
    ]),
  );
}
