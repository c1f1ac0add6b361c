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

  it('an unknown strategy is a usage error', async () => {
    const bad = await runCli(['run', '--bench', 'dbbench', '--target', 'sim:dbbench', '--strategy', 'tree_of_thought']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Unknown --strategy 'tree_of_thought'\. Allowed: react, self_refine, reflection, trajectory_reflection\./);
    const improve = await runCli(['improve', '--bench', 'dbbench', '--target', 'sim:dbbench', '--strategy', 'tree_of_thought', '--run-dir', path.join(root, 'improve-bad')]);
    expect(improve.code).toBe(2);
    expect(improve.stderr).toMatch(/Unknown --strategy 'tree_of_thought'/);
  }, 120_000);
});

describe('improve --strategy (real CLI process, simulated target, symbolic engineer)', () => {
  interface Result { baseline: { rewards: Record<string, number> }; patched: { rewards: Record<string, number> } | null; rerun: { cacheKey: string } | null; status: string }
  const json = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

  it('reflection: baseline and reruns played with it, the reward compares success@1 only, success@2 apart; another strategy is refused with the difference', async () => {
    const dir = path.join(root, 'improve-reflection');
    const args = ['improve', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:6', '--batch-size', '3', '--target', 'sim:dbbench', '--hook-timeout-ms', '1000', '--run-dir', dir];
    const r = await runCli([...args, '--strategy', 'reflection', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      strategy: { name: string; reward: string; successAt2: { baseline: { success1: number; success2: number; rescued: number; tasks: number }; batches: { tag: string; baseline: { success1: number; success2: number }; patched: { success1: number; success2: number } }[] } };
      summary: { totals: { baselinePass: number; patchedPass: number }; target: { simulated: boolean }; engineer: { symbolic: boolean }; batches: { tag: string; baselinePass: number; patchedPass: number | null }[] };
    };
    expect(out.summary.target.simulated).toBe(true);
    expect(out.summary.engineer.symbolic).toBe(true);
    expect(out.strategy).toMatchObject({ name: 'reflection', reward: 'success@1' });
    // The strategy is in improve.json, the baseline's identity and every rerun's identity.
    expect(json<{ strategy?: string; hookTimeoutMs?: number }>(path.join(dir, 'improve.json'))).toMatchObject({ strategy: 'reflection', hookTimeoutMs: 1000 });
    expect(json<{ options: { strategy?: string } }>(path.join(dir, 'baseline', 'run.json')).options.strategy).toBe('reflection');
    const baseline = records(path.join(dir, 'baseline'));
    expect(baseline.some((rec) => rec.detail.reflection?.retry !== undefined)).toBe(true);
    let reran = 0;
    for (const batch of out.summary.batches) {
      const result = json<Result>(path.join(dir, 'batches', batch.tag, 'result.json'));
      // The baseline's reward of every task is its first episode's (success@1), never the reflection's second episode.
      const stored = JSON.parse(`[${readFileSync(path.join(dir, 'baseline', 'episodes.jsonl'), 'utf8').trim().split('\n').join(',')}]`) as { task: { index: number }; reward: number }[];
      for (const [task, reward] of Object.entries(result.baseline.rewards)) expect(reward).toBe(stored.find((x) => x.task.index === Number(task))!.reward);
      const at2 = out.strategy.successAt2.batches.find((b) => b.tag === batch.tag)!;
      expect(at2.baseline.success1).toBe(batch.baselinePass);
      if (!result.rerun) continue;
      reran++;
      const rerunDir = path.join(dir, 'reruns', result.rerun.cacheKey);
      expect(json<{ options: { strategy?: string } }>(path.join(rerunDir, 'run.json')).options.strategy).toBe('reflection');
      const rerun = JSON.parse(`[${readFileSync(path.join(rerunDir, 'episodes.jsonl'), 'utf8').trim().split('\n').join(',')}]`) as { task: { index: number }; reward: number; detail: { reflection?: unknown } }[];
      for (const [task, reward] of Object.entries(result.patched!.rewards)) expect(reward).toBe(rerun.find((x) => x.task.index === Number(task))!.reward);
      expect(at2.patched.success1).toBe(batch.patchedPass);
      expect(at2.patched.success2).toBeGreaterThanOrEqual(at2.patched.success1);
    }
    expect(reran).toBeGreaterThan(0);
    const all = out.strategy.successAt2.baseline;
    expect(all.success1).toBe(out.summary.totals.baselinePass);
    expect(all.success2).toBe(all.success1 + all.rescued);

    // Resumed with the same strategy: the text summary prints success@2 apart; with another (or none): refused, naming it.
    const again = await runCli([...args, '--strategy', 'reflection']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/strategy: reflection \(baseline and every rerun played with it; the reward compares success@1/);
    expect(again.stdout).toMatch(/reflection: success@2 of the baseline \d+\/\d+ .*not comparable with success@1 and never the reward/);
    expect(again.stdout).toMatch(/SIMULATED TARGET/);
    const other = await runCli([...args, '--strategy', 'react']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/strategy: "reflection" → "react"/);
    const none = await runCli(args);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/strategy: "reflection" → \(unset\)/);
  }, 300_000);
});
