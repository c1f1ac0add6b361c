import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Writes a file whole or not at all (temp file + rename), so a crash never leaves half an artifact. */
export function writeArtifact(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, content);
  renameSync(tmp, file);
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
