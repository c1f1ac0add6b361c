import { rmSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';

import { writeTestCatalogue } from '../../environments/webshop/test-catalogue.js';
import { envCheckWebShop } from './env-check.js';

const dir = writeTestCatalogue({ human: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(options: Parameters<typeof envCheckWebShop>[0]): Promise<{ code: number; text: string }> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const code = await envCheckWebShop(options, out);
  return { code, text: Buffer.concat(chunks).toString('utf8') };
}

describe('envCheckWebShop', () => {
  it('reports n/m scored 1.0 and the recall lines', async () => {
    const { code, text } = await run({ dataDir: dir, goals: 'synthetic' });
    expect(code).toBe(0);
    expect(text).toMatch(/^9\/9 scored 1\.0 \(WebShop gold purchases, synthetic goals, goal seed 233/);
    expect(text).toContain('search recall@10, human queries: n/a');
    expect(text).toMatch(/synthetic instructions as queries \(proxy\): \d+\/3/);
  });

  it('uses human goals when the instruction file is there, and prints JSON on request', async () => {
    const { text } = await run({ dataDir: dir, json: true });
    const summary = JSON.parse(text) as { goals: string; gold: { scored: number; total: number } };
    expect(summary.goals).toBe('human');
    expect(summary.gold).toMatchObject({ scored: 2, total: 2 });
  });

  it('rejects unknown goal modes and folders without the catalogue', async () => {
    await expect(run({ dataDir: dir, goals: 'mixed' })).rejects.toThrow(/Allowed: human, synthetic/);
    await expect(run({ dataDir: '/' })).rejects.toThrow(/items_shuffle_1000\.json/);
  });
});
