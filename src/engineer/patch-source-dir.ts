import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { ConfigError } from '../episode/index.js';

/**
 * The layout of a patch source folder: one patch per batch, `<dir>/<batch tag>/<bench>.json` (the layout of
 * the original's shipped held-out patches, and what `improve --generate-only` writes under `<run>/patches/`).
 */
export function patchSourceFile(dir: string, batchTag: string, bench: string): string {
  return path.join(dir, batchTag, `${bench}.json`);
}

/** What a patch source folder holds for the batches of one run. */
export interface PatchSourceCheck {
  /** The folder, resolved. */
  dir: string;
  /** Batch tags with a patch file, in the order asked. */
  found: string[];
  /** Batch tags without one: those batches get no patch. */
  missing: string[];
  /** sha256 over every expected file (tag, and the file's sha256 or "missing"): any changed, added or removed patch changes it. */
  digest: string;
}

const SHOWN = 8;

function listOf(items: readonly string[]): string {
  return items.length <= SHOWN ? items.join(', ') : `${items.slice(0, SHOWN).join(', ')}, … (${items.length} in all)`;
}

/** What is in `dir`, as a user would look for it: the files one and two levels down. */
function describeContents(dir: string): string {
  const entries: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      const inner = readdirSync(full).sort();
      entries.push(...(inner.length === 0 ? [`${name}/ (empty)`] : inner.map((f) => `${name}/${f}`)));
    } else entries.push(name);
  }
  return entries.length === 0 ? 'nothing (the folder is empty)' : listOf(entries);
}

/**
 * Checks a `--patch-source` folder against the batches of a run before any work: the folder must exist and
 * hold a patch for at least one batch (else a usage error naming the files expected and what was found); a
 * batch whose file is missing gets no patch, as in the original. The digest goes into the run's identity.
 */
export function checkPatchSource(dir: string, bench: string, batchTags: readonly string[], flag = '--patch-source'): PatchSourceCheck {
  const root = path.resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new ConfigError({ message: `${flag} ${dir}: no such folder.`, field: 'patchSource' });
  const found: string[] = [];
  const missing: string[] = [];
  const hash = createHash('sha256');
  for (const tag of batchTags) {
    const file = patchSourceFile(root, tag, bench);
    if (existsSync(file) && statSync(file).isFile()) {
      found.push(tag);
      hash.update(`${tag}\0${createHash('sha256').update(readFileSync(file)).digest('hex')}\n`);
    } else {
      missing.push(tag);
      hash.update(`${tag}\0missing\n`);
    }
  }
  if (found.length === 0) {
    const expected = batchTags.map((t) => path.join(t, `${bench}.json`));
    throw new ConfigError({
      message: `${flag} ${dir} holds no patch for any batch of this run: expected ${listOf(expected)}; found ${describeContents(root)}.`,
      field: 'patchSource',
    });
  }
  return { dir: root, found, missing, digest: hash.digest('hex') };
}
