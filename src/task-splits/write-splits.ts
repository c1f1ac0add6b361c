import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { SplitFile } from './partitions.js';
import { serializeSplitManifest, type SplitManifest } from './split-manifest.js';

export interface WrittenFile {
  file: string;
  bytes: number;
  sha256: string;
}

/** The files of a split: `manifest.json`, then the benchmark's own files (its `paperSplits.files`). */
export function splitFiles(manifest: SplitManifest, extra: readonly SplitFile[] = []): SplitFile[] {
  return [{ name: 'manifest.json', content: serializeSplitManifest(manifest) }, ...extra];
}

/**
 * Writes the split files into `outDir`. Every file is written to a temporary name first and renamed
 * only when all are written, so an interrupted run leaves the previous files (or none), never half.
 */
export function writeSplits(manifest: SplitManifest, outDir: string, extra: readonly SplitFile[] = []): WrittenFile[] {
  mkdirSync(outDir, { recursive: true });
  const files = splitFiles(manifest, extra);
  const staged: { tmp: string; final: string; content: string }[] = [];
  try {
    for (const f of files) {
      const final = path.join(outDir, f.name);
      const tmp = `${final}.tmp-${process.pid}`;
      staged.push({ tmp, final, content: f.content });
      writeFileSync(tmp, f.content);
    }
  } catch (error) {
    for (const s of staged) rmSync(s.tmp, { force: true });
    throw error;
  }
  for (const s of staged) renameSync(s.tmp, s.final);
  return staged.map((s) => ({
    file: s.final,
    bytes: Buffer.byteLength(s.content),
    sha256: createHash('sha256').update(s.content, 'utf8').digest('hex'),
  }));
}
