import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../src/config/data-dir.js';
import type { EpisodeRecord } from '../../src/episode/index.js';
import { parseWebShopTextAction } from '../../src/environments/webshop/webshop-text-prompts.js';
import { runCli } from './cli-helpers.js';

const dataDir = resolveDataDir();
const present = existsSync(path.join(dataDir, 'webshop', 'items_shuffle_1000.json')) && existsSync(path.join(dataDir, 'agentbench_prompts.json'));

describe.skipIf(!present)('WebShop v0.2 text protocol through the CLI', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'webshop-v02-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const run = (name: string) =>
    runCli(['run', '--bench', 'webshop', '--protocol', 'v0.2', '--tasks', '0:8', '--target', 'sim:webshop?seed=2', '--run-dir', path.join(root, name)]);

  it('plays goals with sim:webshop in text mode, byte-identically across two runs, and builds a failure packet', async () => {
    const [a, b] = await Promise.all([run('a'), run('b')]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(a.stdout).toMatch(/success: \d+\/8/);
    const first = readFileSync(path.join(root, 'a', 'episodes.jsonl'));
    expect(first.equals(readFileSync(path.join(root, 'b', 'episodes.jsonl')))).toBe(true);

    const records = first
      .toString('utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as EpisodeRecord);
    expect(records).toHaveLength(8);
    const runJson = JSON.parse(readFileSync(path.join(root, 'a', 'run.json'), 'utf8')) as Record<string, unknown>;
    expect(JSON.stringify(runJson)).toContain('webshop-text-v0.2');
    for (const r of records) {
      expect(r.messages.some((m) => m.role === 'system' || m.role === 'tool')).toBe(false);
      expect(r.messages[1]).toEqual({ role: 'assistant', content: 'Ok.' });
      expect(r.preamble).toBe(10);
      expect(r.rounds).toBeLessThanOrEqual(10);
      const live = r.messages.slice(10).filter((m) => m.role === 'assistant');
      expect(live.length).toBe(r.rounds);
      // every executed step is the action its reply named
      const named = live.map((m) => parseWebShopTextAction(m.content ?? ''));
      r.steps.forEach((s, i) => expect(s.tool === 'text' ? named[i] : `${s.tool}[${String(s.input)}]`).toBe(s.tool === 'text' ? undefined : named[i]!.action));
    }
    expect(records.some((r) => r.outcome === 'success')).toBe(true);
    expect(records.some((r) => r.outcome !== 'success')).toBe(true);

    const packet = await runCli(['packet', path.join(root, 'a')]);
    expect(packet.code, packet.stderr).toBe(0);
    expect(packet.stdout).toMatch(/^# Harness-R1 Direct Failure Trace Packet/m);
    expect(packet.stdout).toMatch(/- actions: \d+ \(search \d+, click \d+, buy now \d+\)/);
    expect(packet.stdout).not.toContain("l'eau d'issey");
  }, 120_000);
});
