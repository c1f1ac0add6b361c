import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { cachedBundle } from './sqlite-worker-entry.js';

const root = mkdtempSync(path.join(tmpdir(), 'sqlite-entry-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const tsxRoot = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));

describe('cachedBundle', () => {
  it('bundles once, reuses the bundle while its inputs are unchanged, and bundles again after an edit', async () => {
    const main = path.join(root, 'main.ts');
    const dep = path.join(root, 'dep.ts');
    const folder = mkdtempSync(path.join(root, 'cache-'));
    writeFileSync(main, "import { word } from './dep';\nconsole.log(word);\n");
    writeFileSync(dep, "export const word: string = 'first-word';\n");

    const first = await cachedBundle(main, folder, tsxRoot);
    expect(first.reused).toBe(false);
    expect(readFileSync(first.file, 'utf8')).toContain('first-word');

    const again = await cachedBundle(main, folder, tsxRoot);
    expect(again).toEqual({ file: first.file, reused: true });

    // An imported file changes: its size and time no longer match the manifest.
    writeFileSync(dep, "export const word: string = 'second, longer word';\n");
    const edited = await cachedBundle(main, folder, tsxRoot);
    expect(edited.reused).toBe(false);
    expect(edited.file).not.toBe(first.file);
    expect(readFileSync(edited.file, 'utf8')).toContain('second, longer word');
    expect(await cachedBundle(main, folder, tsxRoot)).toEqual({ file: edited.file, reused: true });

    // A bundle removed from the folder is made again.
    rmSync(edited.file);
    expect(await cachedBundle(main, folder, tsxRoot)).toEqual({ file: edited.file, reused: false });
  });
});
