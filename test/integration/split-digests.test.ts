import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { PROJECT_ROOT, resolveDataDir } from '../../src/config/data-dir.js';
import { benchSplitFiles, buildBenchSplits } from '../../src/testing/paper-splits.js';

// The bytes of every split file are locked: the manifest records pool paths as given, so the fixture
// pools are named relative to the project root, as `harness-r1 splits` run from there names them.
interface DigestCase {
  bench: string;
  pool?: string;
  files: Record<string, string>;
}
const fixture = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'test/fixtures/splits/split-digests.json'), 'utf8')) as { cases: DigestCase[] };
const dataDir = resolveDataDir();

describe('split files are byte-identical to the stored digests', () => {
  for (const c of fixture.cases) {
    it(`${c.bench}${c.pool === undefined ? '' : ` --pool ${c.pool}`}`, () => {
      const pool = c.pool === undefined ? undefined : path.relative(process.cwd(), path.join(PROJECT_ROOT, c.pool));
      expect(pool === undefined || pool === c.pool, 'run from the project root').toBe(true);
      const manifest = buildBenchSplits({ bench: c.bench, dataDir, ...(pool === undefined ? {} : { pool }) });
      const digests = Object.fromEntries(benchSplitFiles(manifest).map((f) => [f.name, createHash('sha256').update(f.content, 'utf8').digest('hex')]));
      expect(digests).toEqual(c.files);
    }, 120_000);
  }
});
