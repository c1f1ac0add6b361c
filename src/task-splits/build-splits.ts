import { existsSync } from 'node:fs';

import { ConfigError } from '../episode/index.js';
import { checkManifestDisjoint } from './leakage.js';
import type { PaperSplits, SplitBuildOptions, SplitFile } from './partitions.js';
import type { SplitManifest } from './split-manifest.js';

/** A built split: the manifest and the files the benchmark writes beside it. */
export interface BuiltSplits {
  manifest: SplitManifest;
  files: SplitFile[];
}

/**
 * Builds a benchmark's splits (a pure function of the data files) and checks they do not leak. `pool`,
 * when given, is a user-supplied training pool in the benchmark's own format and must exist.
 */
export function buildSplits(splits: PaperSplits, options: SplitBuildOptions): BuiltSplits {
  const { dataDir, pool } = options;
  if (pool !== undefined && !existsSync(pool)) throw new ConfigError({ message: `--pool file not found: ${pool}.`, field: 'pool' });
  const manifest = splits.build({ dataDir, ...(pool === undefined ? {} : { pool }) });
  checkManifestDisjoint(manifest);
  return { manifest, files: splits.files?.(manifest) ?? [] };
}
