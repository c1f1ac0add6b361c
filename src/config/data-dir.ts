import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ConfigError } from '../episode/index.js';

/** The project root (the folder holding package.json), found from this file's location. */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The data directory's path by the order of `resolveDataDir`, not checked to exist. */
export function dataDirPath(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(explicit ?? env.HARNESS_DATA_DIR ?? path.join(PROJECT_ROOT, '..', 'shared', 'data'));
}

/**
 * Where the benchmark data lives. Order: explicit option, `HARNESS_DATA_DIR`, then `../shared/data`
 * beside the project. The data is read in place and never copied.
 */
export function resolveDataDir(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  const dir = dataDirPath(explicit, env);
  if (!existsSync(dir)) {
    throw new ConfigError({
      message: `Data directory not found: ${dir}. Pass --data-dir DIR or set HARNESS_DATA_DIR to the benchmark data folder (one subfolder per benchmark, named as the benchmark).`,
      field: 'dataDir',
    });
  }
  return dir;
}
