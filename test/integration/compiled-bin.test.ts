import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { isBuildInput, sourceStamp } from '../../bin/source-stamp.js';
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
