import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { ConfigError } from '../episode/index.js';
import type { Engineer, EngineerResult } from './engineer.js';
import { patchSourceFile } from './patch-source-dir.js';

/**
 * An engineer that asks no one: it replays patches written earlier, `<dir>/<batch tag>/<bench>.json` (the
 * layout of the original's shipped held-out patches, `seed20260720/webshop.json`), as the original's
 * `PATCH_SOURCE_ROOT` does. A missing file is no patch (the original's
 * `missing_source_patch_treated_as_no_patch`: its rejected patches ship no file); the patch read is
 * validated like any other engineer's.
 */
export function createPatchSourceEngineer(dir: string, bench: string): Engineer {
  const root = path.resolve(dir);
  if (!existsSync(root)) throw new ConfigError({ message: `--patch-source ${dir}: no such folder.`, field: 'patchSource' });
  return {
    label: `patches replayed from ${dir}`,
    kind: 'llm',
    async propose(input): Promise<EngineerResult> {
      const file = patchSourceFile(root, input.batchTag, bench);
      if (!existsSync(file)) return { status: 'ok', proposal: { kind: 'patch', patch: null }, notes: [`missing_source_patch_treated_as_no_patch: ${path.join(input.batchTag, `${bench}.json`)} is not in the patch source`] };
      let patch: unknown;
      try {
        patch = JSON.parse(readFileSync(file, 'utf8'));
      } catch (cause) {
        return { status: 'ok', proposal: { kind: 'response', text: readFileSync(file, 'utf8'), protocol: 'full_think_patch' }, notes: [`${file} is not JSON (${(cause as Error).message}); validated as an answer text`] };
      }
      return { status: 'ok', proposal: { kind: 'patch', patch }, notes: [`replayed ${path.join(input.batchTag, `${bench}.json`)}`] };
    },
  };
}
