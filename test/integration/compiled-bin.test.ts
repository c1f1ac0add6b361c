import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { STAMP_FILE, builtFromCurrentSources, isBuildInput, sourceStamp } from '../../bin/source-stamp.js';
import { PROJECT_ROOT, runCli } from './cli-helpers.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'source-stamp-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(relative: string, text: string, mtimeSeconds: number): void {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  utimesSync(file, mtimeSeconds, mtimeSeconds);
}

describe('source stamp (when the bin may run dist/)', () => {
  it('counts sources and assets, not tests or docs, and moves on an edit, a new file or a deletion', () => {
    write('a/one.ts', 'x', 1000);
    write('a/one.test.ts', 'x', 5000);
    write('a/README.md', 'x', 5000);
    write('a/prompts/p.v1.md', 'x', 900);
    write('b/worker.js', 'x', 800);
    const first = sourceStamp(root);
    expect(first).toEqual({ files: 3, newestMs: 1000 * 1000 });

    write('b/worker.js', 'y', 2000);
    const edited = sourceStamp(root);
    expect(edited.newestMs).toBe(2000 * 1000);

    write('c/new.ts', 'x', 10);
    expect(sourceStamp(root)).toEqual({ files: 4, newestMs: edited.newestMs });
    rmSync(path.join(root, 'c'), { recursive: true });
    expect(sourceStamp(root)).toEqual(edited);
  });

  it('takes dist/ only while its stamp agrees with src/', () => {
    const tree = path.join(root, 'tree');
    mkdirSync(path.join(tree, 'src'), { recursive: true });
    writeFileSync(path.join(tree, 'src', 'a.ts'), 'x');
    utimesSync(path.join(tree, 'src', 'a.ts'), 3000, 3000);
    expect(builtFromCurrentSources(tree)).toBe(false);
    mkdirSync(path.join(tree, 'dist'));
    writeFileSync(path.join(tree, 'dist', STAMP_FILE), JSON.stringify(sourceStamp(path.join(tree, 'src'))));
    expect(builtFromCurrentSources(tree)).toBe(true);
    utimesSync(path.join(tree, 'src', 'a.ts'), 4000, 4000);
    expect(builtFromCurrentSources(tree)).toBe(false);
  });

  it('names build inputs by path', () => {
    expect(isBuildInput(path.join('sandbox', 'python', 'runner.py'))).toBe(true);
    expect(isBuildInput(path.join('engineer', 'prompts', 'code-rules.v1.md'))).toBe(true);
    expect(isBuildInput(path.join('engineer', 'README.md'))).toBe(false);
    expect(isBuildInput(path.join('engineer', 'prompts', '.gitattributes'))).toBe(false);
    expect(isBuildInput(path.join('cli', 'main.test.ts'))).toBe(false);
  });
});

describe('harness-r1 --version', () => {
  it("prints package.json's version and exits 0, built or not", async () => {
    const { version } = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const env of [{}, { HARNESS_R1_FROM_SOURCE: '1' }]) {
      const r = await runCli(['--version'], env);
      expect(r.code).toBe(0);
      expect(r.stdout.trim()).toBe(version);
    }
  });
});
