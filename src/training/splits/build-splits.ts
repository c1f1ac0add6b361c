import { existsSync } from 'node:fs';

import { ConfigError } from '../../episode/index.js';
import { buildAlfworldSplits } from './alfworld-splits.js';
import { buildDbBenchSplits } from './dbbench-splits.js';
import { checkManifestDisjoint } from './leakage.js';
import { isSplitBenchmark, SPLIT_BENCHMARKS, type SplitBenchmark } from './paper-splits.js';
import type { SplitManifest } from './split-manifest.js';
import { buildWebShopSplits } from './webshop-splits.js';

export interface BuildSplitsOptions {
  bench: SplitBenchmark | string;
  /** The benchmark data folder (holding dbbench/, alfworld/, webshop/). */
  dataDir: string;
  /**
   * A user-supplied pool in the benchmark's own format: webshop an `items_human_ins.json`, alfworld a
   * games file (`.jsonl`/`.jsonl.gz`), dbbench a task file (`db_out_new.jsonl`).
   */
  pool?: string;
}

/** Builds a benchmark's splits (a pure function of the data files) and checks they do not leak. */
export function buildSplits(options: BuildSplitsOptions): SplitManifest {
  const { bench, dataDir, pool } = options;
  if (!isSplitBenchmark(bench)) throw new ConfigError({ message: `Unknown benchmark '${bench}'.`, field: 'bench', allowed: SPLIT_BENCHMARKS });
  if (pool !== undefined && !existsSync(pool)) throw new ConfigError({ message: `--pool file not found: ${pool}.`, field: 'pool' });
  const args = { dataDir, ...(pool === undefined ? {} : { pool }) };
  const manifest = bench === 'webshop' ? buildWebShopSplits(args) : bench === 'alfworld' ? buildAlfworldSplits(args) : buildDbBenchSplits(args);
  checkManifestDisjoint(manifest);
  return manifest;
}
