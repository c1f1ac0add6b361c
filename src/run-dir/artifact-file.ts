import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { ConfigError } from '../episode/index.js';
import { describeFsError, isFsError } from '../store/fs-problem.js';

/** Writes a file whole or not at all (temp file + rename), so a crash never leaves half an artifact. */
export function writeArtifact(file: string, content: string): void {
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(tmp, content);
    renameSync(tmp, file);
  } catch (error) {
    if (!isFsError(error)) throw error;
    try {
      rmSync(tmp, { force: true });
    } catch {
      // Nothing was written.
    }
    // The file asked for is named, not the temporary one beside it.
    throw new ConfigError({ message: `Cannot write ${file}: ${describeFsError(error)}${error.path && error.path !== tmp && error.path !== file ? ` at ${error.path}` : ''}.`, field: 'path', cause: error });
  }
}

export function writeJsonArtifact(file: string, value: unknown): void {
  writeArtifact(file, `${JSON.stringify(value, null, 2)}\n`);
}

export function readJsonArtifact<T>(file: string): T | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
}

export function readTextArtifact(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}
