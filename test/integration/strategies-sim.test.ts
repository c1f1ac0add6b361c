import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { runCli } from './cli-helpers.js';

const root = mkdtempSync(path.join(tmpdir(), 'harness-strategies-sim-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Turn { round: number; strategy: string; decision?: string; feedback?: string; verdict?: string; reflection?: string }
interface Rec {
  outcome: string;
  reward: number;
  rounds: number;
  usage: { modelCalls: number };
  detail: { strategyTurns?: Turn[]; reflection?: { text?: string; retry?: { outcome: string; messages: { content: string | null }[] } } };
}
const records = (dir: string): Rec[] => readFileSync(path.join(dir, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Rec);
const AGENT_FAILURES = ['wrong_answer', 'round_limit', 'invalid_action'];

// Three tasks of each benchmark, each strategy, through the real CLI and the simulated targets' HTTP servers.
describe.each(['dbbench', 'alfworld', 'webshop'])('strategies on %s (simulated target)', (bench) => {
  const play = async (strategy: string | undefined) => {
    const dir = path.join(root, `${bench}-${strategy ?? 'plain'}`);
    const r = await runCli(['run', '--bench', bench, '--tasks', '0:3', '--target', `sim:${bench}`, ...(strategy ? ['--strategy', strategy] : []), '--run-dir', dir, '--json']);
    expect(r.code, r.stderr).toBe(0);
    return { out: JSON.parse(r.stdout) as { summary: { successes: number }; successAt2?: { success1: number; success2: number; retried: number } }, recs: records(dir) };
  };

  it('react: one model call per turn, each turn noted', async () => {
    const { recs } = await play('react');
    for (const r of recs) {
      expect(r.usage.modelCalls).toBe(r.rounds);
      expect(r.detail.strategyTurns!.map((t) => t.round)).toEqual(Array.from({ length: r.rounds }, (_, i) => i + 1));
    }
  }, 120_000);

  it('self_refine: two or three calls per turn, the critic answering with a JSON verdict', async () => {
    const { recs } = await play('self_refine');
    for (const r of recs) {
      const turns = r.detail.strategyTurns!;
      expect(turns).toHaveLength(r.rounds);
      const extra = turns.filter((t) => t.decision !== 'critic_keep_draft' && !t.decision!.startsWith('draft_fallback_critic')).length;
      expect(r.usage.modelCalls).toBe(2 * r.rounds + extra);
      for (const t of turns) expect(t.verdict === 'keep' || t.verdict === 'revise').toBe(true);
    }
  }, 120_000);

  it('reflection: every agent failure is retried with the reflection in context; success@2 ≥ success@1', async () => {
    const { out, recs } = await play('reflection');
    const a = out.successAt2!;
    expect(a.success1).toBe(out.summary.successes);
    expect(a.success2).toBeGreaterThanOrEqual(a.success1);
    expect(a.retried).toBe(recs.filter((r) => AGENT_FAILURES.includes(r.outcome)).length);
    for (const r of recs.filter((x) => AGENT_FAILURES.includes(x.outcome))) {
      const retry = r.detail.reflection!.retry!;
      expect(retry.messages[0]!.content).toContain(r.detail.reflection!.text!);
    }
  }, 120_000);

  it('trajectory_reflection: a reflection call without tools before every action, two calls per turn, success@1 only', async () => {
    const { out, recs } = await play('trajectory_reflection');
    expect(out.successAt2).toBeUndefined();
    for (const r of recs) {
      const turns = r.detail.strategyTurns!;
      expect(turns).toHaveLength(r.rounds);
      expect(r.usage.modelCalls).toBe(2 * r.rounds);
      for (const t of turns) {
        expect(t.decision).toBe('action_with_reflection');
        expect(t.reflection).toMatch(/^So far \d+ action\(s\) were taken/);
      }
    }
    // The simulation answers the action request with its own turn: the reflection's words neither help nor hurt it.
    const plain = await play(undefined);
    expect(recs.map((r) => [r.outcome, r.reward, r.rounds])).toEqual(plain.recs.map((r) => [r.outcome, r.reward, r.rounds]));
  }, 120_000);
});
