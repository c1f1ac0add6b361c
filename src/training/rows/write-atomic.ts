import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Writes a file whole or not at all (temp file + rename), creating its folder. */
export function writeFileAtomic(file: string, content: string | Uint8Array): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.tmp-${process.pid}`;
  writeFileSync(temp, content);
  renameSync(temp, file);
}
