import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { ConfigError } from '../episode/index.js';

/** A task file given on the command line, as recorded in a run's manifest: where it is and what it holds. */
export interface DataFileIdentity {
  path: string;
  sha256: string;
}

/**
 * The identity of a task file (`--data`, `--games`): its absolute path and the sha256 of its bytes, so a
 * resumed run, a reused baseline or a cached rerun is never taken for another file or an edited one.
 */
export function dataFileIdentity(file: string, flag: string): DataFileIdentity {
  const full = path.resolve(file);
  let bytes: Buffer;
  try {
    if (!statSync(full).isFile()) throw new Error('not a regular file');
    bytes = readFileSync(full);
  } catch (cause) {
    throw new ConfigError({ message: `${flag} ${file}: cannot read it (${(cause as Error).message}).`, field: flag.replace(/^--/, ''), cause });
  }
  return { path: full, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** The split label of a run that plays a task file: `file:<file name>`. */
export function fileSplitLabel(file: string): string {
  return `file:${path.basename(file)}`;
}
