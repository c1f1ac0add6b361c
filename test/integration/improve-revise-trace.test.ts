import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import type { BatchResult } from '../../src/evaluation/improve/improve-batch.js';
import type { ImproveSummary } from '../../src/evaluation/improve/improve-run.js';
import { startFakeOpenAIServer } from '../../src/models/fake-openai-server.js';
import { runCli } from './cli-helpers.js';
import { resolveDataDir } from '../../src/config/data-dir.js';

const root = mkdtempSync(path.join(tmpdir(), 'harness-revise-trace-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

interface SentBody {
  messages: Array<{ role: string; content: string }>;
}

describe('harness-r1 improve --revise on the trace benchmarks (real CLI, simulated target, fake engineer server)', () => {
  it.each(['alfworld', 'webshop'] as const)('%s: the revision request carries the first patch and its result, and a revision row is recorded', async (bench) => {
    const patchFile = path.join(resolveDataDir(), 'patches', 'heldout_generalization', 'harness-r1', 'seed20260720', `${bench}.json`);
    const good = readFileSync(patchFile, 'utf8');
    const server = await startFakeOpenAIServer(() => ({ kind: 'text', content: `The same failure recurs across traces.\n</think>\n<patch>${good}</patch>` }));
    try {
      const dir = path.join(root, bench);
      const r = await runCli(['improve', '--bench', bench, '--tasks', '0:6', '--target', `sim:${bench}?seed=1`, '--run-dir', dir, '--json', '--revise', '--engineer', `openai:${server.url}#fake-model`]);
      expect(r.code, r.stderr).toBe(0);
      const { summary } = JSON.parse(r.stdout) as { summary: ImproveSummary };
      expect(summary.bench).toBe(bench);
      expect(summary.batches.map((b) => b.tag)).toEqual(['batch_000', 'batch_000-revision']);

      const first = readJson<BatchResult>(path.join(dir, 'batches', 'batch_000', 'result.json'));
      expect(['scored', 'inert']).toContain(first.status);
      const revision = readJson<BatchResult>(path.join(dir, 'batches', 'batch_000-revision', 'result.json'));
      expect(['scored', 'inert']).toContain(revision.status);
      expect(revision.taskIndices).toEqual(first.taskIndices);
      expect(existsSync(path.join(dir, 'batches', 'batch_000-revision', 'prompt.json'))).toBe(true);

      const sent = server.requests.filter((q) => q.path.endsWith('/chat/completions')).map((q) => (q.body as SentBody).messages[1]!.content);
      expect(sent).toHaveLength(2);
      expect(sent[0]).not.toContain('Second-pass revision context');
      const user = sent[1]!;
      const context = user.slice(user.indexOf('## Second-pass revision context'));
      expect(user.indexOf('## Second-pass revision context')).toBeGreaterThan(user.indexOf('Observed no-harness rollout evidence:'));
      // The first-pass prompt (same static prefix; its packet names the revision row's tag), then the context.
      const marker = 'Observed no-harness rollout evidence:';
      expect(user.split(marker)[0]).toBe(sent[0]!.split(marker)[0]);
      expect(user).toContain('- source run: batch_000-revision (split ');

      // The first patch, as validated and stored.
      const patch = readJson<{ description: string }>(path.join(dir, 'batches', 'batch_000', 'patch.json'));
      expect(context).toContain(`### Previous patch JSON\n\n${JSON.stringify(patch, null, 2).slice(0, 1500)}`);
      // Its batch result.
      const tasks = Object.keys(first.baseline.rewards).length;
      expect(context).toContain(`- status: ${first.status}\n- scored tasks: ${tasks}\n- passes: baseline ${first.baseline.pass}/${tasks}, patched ${first.patched!.pass}/${tasks}`);
      expect(context).toMatch(/- mean reward: baseline \d\.\d{4}, patched \d\.\d{4} \([+-]?\d\.\d{4}\)/);
      expect(context).toMatch(/- regressed \(passed without the patch, fail with it\): (none|[\d, ]+)\n- rescued \(failed without the patch, pass with it\): (none|[\d, ]+)/);
      // Traces of the patched run (with this seed some episodes still fail), rendered like the failure packet.
      expect(Object.values(first.patched!.rewards).some((reward) => reward < 1)).toBe(true);
      expect(context).toMatch(/## Patched-run trace 1: task \d of the batch \((passed|failed) without the patch, [^)]+\)\n\n- final_reward: \d\.\d{4}\n- status: \w+\n- turns: \d+\n\n### Runtime signals\n/);
      expect(context).toContain('### Messages\n\nUSER:\n');
      if (bench === 'webshop') expect(context).not.toMatch(/\b[Bb]0[A-Za-z0-9]{8}\b/);
      if (bench === 'alfworld') expect(context.split('### Traces of the patched run')[1]).not.toMatch(/\b(cabinet|countertop|drawer|shelf|desk|sinkbasin|toilet) \d+\b/);

      const recorded = readJson<Array<{ role: string; content: string }>>(path.join(dir, 'batches', 'batch_000-revision', 'prompt.json'));
      expect(recorded[1]!.content).toBe(user);
    } finally {
      await server.close();
    }
  });
});
