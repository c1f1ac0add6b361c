import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { runCli } from './cli-helpers.js';

const root = mkdtempSync(path.join(tmpdir(), 'harness-strategy-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Record_ {
  outcome: string;
  rounds: number;
  usage: { modelCalls: number };
  messages: { role: string; content: string | null }[];
  detail: { reflection?: { text?: string; retry?: { outcome: string; messages: { role: string; content: string | null }[] } } };
}
const records = (dir: string): Record_[] => readFileSync(path.join(dir, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record_);

describe('run --strategy (real CLI process, simulated target)', () => {
  it('reflection: failed tasks get a second episode with the reflection in its system prompt; success@2 is its own field and line', async () => {
    const dir = path.join(root, 'reflection');
    const args = ['run', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:10', '--target', 'sim:dbbench', '--strategy', 'reflection', '--run-dir', dir];
    const r = await runCli([...args, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { strategy: string; summary: { successes: number; scored: number }; successAt2: { success1: number; success2: number; tasks: number; retried: number; rescued: number } };
    expect(out.strategy).toBe('reflection');
    // success@1 stays the first episodes' figure; success@2 adds the rescued retries and never lowers it.
    expect(out.successAt2.success1).toBe(out.summary.successes);
    expect(out.successAt2.tasks).toBe(out.summary.scored);
    expect(out.successAt2.success2).toBe(out.successAt2.success1 + out.successAt2.rescued);
    expect(out.successAt2.retried).toBe(out.summary.scored - out.summary.successes);
    const stored = records(dir);
    for (const rec of stored) {
      if (rec.outcome === 'success') {
        expect(rec.detail.reflection).toBeUndefined();
        continue;
      }
      // An infrastructure failure (not the agent's doing) gets no second episode.
      if (!['wrong_answer', 'round_limit', 'invalid_action'].includes(rec.outcome)) {
        expect(rec.detail.reflection).toBeUndefined();
        continue;
      }
      const reflection = rec.detail.reflection!;
      expect(reflection.text).toMatch(/did not complete the task/);
      expect(rec.messages[0]!.content).not.toContain('[strategy:reflection:memory]');
      expect(reflection.retry!.messages[0]!.content).toContain('[strategy:reflection:memory]');
      expect(reflection.retry!.messages[0]!.content).toContain(reflection.text);
    }
    expect(stored.filter((rec) => rec.detail.reflection?.retry?.outcome === 'success').length).toBe(out.successAt2.rescued);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')) as { options: { strategy?: string } };
    expect(manifest.options.strategy).toBe('reflection');
    // The text summary prints success@2 on its own line, marked as not comparable with success@1.
    const text = await runCli([...args, '--resume']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/reflection: success@2 \d+\/\d+ .*not comparable with success@1/);
    // Resuming with another strategy (or none) is another run: refused.
    const other = await runCli(['run', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:10', '--target', 'sim:dbbench', '--strategy', 'react', '--run-dir', dir, '--resume']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/strategy/);
    const none = await runCli(['run', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:10', '--target', 'sim:dbbench', '--run-dir', dir, '--resume']);
    expect(none.code).toBe(2);
  }, 240_000);

  it('an unknown strategy is a usage error; improve refuses strategies', async () => {
    const bad = await runCli(['run', '--bench', 'dbbench', '--target', 'sim:dbbench', '--strategy', 'tree_of_thought']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Unknown --strategy 'tree_of_thought'\. Allowed: react, self_refine, reflection, trajectory_reflection\./);
    const improve = await runCli(['improve', '--bench', 'dbbench', '--target', 'sim:dbbench', '--strategy', 'self_refine', '--run-dir', path.join(root, 'improve')]);
    expect(improve.code).toBe(2);
    expect(improve.stderr).toMatch(/--strategy is not supported by improve/);
  }, 120_000);
});
