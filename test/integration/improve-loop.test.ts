import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import type { BatchResult } from '../../src/evaluation/improve/improve-batch.js';
import type { ImproveSummary } from '../../src/evaluation/improve/improve-run.js';
import { startFakeOpenAIServer, type FakeResponse } from '../../src/models/fake-openai-server.js';
import { runCli, spawnCli } from './cli-helpers.js';
import { resolveDataDir } from '../../src/config/data-dir.js';

const root = mkdtempSync(path.join(tmpdir(), 'harness-improve-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

describe('harness-r1 improve (real CLI, simulated target, real sandbox)', () => {
  it('runs the loop with the symbolic engineer: artifacts per batch, a real rerun, a report', async () => {
    const dir = path.join(root, 'symbolic');
    const r = await runCli(['improve', '--bench', 'dbbench', '--tasks', '0:20', '--target', 'sim:dbbench?seed=1', '--engineer', 'symbolic', '--run-dir', dir, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const { summary, report } = JSON.parse(r.stdout) as { summary: ImproveSummary; report: string };
    expect(summary.target.simulated).toBe(true);
    expect(summary.engineer.symbolic).toBe(true);
    expect(summary.batches.map((b) => b.tag)).toEqual(['batch_000', 'batch_001']);
    for (const b of summary.batches) {
      const result = readJson<BatchResult>(path.join(dir, 'batches', b.tag, 'result.json'));
      expect(result.status).toBe(b.status);
      expect(existsSync(path.join(dir, 'batches', b.tag, 'patch.json'))).toBe(true);
      expect(existsSync(path.join(dir, 'reruns', result.rerun!.cacheKey, 'episodes.jsonl'))).toBe(true);
    }
    expect(summary.totals.patchedPass).toBeGreaterThan(summary.totals.baselinePass);
    expect(existsSync(report)).toBe(true);
    expect(readFileSync(report, 'utf8')).toMatch(/SIMULATED TARGET/);

    const packet = await runCli(['packet', dir, '--batch', 'batch_001']);
    expect(packet.code, packet.stderr).toBe(0);
    expect(packet.stdout).toMatch(/^# DBBench no-harness evidence for batch_001\n/);
    expect(packet.stderr).toMatch(/SIMULATED TARGET/);
    expect((await runCli(['packet', dir, '--batch', 'batch_009'])).code).toBe(2);
  });

  it('scores malformed or failing LLM engineer answers 0 with the right status, and never crashes', async () => {
    const good = readFileSync(path.join(resolveDataDir(), 'patches', 'heldout_generalization', 'harness-r1', 'seed20260720', 'dbbench.json'), 'utf8');
    const answers: FakeResponse[] = [
      { kind: 'text', content: `The failures share quoting problems.\n</think>\n<patch>${good}</patch>` },
      { kind: 'text', content: 'I think the agent should quote identifiers. <patch>{"benchmark": "dbbench"' },
      { kind: 'text', content: `reasoning\n</think>\n<patch>${JSON.stringify({ benchmark: 'dbbench', actions: [{ type: 'add_code_hook', hook: 'on_init', code: 'import os\ndef hook(ctx, nb):\n    return None\n' }] })}</patch>` },
      { kind: 'text', content: 'reasoning\n</think>\n<patch>{not json}</patch>' },
      ...[1, 2, 3, 4, 5].map(() => ({ kind: 'http_error' as const, status: 500 })),
    ];
    let next = 0;
    const server = await startFakeOpenAIServer(() => answers[next++] ?? { kind: 'http_error', status: 500 });
    try {
      const dir = path.join(root, 'llm');
      const r = await runCli([
        'improve', '--bench', 'dbbench', '--tasks', '0:25', '--batch-size', '5', '--target', 'sim:dbbench?seed=2', '--run-dir', dir, '--json',
        '--engineer', `openai:${server.url}#fake-model?attempts=2&timeout=10`,
      ]);
      expect(r.code, r.stderr).toBe(0);
      const { summary } = JSON.parse(r.stdout) as { summary: ImproveSummary };
      const statuses = summary.batches.map((b) => b.status);
      const engineered = statuses.filter((s) => s !== 'no_failures');
      expect(engineered.slice(0, 5)).toEqual([
        expect.stringMatching(/^(scored|inert)$/),
        'invalid_patch_treated_as_no_patch',
        'invalid_patch_treated_as_no_patch',
        'invalid_patch_treated_as_no_patch',
        'engineer_request_failed_treated_as_no_patch',
      ]);
      for (const b of summary.batches.filter((x) => x.status !== 'scored')) expect(b.score).toBe(0);
      const rejections = summary.batches
        .filter((b) => b.status === 'invalid_patch_treated_as_no_patch')
        .map((b) => readJson<BatchResult>(path.join(dir, 'batches', b.tag, 'result.json')).rejection);
      expect(rejections).toEqual([expect.stringMatching(/missing_think_block/), expect.stringMatching(/Import/), expect.stringMatching(/no_json_object|json/)]);
      const sent = server.requests.filter((q) => q.path.endsWith('/chat/completions')).map((q) => q.body as { messages: { role: string; content: string }[]; continue_final_message?: boolean });
      expect(sent[0]!.messages.at(-1)).toEqual({ role: 'assistant', content: '<think>\n' });
      expect(sent[0]!.continue_final_message).toBe(true);
      expect(sent[0]!.messages[1]!.content).toContain('Observed no-harness rollout evidence:');
    } finally {
      await server.close();
    }
  });

  it('runs a revision pass that sees the first attempt (--revise)', async () => {
    const good = readFileSync(path.join(resolveDataDir(), 'patches', 'heldout_generalization', 'harness-r1', 'seed20260721', 'dbbench.json'), 'utf8');
    const server = await startFakeOpenAIServer(() => ({ kind: 'text', content: `Quoting and early commits recur.\n</think>\n<patch>${good}</patch>` }));
    try {
      const dir = path.join(root, 'revise');
      const r = await runCli(['improve', '--bench', 'dbbench', '--tasks', '0:10', '--target', 'sim:dbbench?seed=3', '--run-dir', dir, '--json', '--revise', '--engineer', `openai:${server.url}#fake-model`]);
      expect(r.code, r.stderr).toBe(0);
      const { summary } = JSON.parse(r.stdout) as { summary: ImproveSummary };
      expect(summary.batches.map((b) => b.tag)).toEqual(['batch_000', 'batch_000-revision']);
      const sent = server.requests.filter((q) => q.path.endsWith('/chat/completions')).map((q) => JSON.stringify(q.body));
      expect(sent).toHaveLength(2);
      expect(sent[0]).not.toMatch(/revision context/i);
      expect(sent[1]).toMatch(/revision context/i);
      const revision = readJson<BatchResult>(path.join(dir, 'batches', 'batch_000-revision', 'result.json'));
      expect(['scored', 'inert']).toContain(revision.status);
    } finally {
      await server.close();
    }
    expect((await runCli(['improve', '--bench', 'dbbench', '--target', 'sim:dbbench', '--revise'])).code).toBe(2);
  });

  it('resumes after SIGKILL: finished batches are kept, the rest completes, the summary matches a clean run', async () => {
    const args = ['improve', '--bench', 'dbbench', '--tasks', '0:30', '--target', 'sim:dbbench?seed=4&latency_ms=15', '--engineer', 'symbolic', '--concurrency', '2', '--json'];
    const clean = path.join(root, 'clean');
    const reference = await runCli([...args, '--run-dir', clean]);
    expect(reference.code, reference.stderr).toBe(0);
    const killed = path.join(root, 'killed');
    const { child, done } = spawnCli([...args, '--run-dir', killed]);
    await new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const poll = setInterval(() => {
        const batches = path.join(killed, 'batches');
        const finished = existsSync(batches) ? readdirSync(batches).filter((b) => existsSync(path.join(batches, b, 'result.json'))).length : 0;
        if (finished >= 1) {
          clearInterval(poll);
          child.kill('SIGKILL');
          resolve();
        } else if (Date.now() - started > 120_000) {
          clearInterval(poll);
          reject(new Error('no batch finished'));
        }
      }, 10);
    });
    expect((await done).signal).toBe('SIGKILL');
    const resumed = await runCli([...args, '--run-dir', killed]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const a = (JSON.parse(reference.stdout) as { summary: ImproveSummary }).summary;
    const b = (JSON.parse(resumed.stdout) as { summary: ImproveSummary }).summary;
    expect(b.batches).toEqual(a.batches);
    expect(b.totals).toEqual(a.totals);
    const lines = readFileSync(path.join(killed, 'baseline', 'episodes.jsonl'), 'utf8').trim().split('\n');
    expect(new Set(lines.map((l) => (JSON.parse(l) as { task: { index: number } }).task.index)).size).toBe(lines.length);
  }, 600_000); // three improve processes of 30 tasks: past the 60 s default on a loaded two-core machine

  it('refuses --revise for the symbolic engineer (it has no revision pass), and an unknown --metric (exit 2)', async () => {
    const revise = await runCli(['improve', '--bench', 'alfworld', '--target', 'sim:alfworld', '--engineer', 'symbolic', '--revise']);
    expect(revise.code).toBe(2);
    expect(revise.stderr).toMatch(/--revise needs an LLM engineer/);
    const metric = await runCli(['improve', '--bench', 'dbbench', '--target', 'sim:dbbench', '--metric', 'accuracy']);
    expect(metric.code).toBe(2);
    expect(metric.stderr).toMatch(/Allowed: delta_pass_rate, delta_average_reward/);
  });

  it('refuses to reuse a run directory for another target (exit 2)', async () => {
    const dir = path.join(root, 'symbolic');
    const r = await runCli(['improve', '--bench', 'dbbench', '--tasks', '0:20', '--target', 'sim:dbbench?seed=9', '--engineer', 'symbolic', '--run-dir', dir]);
    expect(r.code).toBe(2);
    // The run's identity (improve.json) is checked first and names each setting that differs.
    expect(r.stderr).toMatch(/Cannot continue .*different settings/);
    expect(r.stderr).toMatch(/target: ".*" → "sim:dbbench\?seed=9"/);
  });
});

