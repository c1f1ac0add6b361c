import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ConfigError } from '../episode/index.js';
import { checkPatchSource, patchSourceFile } from './patch-source-dir.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'patch-source-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const put = (rel: string, text: string) => {
  mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  writeFileSync(path.join(dir, rel), text);
};
const TAGS = ['batch_000', 'batch_001', 'batch_002'];

function refusal(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('checkPatchSource', () => {
  it('names the file of a batch as <dir>/<tag>/<bench>.json', () => {
    expect(patchSourceFile('p', 'batch_003', 'webshop')).toBe(path.join('p', 'batch_003', 'webshop.json'));
  });

  it('lists the batches with and without a patch, in the order asked', () => {
    put('batch_002/dbbench.json', '{"a":1}');
    put('batch_000/dbbench.json', '{"a":0}');
    put('batch_001/webshop.json', '{}'); // another benchmark's patch is not this batch's
    const check = checkPatchSource(dir, 'dbbench', TAGS);
    expect(check).toMatchObject({ dir: path.resolve(dir), found: ['batch_000', 'batch_002'], missing: ['batch_001'] });
    expect(check.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a folder with no patch for any batch, naming what was expected and what was found', () => {
    put('seed20260720/dbbench.json', '{}');
    put('notes.txt', 'x');
    mkdirSync(path.join(dir, 'batch_000'));
    const error = refusal(() => checkPatchSource(dir, 'dbbench', TAGS));
    expect(error.field).toBe('patchSource');
    expect(error.message).toContain('holds no patch for any batch of this run');
    expect(error.message).toContain(`expected ${['batch_000', 'batch_001', 'batch_002'].map((t) => path.join(t, 'dbbench.json')).join(', ')}`);
    expect(error.message).toContain('found batch_000/ (empty), notes.txt, seed20260720/dbbench.json');
  });

  it('says so when the folder is empty, and refuses one that does not exist or is a file', () => {
    expect(refusal(() => checkPatchSource(dir, 'dbbench', TAGS)).message).toContain('found nothing (the folder is empty)');
    expect(refusal(() => checkPatchSource(path.join(dir, 'absent'), 'dbbench', TAGS)).message).toMatch(/--patch-source .*absent: no such folder/);
    put('file.json', '{}');
    expect(refusal(() => checkPatchSource(path.join(dir, 'file.json'), 'dbbench', TAGS)).message).toContain('no such folder');
  });

  it('shortens long lists of expected files', () => {
    const tags = Array.from({ length: 20 }, (_, i) => `batch_${String(i).padStart(3, '0')}`);
    const message = refusal(() => checkPatchSource(dir, 'dbbench', tags)).message;
    expect(message).toContain('… (20 in all)');
    expect(message).not.toContain('batch_019');
  });

  it('changes its digest when a patch file changes, appears or disappears, and only then', () => {
    put('batch_000/dbbench.json', '{"a":0}');
    const first = checkPatchSource(dir, 'dbbench', TAGS).digest;
    expect(checkPatchSource(dir, 'dbbench', TAGS).digest).toBe(first);
    put('unrelated/dbbench.json', '{}');
    expect(checkPatchSource(dir, 'dbbench', TAGS).digest).toBe(first);
    put('batch_000/dbbench.json', '{"a":1}');
    const changed = checkPatchSource(dir, 'dbbench', TAGS).digest;
    expect(changed).not.toBe(first);
    put('batch_001/dbbench.json', '{"a":1}');
    const added = checkPatchSource(dir, 'dbbench', TAGS).digest;
    expect(added).not.toBe(changed);
    rmSync(path.join(dir, 'batch_001'), { recursive: true });
    expect(checkPatchSource(dir, 'dbbench', TAGS).digest).toBe(changed);
    // The same bytes under another batch are another source.
    rmSync(path.join(dir, 'batch_000'), { recursive: true });
    put('batch_002/dbbench.json', '{"a":1}');
    expect(checkPatchSource(dir, 'dbbench', TAGS).digest).not.toBe(changed);
  });
});
