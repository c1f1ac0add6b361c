import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { PARTITIONS, type PartitionName } from './paper-splits.js';
import { serializeSplitManifest, type SplitManifest } from './split-manifest.js';

export interface WrittenFile {
  file: string;
  bytes: number;
  sha256: string;
}

/** The ALFWorld file name of each partition, in AgentBench's split format. `test_set.json` is the release's name. */
export const ALFWORLD_SPLIT_FILES: Readonly<Record<PartitionName, string>> = {
  test: 'test_set.json',
  validation: 'validation_set.json',
  sft_train: 'sft_train_set.json',
  rl_train: 'rl_train_set.json',
};

/**
 * The files of a split: `manifest.json` always; for ALFWorld also each partition as an AgentBench
 * split file (`{"mixed": [game paths]}`, two-space JSON as the release writes `test_set.json`), so
 * AgentBench itself can run it.
 */
export function splitFiles(manifest: SplitManifest): { name: string; content: string }[] {
  const files = [{ name: 'manifest.json', content: serializeSplitManifest(manifest) }];
  if (manifest.benchmark === 'alfworld') {
    for (const partition of PARTITIONS) {
      const mixed = manifest.partitions[partition].tasks.map((t) => `${t.id}/game.tw-pddl`);
      files.push({ name: ALFWORLD_SPLIT_FILES[partition], content: `${JSON.stringify({ mixed }, null, 2)}\n` });
    }
  }
  return files;
}

/**
 * Writes the split files into `outDir`. Every file is written to a temporary name first and renamed
 * only when all are written, so an interrupted run leaves the previous files (or none), never half.
 */
export function writeSplits(manifest: SplitManifest, outDir: string): WrittenFile[] {
  mkdirSync(outDir, { recursive: true });
  const files = splitFiles(manifest);
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
