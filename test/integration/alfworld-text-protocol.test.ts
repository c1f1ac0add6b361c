import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../src/config/data-dir.js';
import type { EpisodeRecord } from '../../src/episode/index.js';
import { runCli } from './cli-helpers.js';

const dataDir = resolveDataDir();
const present = existsSync(path.join(dataDir, 'alfworld', 'prompts', 'alfworld_multiturn_plan_first.v0.2.json')) && existsSync(path.join(dataDir, 'agentbench_prompts.json'));

const readRecords = (dir: string): EpisodeRecord[] =>
  readFileSync(path.join(dir, 'episodes.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as EpisodeRecord);

describe.skipIf(!present)('ALFWorld v0.2 text protocol through the CLI', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'alfworld-v02-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const run = (name: string, extra: string[] = []) =>
    runCli(['run', '--bench', 'alfworld', '--protocol', 'v0.2', '--split', 'dev', '--tasks', '0,4,8,11,14,17', '--target', 'sim:alfworld?seed=3', '--run-dir', path.join(root, name), ...extra]);

  it('plays dev games with sim:alfworld in text mode, byte-identically across two runs, and builds a failure packet', async () => {
    const [a, b] = await Promise.all([run('a'), run('b')]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(a.stdout).toMatch(/success: \d+\/6/);
    const bytes = readFileSync(path.join(root, 'a', 'episodes.jsonl'));
    expect(bytes.equals(readFileSync(path.join(root, 'b', 'episodes.jsonl')))).toBe(true);

    const runJson = JSON.parse(readFileSync(path.join(root, 'a', 'run.json'), 'utf8')) as { options: Record<string, unknown> };
    expect(runJson.options).toMatchObject({ protocol: 'alfworld-text-v0.2', wording: '2.1.1' });
    const records = readRecords(path.join(root, 'a'));
    expect(records.map((r) => r.detail.family)).toEqual(['pick_and_place', 'pick_clean_then_place', 'pick_heat_then_place', 'pick_cool_then_place', 'look_at_obj', 'pick_two_obj']);
    for (const r of records) {
      expect(r.messages.some((m) => m.role === 'system' || m.role === 'tool')).toBe(false);
      expect(r.messages[1]).toEqual({ role: 'assistant', content: "OK. I'll follow your instructions and try my best to solve the task." });
      const task = r.messages[r.preamble!]!;
      expect(task.content).toMatch(/^Here is your task\. /);
      expect(r.rounds).toBeLessThanOrEqual(35);
      // Only the newest observation still lists the actions.
      const listed = r.messages.filter((m) => m.role === 'user' && (m.content ?? '').includes('AVAILABLE ACTIONS'));
      expect(listed).toHaveLength(1);
      expect(r.steps.every((s) => s.tool === 'text')).toBe(true);
    }
    expect(records.some((r) => r.outcome === 'success')).toBe(true);
    expect(records.some((r) => r.outcome !== 'success')).toBe(true);

    const packet = await runCli(['packet', path.join(root, 'a')]);
    expect(packet.code, packet.stderr).toBe(0);
    expect(packet.stdout).toMatch(/^# Harness-R1 Direct Failure Trace Packet/m);
    expect(packet.stdout).toMatch(/^USER:\nHere is your task\./m);
    expect(packet.stdout).not.toMatch(/Here is one example/);
  }, 120_000);

  it('accepts the other valid options in v0.2 mode (2.1.2 wording, a step limit)', async () => {
    const result = await run('c', ['--wording', '2.1.2', '--max-rounds', '12']);
    expect(result.code, result.stderr).toBe(0);
    const runJson = JSON.parse(readFileSync(path.join(root, 'c', 'run.json'), 'utf8')) as { options: Record<string, unknown> };
    expect(runJson.options).toMatchObject({ protocol: 'alfworld-text-v0.2', wording: '2.1.2', maxSteps: 12 });
    const records = readRecords(path.join(root, 'c'));
    expect(records.every((r) => r.rounds <= 12)).toBe(true);
    expect(records.some((r) => r.outcome === 'success')).toBe(true);
  }, 120_000);
});
