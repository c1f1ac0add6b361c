import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

import { afterAll, describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import { envCheckAlfworld } from './env-check.js';

const dataDir = resolveDataDir();
const tmp = mkdtempSync(path.join(tmpdir(), 'env-check-alfworld-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function sink() {
  const chunks: string[] = [];
  return { write: (t: string) => chunks.push(t), text: () => chunks.join('') };
}

/** The first `n` games of the shipped valid_train file, re-gzipped, optionally with a walkthrough broken. */
function sample(n: number, name: string, breakFirst = false): string {
  const lines = gunzipSync(readFileSync(path.join(dataDir, 'alfworld', 'games', 'valid_train.jsonl.gz'))).toString('utf8').split('\n').slice(0, n);
  if (breakFirst) {
    const first = JSON.parse(lines[0]!) as { walkthrough_2_1_2: string[] };
    first.walkthrough_2_1_2 = first.walkthrough_2_1_2.slice(0, -1);
    lines[0] = JSON.stringify(first);
  }
  const file = path.join(tmp, name);
  writeFileSync(file, gzipSync(lines.join('\n')));
  return file;
}

describe('env check alfworld', () => {
  it('prints n/m won at last step per wording and exits 0 when all win', async () => {
    const file = sample(5, 'five.jsonl.gz');
    const out = sink();
    expect(await envCheckAlfworld({ games: file }, out)).toBe(0);
    expect(out.text()).toBe(`5/5 won at last step (wording 2.1.1, ${file})\n5/5 won at last step (wording 2.1.2, ${file})\n`);
  });

  it('lists misses and still exits 0 (it ran); --json gives the full result', async () => {
    const file = sample(3, 'broken.jsonl.gz', true);
    const out = sink();
    expect(await envCheckAlfworld({ games: file, wording: '2.1.2' }, out)).toBe(0);
    expect(out.text()).toMatch(/^2\/3 won at last step \(wording 2\.1\.2, .*\)\n {2}miss: json_2\.1\.1\/valid_train\/\S+: not won after all \d+ steps\n$/);
    const json = sink();
    await envCheckAlfworld({ games: file, wording: '2.1.1', json: true }, json);
    const parsed = JSON.parse(json.text()) as { results: { wording: string; wonAtLastStep: number; misses: { kind: string }[] }[] };
    expect(parsed.results.map((r) => [r.wording, r.wonAtLastStep, r.misses.map((m) => m.kind)])).toEqual([['2.1.1', 2, ['not_won']]]);
  });

  it('raises usage errors as ConfigError', async () => {
    await expect(envCheckAlfworld({ games: path.join(tmp, 'nope.jsonl') }, sink())).rejects.toMatchObject({ code: 'config_error', field: 'games' });
    await expect(envCheckAlfworld({ games: sample(1, 'one.jsonl.gz'), wording: '3' }, sink())).rejects.toThrow(/Unknown --wording '3'. Allowed: 2.1.1, 2.1.2, both/);
  });
});
