import { ConfigError } from '../../episode/index.js';
import { createPythonRandom } from '../../python/python-random.js';
import {
  compareWithPaper,
  formatCount,
  locateByPrefix,
  SPLIT_BATCH_SIZE,
  type IndexBatch,
  type PaperCounts,
  type PaperSplits,
  type SplitManifest,
  type SplitPartition,
} from '../../task-splits/index.js';
import { loadWebShopPool } from './split-pool.js';

export const WEBSHOP_SPLIT_PROCEDURE = 'webshop-task-batches-v1';

/** The paper's WebShop split parameters (Appendix 10, as we read it; `src/task-splits/README.md`). */
export const WEBSHOP_SPLIT = {
  /** Goal indices 0..testCount-1 are the test set (under goal seed 233). */
  testCount: 500,
  goalSeed: 233,
  partitionSeed: 20260603,
  validationSeed: 20260623,
  validationTasks: 100,
} as const;

/** The counts the paper's WebShop splits have. */
export const WEBSHOP_PAPER_COUNTS: PaperCounts = {
  pool: { count: null, basis: 'unknown', note: 'human goals from items_human_ins.json after index 499; the size is not in our sources' },
  test: { count: 500, basis: 'stated', note: 'goal indices 0-499' },
  validation: { count: 100, basis: 'stated', note: '100 RL-side tasks, seed 20260623' },
  sft_train: { count: null, basis: 'unknown', note: 'half of the pool batches; the pool size is not in our sources' },
  rl_train: { count: null, basis: 'unknown', note: 'the other half minus validation' },
};

/** WebShop's paper splits, for its definition. */
export const webshopPaperSplits: PaperSplits = {
  poolHelp: 'items_human_ins.json',
  build: (options) => buildWebShopSplits(options),
  // `synthetic:512`, `human:3`: a goal of the dev environment's goal set of that name.
  locate: (tasks) => locateByPrefix(tasks, (prefix) => (prefix === 'synthetic' || prefix === 'human' ? { split: 'dev', options: { goals: prefix } } : undefined), 'not a WebShop goal identity'),
};

export interface WebShopSplitOptions {
  /** The benchmark data folder (holding `webshop/`). */
  dataDir: string;
  /** An `items_human_ins.json`-format file: human goals, as in the paper. */
  pool?: string;
}

/**
 * WebShop (our reading of Appendix 10): goal indices 0-499 (seed-233 goal order) are the test set.
 * The rest is cut into batches of 10 consecutive indices from 500 on; `Random(20260603).shuffle` of
 * the batch list, the first half (rounded down) is SFT and the rest the RL side; then
 * `Random(20260623).sample(rl_side, 10)` batches (100 tasks) are validation. Batches stay whole so
 * every batch is a `[start, end)` range, as WebShop batches and their identity manifests are.
 */
export function buildWebShopSplits(options: WebShopSplitOptions): SplitManifest {
  const pool = loadWebShopPool(options.dataDir, options.pool);
  const total = pool.goalSet.goals.length;
  const testCount = WEBSHOP_SPLIT.testCount;
  if (total <= testCount) {
    throw new ConfigError({
      message: `WebShop has ${total} ${pool.mode} goals; the first ${testCount} are the test set, so no training pool is left.`,
      field: 'pool',
    });
  }
  const batches: IndexBatch[] = [];
  for (let start = testCount; start < total; start += SPLIT_BATCH_SIZE) batches.push({ start, end: Math.min(start + SPLIT_BATCH_SIZE, total) });

  const order = batches.slice();
  createPythonRandom(WEBSHOP_SPLIT.partitionSeed).shuffle(order);
  const half = Math.floor(order.length / 2);
  const sft = order.slice(0, half);
  const rlSide = order.slice(half);
  const wanted = WEBSHOP_SPLIT.validationTasks / SPLIT_BATCH_SIZE;
  const validationBatches = Math.min(wanted, Math.floor(rlSide.length / 2));
  const validation = createPythonRandom(WEBSHOP_SPLIT.validationSeed).sample(rlSide, validationBatches);
  const rl = rlSide.filter((b) => !validation.includes(b));

  const id = (index: number): string => `${pool.mode}:${index}`;
  const partition = (list: readonly IndexBatch[]): SplitPartition => {
    const sorted = list.slice().sort((a, b) => a.start - b.start);
    const tasks = sorted.flatMap((b) => Array.from({ length: b.end - b.start }, (_, k) => ({ id: id(b.start + k), sha256: pool.digests[b.start + k]! })));
    return { tasks, batches: sorted.map((b) => ({ start: b.start, end: b.end })) };
  };
  const test: SplitPartition = { tasks: Array.from({ length: testCount }, (_, i) => ({ id: id(i), sha256: pool.digests[i]! })) };
  const partitions = { test, validation: partition(validation), sft_train: partition(sft), rl_train: partition(rl) };

  const counts = {
    pool: total - testCount,
    test: test.tasks.length,
    validation: partitions.validation.tasks.length,
    sft_train: partitions.sft_train.tasks.length,
    rl_train: partitions.rl_train.tasks.length,
  };
  const notes: string[] = [];
  const why: Partial<Record<keyof typeof counts, string>> = {};
  if (pool.mode === 'synthetic') {
    notes.push(
      `The ${formatCount(total)} goals are synthetic: items_human_ins.json (the human instructions the paper uses) is not shipped, so every index names a different task than in the paper. Pass it with --pool for human goals.`,
    );
    why.pool = `synthetic goals ${testCount}..${total - 1}; the paper's are human goals (items_human_ins.json, not shipped)`;
    why.test = `goal indices 0-${testCount - 1}, but of the synthetic goals`;
  }
  if (validationBatches < wanted) {
    why.validation = `the RL side has only ${formatCount(rlSide.length)} batches; validation is capped at half of them (${validationBatches})`;
    notes.push(`Validation capped at ${validationBatches} batches: ${why.validation}.`);
  }
  return {
    schemaVersion: 1,
    kind: 'harness-r1/task-splits',
    benchmark: 'webshop',
    procedure: WEBSHOP_SPLIT_PROCEDURE,
    pool: {
      kind: pool.fromUserPool ? 'user' : 'shipped',
      description: `${formatCount(total)} ${pool.mode} goals in goal-seed-${pool.goalSet.goalSeed} order; indices ${testCount}..${total - 1} are the training pool`,
    },
    seeds: { goal: pool.goalSet.goalSeed, partition: WEBSHOP_SPLIT.partitionSeed, validation: WEBSHOP_SPLIT.validationSeed },
    batchSize: SPLIT_BATCH_SIZE,
    sources: pool.sources,
    counts: { ...counts, excluded: 0, withoutContent: 0 },
    comparison: compareWithPaper(WEBSHOP_PAPER_COUNTS, counts, why),
    notes,
    partitions,
    excluded: [],
  };
}
