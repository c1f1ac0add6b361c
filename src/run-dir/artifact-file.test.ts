import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { ConfigError } from '../episode/index.js';
import { readJsonArtifact, readTextArtifact, writeArtifact, writeJsonArtifact } from './artifact-file.js';

const root = mkdtempSync(path.join(tmpdir(), 'artifact-file-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('artifact files', () => {
  it('writes whole files (creating folders), reads them back, and reads a missing one as undefined', () => {
    const file = path.join(root, 'a', 'b', 'result.json');
    writeJsonArtifact(file, { x: 1 });
    expect(readFileSync(file, 'utf8')).toBe('{\n  "x": 1\n}\n');
    expect(readJsonArtifact(file)).toEqual({ x: 1 });
    expect(readTextArtifact(file)).toBe('{\n  "x": 1\n}\n');
    expect(readJsonArtifact(path.join(root, 'none.json'))).toBeUndefined();
    expect(readTextArtifact(path.join(root, 'none.txt'))).toBeUndefined();
    expect(readdirSync(path.dirname(file))).toEqual(['result.json']);
  });

  it('fails with a ConfigError naming the file asked for (not the temporary one) and where the problem is, leaving no temporary file', () => {
    // A plain file where a folder should be: the folder cannot be made.
    const blocker = path.join(root, 'blocker');
    writeFileSync(blocker, 'x');
    const file = path.join(blocker, 'sub', 'out.txt');
    let error: unknown;
    try {
      writeArtifact(file, 'hello');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).field).toBe('path');
    const message = (error as ConfigError).message;
    expect(message.startsWith(`Cannot write ${file}: `)).toBe(true);
    expect(message).not.toContain('.tmp-');
    expect(message.endsWith(` at ${blocker}.`) || message.endsWith(` at ${path.join(blocker, 'sub')}.`)).toBe(true);
  });

  it('lets an error that is not the file system\'s through as it is', () => {
    const file = path.join(root, 'typed', 'out.txt');
    expect(() => writeArtifact(file, 42 as unknown as string)).toThrow(TypeError);
  });

  it('names only the file when the failure is at the file itself, and removes the temporary file', () => {
    const dir = path.join(root, 'taken');
    writeJsonArtifact(path.join(dir, 'keep.json'), 1);
    const file = path.join(dir, 'out.txt');
    // A folder in the file's place: the rename onto it fails at the file.
    writeJsonArtifact(path.join(file, 'inner.json'), 1);
    let message = '';
    try {
      writeArtifact(file, 'hello');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      message = (e as Error).message;
    }
    expect(message).toMatch(new RegExp(`^Cannot write ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: [^]*[^.]\\.$`));
    expect(message).not.toContain(' at ');
    expect(readdirSync(dir).sort()).toEqual(['keep.json', 'out.txt']);
    expect(existsSync(path.join(file, 'inner.json'))).toBe(true);
  });
});
