import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ConfigError } from '../../episode/index.js';
import { dbBenchSplitPath, loadDbBenchFile } from '../../environments/dbbench/load-tasks.js';
import { pyJsonLoads } from '../../python/python-json.js';
import { createPythonRandom } from '../../python/python-random.js';
import {
  canonicalSha256,
  compareWithPaper,
  fileSha256,
  formatCount,
  locateByPrefix,
  SPLIT_BATCH_SIZE,
  type ExcludedTask,
  type PaperCounts,
  type PaperSplits,
  type PartitionName,
  type SourceFile,
  type SplitManifest,
  type SplitTask,
} from '../../task-splits/index.js';

export const DBBENCH_SPLIT_PROCEDURE = 'dbbench-shuffled-halves-v1';

/** The paper's DBBench split parameters (Appendix 10, as we read it; `src/task-splits/README.md`). */
export const DBBENCH_SPLIT = {
  partitionSeed: 20260625,
  validationTasks: 100,
  /** The paper's training pool (`db_out_new.jsonl`, not shipped). */
  paperPoolTasks: 4803,
} as const;

const half = (n: number): number => Math.floor(n / 2);

/** The counts the paper's DBBench splits have. */
export const DBBENCH_PAPER_COUNTS: PaperCounts = {
  pool: { count: DBBENCH_SPLIT.paperPoolTasks, basis: 'stated', note: 'db_out_new.jsonl training tasks' },
  test: { count: 300, basis: 'stated', note: 'the standard set, test only' },
  validation: { count: 100, basis: 'stated', note: '100 RL-side tasks' },
  sft_train: { count: half(DBBENCH_SPLIT.paperPoolTasks), basis: 'derived', note: 'the smaller half of 4,803 (our reading of "halves")' },
  rl_train: {
    count: DBBENCH_SPLIT.paperPoolTasks - half(DBBENCH_SPLIT.paperPoolTasks) - DBBENCH_SPLIT.validationTasks,
    basis: 'derived',
    note: 'the larger half minus the 100 validation tasks',
  },
};

/** DBBench's paper splits, for its definition. */
export const dbbenchPaperSplits: PaperSplits = {
  poolHelp: 'a task .jsonl (db_out_new.jsonl)',
  build: (options) => buildDbBenchSplits(options),
  // `dev:7`, `standard:120`: the shipped splits; tasks of a --pool file are played with --data instead.
  locate: (tasks) => locateByPrefix(tasks, (prefix) => (prefix === 'dev' || prefix === 'standard' ? { split: prefix, options: {} } : undefined), 'a --pool task file is not a shipped split (play it with --data)'),
};

export interface DbBenchSplitOptions {
  /** The benchmark data folder (holding `dbbench/`). */
  dataDir: string;
  /** A task file in the shipped AgentBench format, e.g. the paper's `db_out_new.jsonl`. */
  pool?: string;
}

/**
 * DBBench (our reading of Appendix 10): the 300 standard tasks are test only. The training pool
 * (`--pool`, else the shipped dev.jsonl) loses every task whose content equals a standard task (either
 * version of the file) or an earlier pool task; the rest, in file order, goes through
 * `Random(20260625).shuffle`. The first half (rounded down) is SFT, the rest the RL side, whose first
 * 100 tasks are validation. Partitions keep the shuffled order: exporters batch them consecutively.
 */
export function buildDbBenchSplits(options: DbBenchSplitOptions): SplitManifest {
  const { dataDir } = options;
  const standardFile = dbBenchSplitPath(dataDir, 'standard');
  const standardV02File = dbBenchSplitPath(dataDir, 'standard.v0.2');
  const poolFile = options.pool ?? dbBenchSplitPath(dataDir, 'dev');
  const poolName = options.pool === undefined ? 'dev' : 'pool';

  const standard = loadDbBenchFile(standardFile);
  const standardHashes = dbBenchRecordHashes(standardFile);
  const standardV02Hashes = dbBenchRecordHashes(standardV02File);
  const poolTasks = loadPool(poolFile, options.pool !== undefined);
  const poolHashes = dbBenchRecordHashes(poolFile);

  const test: SplitTask[] = standard.map((t) => ({ id: `standard:${t.index}`, sha256: standardHashes[t.index]! }));
  const heldOut = new Map<string, string>();
  for (const hashes of [standardHashes, standardV02Hashes]) {
    hashes.forEach((h, i) => {
      if (!heldOut.has(h)) heldOut.set(h, `standard:${i}`);
    });
  }

  const kept: SplitTask[] = [];
  const excluded: ExcludedTask[] = [];
  const firstWithHash = new Map<string, string>();
  poolTasks.forEach((task, i) => {
    const id = `${poolName}:${task.index}`;
    const sha256 = poolHashes[i]!;
    const asTest = heldOut.get(sha256);
    const earlier = firstWithHash.get(sha256);
    if (asTest !== undefined) excluded.push({ id, sha256, reason: `same content as test task ${asTest}` });
    else if (earlier !== undefined) excluded.push({ id, sha256, reason: `same content as pool task ${earlier}` });
    else {
      firstWithHash.set(sha256, id);
      kept.push({ id, sha256 });
    }
  });

  const order = kept.slice();
  createPythonRandom(DBBENCH_SPLIT.partitionSeed).shuffle(order);
  const half = Math.floor(order.length / 2);
  const sft = order.slice(0, half);
  const rlSide = order.slice(half);
  const validationCount = Math.min(DBBENCH_SPLIT.validationTasks, Math.floor(rlSide.length / 2));
  const partitions = {
    test: { tasks: test },
    validation: { tasks: rlSide.slice(0, validationCount) },
    sft_train: { tasks: sft },
    rl_train: { tasks: rlSide.slice(validationCount) },
  };
  const counts = {
    pool: poolTasks.length,
    test: test.length,
    validation: partitions.validation.tasks.length,
    sft_train: sft.length,
    rl_train: partitions.rl_train.tasks.length,
  };

  const notes: string[] = [];
  const why: Partial<Record<PartitionName | 'pool', string>> = {};
  if (options.pool === undefined) {
    why.pool = `the shipped dev.jsonl stands in: db_out_new.jsonl (the paper's ${formatCount(DBBENCH_SPLIT.paperPoolTasks)} training tasks) is not shipped; pass it with --pool`;
    why.sft_train = 'half of the shipped pool';
    why.rl_train = 'the other half minus validation';
    notes.push(`The training pool is the shipped dev.jsonl (${formatCount(poolTasks.length)} tasks), not the paper's db_out_new.jsonl, which is not shipped.`);
  }
  if (validationCount < DBBENCH_SPLIT.validationTasks) {
    why.validation = `the RL side has only ${formatCount(rlSide.length)} tasks; validation is capped at half of them`;
    notes.push(`Validation capped at ${validationCount}: ${why.validation}.`);
  }
  if (excluded.length > 0) notes.push(`${excluded.length} pool task(s) left out for having the same content as a test task or an earlier pool task (see excluded).`);
  const testTables = new Set(standard.map((t) => JSON.stringify(t.table)));
  const keptIds = new Set(kept.map((t) => t.id));
  const sharedTables = poolTasks.filter((t) => keptIds.has(`${poolName}:${t.index}`) && testTables.has(JSON.stringify(t.table))).length;
  if (sharedTables > 0) {
    notes.push(`${sharedTables} pool task(s) use a table identical to a test task's table with a different question; they stay in the pool.`);
  }

  return {
    schemaVersion: 1,
    kind: 'harness-r1/task-splits',
    benchmark: 'dbbench',
    procedure: DBBENCH_SPLIT_PROCEDURE,
    pool: {
      kind: options.pool === undefined ? 'shipped' : 'user',
      description: `${formatCount(poolTasks.length)} tasks of ${options.pool === undefined ? 'the shipped dev.jsonl' : 'the --pool file'} (identities ${poolName}:<index>), ${excluded.length} left out`,
    },
    seeds: { partition: DBBENCH_SPLIT.partitionSeed },
    batchSize: SPLIT_BATCH_SIZE,
    sources: sources(dataDir, [standardFile, standardV02File], poolFile, options.pool !== undefined),
    counts: { ...counts, excluded: excluded.length, withoutContent: 0 },
    comparison: compareWithPaper(DBBENCH_PAPER_COUNTS, counts, why),
    notes,
    partitions,
    excluded,
  };
}

function loadPool(file: string, fromUser: boolean): ReturnType<typeof loadDbBenchFile> {
  try {
    return loadDbBenchFile(file);
  } catch (error) {
    if (fromUser && error instanceof ConfigError) {
      throw new ConfigError({ message: `--pool: ${error.message} (dbbench expects a task file in the AgentBench format, one JSON record per line).`, field: 'pool', cause: error });
    }
    throw error;
  }
}

function sources(dataDir: string, standardFiles: readonly string[], poolFile: string, fromUser: boolean): SourceFile[] {
  const shipped = (role: string, file: string): SourceFile => ({ role, path: path.relative(dataDir, file).split(path.sep).join('/'), ...fileSha256(file) });
  return [
    ...standardFiles.map((f) => shipped('test', f)),
    fromUser ? { role: 'pool (--pool)', path: poolFile, ...fileSha256(poolFile) } : shipped('pool', poolFile),
  ];
}

/**
 * The content hash of every record of a DBBench task file, in the loader's task order (one per
 * non-blank line). The file is decoded with Python's JSON rules (ints and floats stay distinct), so
 * the hash equals the Python one byte for byte.
 */
export function dbBenchRecordHashes(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    throw new ConfigError({ message: `Cannot read DBBench task file ${file}: ${(cause as Error).message}`, field: 'pool', cause });
  }
  const hashes: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    const decoded = pyJsonLoads(line);
    if (!decoded.ok) throw new ConfigError({ message: `${file}:${i + 1}: not valid JSON (${decoded.error.message}).`, field: 'pool' });
    hashes.push(canonicalSha256(decoded.value));
  }
  return hashes;
}
