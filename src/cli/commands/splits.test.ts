import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { ConfigError } from '../../episode/index.js';
import { splitsCommand } from './splits.js';

const work = mkdtempSync(path.join(tmpdir(), 'harness-splits-cmd-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const sink = { write: () => true };

describe('splitsCommand option errors', () => {
  it('names --out when it is missing or is a file', async () => {
    await expect(splitsCommand({ bench: 'dbbench' }, sink)).rejects.toMatchObject({ field: 'out', message: expect.stringMatching(/Missing --out DIR/) });
    const file = path.join(work, 'a-file');
    writeFileSync(file, 'x');
    await expect(splitsCommand({ bench: 'dbbench', out: file }, sink)).rejects.toThrow(ConfigError);
    await expect(splitsCommand({ bench: 'dbbench', out: file }, sink)).rejects.toThrow(/exists and is not a directory/);
  });

  it('names --bench with the allowed values when it is missing', async () => {
    await expect(splitsCommand({ out: work }, sink)).rejects.toMatchObject({ field: 'bench', allowed: ['dbbench', 'alfworld', 'webshop'] });
  });
});
