import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { JsonlLog } from './jsonl-log.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'jsonl-log-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('JsonlLog grouped fsyncs', () => {
  it('has every appended line in the file when append returns (a kill loses nothing), fsyncs in groups', async () => {
    const log = new JsonlLog<{ n: number }>(path.join(root, 'a.jsonl'));
    for (let n = 0; n < 50; n++) {
      log.append({ n });
      // Read back without awaiting anything: the write happened inside append.
      expect(readFileSync(log.file, 'utf8').split('\n').filter(Boolean)).toHaveLength(n + 1);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    log.append({ n: 50 });
    log.close();
    expect(new JsonlLog<{ n: number }>(log.file).readAll().records.map((r) => r.n)).toEqual([...Array(51).keys()]);
  });

  it('closes while a background fsync runs, and appends again after', async () => {
    const log = new JsonlLog<{ n: number }>(path.join(root, 'b.jsonl'));
    log.append({ n: 1 });
    log.close(); // the fsync started by the append is still running
    log.append({ n: 2 });
    log.flush();
    await new Promise((resolve) => setTimeout(resolve, 50));
    log.append({ n: 3 });
    log.close();
    expect(readFileSync(log.file, 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
  });
});
