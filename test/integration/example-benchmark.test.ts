/**
 * The example benchmark (examples/kv-store) played end to end through the real CLI, as a user's own
 * benchmark: the folder is copied outside the repository into a package of its own (`"type": "module"`)
 * whose node_modules holds only harness-r1 (a link to this package) and zod, and the CLI loads it by path or by a config file entry. The
 * shared data directory is pointed at a folder that does not exist, so nothing is read from it.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { BatchResult } from '../../src/evaluation/improve/improve-batch.js';
import type { ImproveSummary } from '../../src/evaluation/improve/improve-run.js';
import type { RunSummary } from '../../src/evaluation/summarize-run.js';
import { startFakeOpenAIServer } from '../../src/models/fake-openai-server.js';
import { PROJECT_ROOT, runCli } from './cli-helpers.js';

const root = mkdtempSync(path.join(tmpdir(), 'harness-example-'));
const user = path.join(root, 'user');
const bench = path.join(user, 'kv-store', 'index.ts');
const env = { HARNESS_DATA_DIR: path.join(root, 'no-shared-data') };
const FIXTURES = path.join(PROJECT_ROOT, 'test', 'fixtures', 'external-benchmarks');

/** Each test starts one to three CLI processes that play real episodes; generous for loaded CI machines. */
const SLOW = 600_000;

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

beforeAll(() => {
  cpSync(path.join(PROJECT_ROOT, 'examples', 'kv-store'), path.join(user, 'kv-store'), { recursive: true });
  // A user's own package: ES modules, with harness-r1 and zod installed (here: links to this checkout).
  writeFileSync(path.join(user, 'package.json'), JSON.stringify({ name: 'my-benchmarks', private: true, type: 'module' }));
  mkdirSync(path.join(user, 'node_modules'));
  symlinkSync(PROJECT_ROOT, path.join(user, 'node_modules', 'harness-r1'), 'dir');
  symlinkSync(path.join(PROJECT_ROOT, 'node_modules', 'zod'), path.join(user, 'node_modules', 'zod'), 'dir');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A patch an LLM engineer could write from the kv-store packet: no final answer before any call, and a hint after a text-only turn. */
const LLM_PATCH = {
  benchmark: 'kv-store',
  description: 'Refuse a final answer before the store was read, and ask for a tool call after a turn of plain text.',
  actions: [
    {
      type: 'add_code_hook',
      hook: 'on_before_action',
      code: "def hook(ctx, nb):\n    a = ctx.get('action') or {}\n    s = ctx.get('state') or {}\n    if a.get('tool') == 'submit' and int(s.get('calls') or 0) == 0:\n        return {'kind': 'block_and_prompt', 'message': 'Look at the store with get or list_keys before you submit an answer.'}\n    return None\n",
    },
    {
      type: 'add_code_hook',
      hook: 'make_pre_hint',
      code: "def hook(ctx, nb):\n    s = ctx.get('state') or {}\n    if int(s.get('text_only_streak') or 0) >= 1:\n        return {'message': 'Every turn must be a tool call; plain text does nothing.'}\n    return None\n",
    },
  ],
};

describe('the example benchmark, loaded from outside src/ (real CLI, simulated target, real sandbox)', () => {
  it('env check replays every reference solution of the shipped split', async () => {
    const r = await runCli(['env', 'check', bench, '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ tasks: 16, reproduced: 16, failed: [] });
  }, SLOW);

  it('run plays the dev split: the fault draws fail some tasks, a fault-free target solves all', async () => {
    const dir = path.join(root, 'run');
    const r = await runCli(['run', '--bench', bench, '--target', 'sim:kv-store?seed=0', '--run-dir', dir, '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { summary: RunSummary; target: { simulated: boolean } };
    expect(out.target.simulated).toBe(true);
    expect(out.summary.episodes).toBe(16);
    expect(out.summary.successes).toBe(10);
    expect(out.summary.byOutcome).toMatchObject({ success: 10, wrong_answer: 2, round_limit: 4 });
    const manifest = readJson<{ bench: string; split: string; options: { protocol: string } }>(path.join(dir, 'run.json'));
    expect(manifest).toMatchObject({ bench: 'kv-store', split: 'dev', options: { protocol: 'kv-store-fc-v1' } });

    const clean = await runCli(['run', '--bench', bench, '--target', 'sim:kv-store?faults=none', '--run-dir', path.join(root, 'run-clean'), '--json'], env);
    expect(clean.code, clean.stderr).toBe(0);
    expect((JSON.parse(clean.stdout) as { summary: RunSummary }).summary.successes).toBe(16);
  }, SLOW);

  it('improve with the symbolic engineer: its generic part patches the recurring failures, the rerun passes more; packet and report read the run', async () => {
    const dir = path.join(root, 'improve-symbolic');
    const r = await runCli(['improve', '--bench', bench, '--tasks', '0:16', '--batch-size', '16', '--target', 'sim:kv-store?seed=0', '--engineer', 'symbolic', '--run-dir', dir, '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const { summary, report } = JSON.parse(r.stdout) as { summary: ImproveSummary; report: string };
    expect(summary.bench).toBe('kv-store');
    expect(summary.engineer.symbolic).toBe(true);
    expect(summary.batches.map((b) => b.status)).toEqual(['scored']);
    expect(summary.totals).toMatchObject({ baselinePass: 10, patchedPass: 13 });
    const result = readJson<BatchResult>(path.join(dir, 'batches', 'batch_000', 'result.json'));
    expect(result.validPatch).toBe(true);
    expect(existsSync(path.join(dir, 'reruns', result.rerun!.cacheKey, 'episodes.jsonl'))).toBe(true);
    const patch = readJson<{ benchmark: string; description: string; actions: { hook: string }[] }>(path.join(dir, 'batches', 'batch_000', 'patch.json'));
    expect(patch.benchmark).toBe('kv-store');
    expect(patch.description).toMatch(/^Generic harness for recurring failures: .*repeated_call/);
    expect(patch.actions.map((a) => a.hook)).toContain('on_before_action');
    expect(readFileSync(report, 'utf8')).toMatch(/kv-store/);

    const packet = await runCli(['packet', dir, '--batch', 'batch_000', '--bench', bench], env);
    expect(packet.code, packet.stderr).toBe(0);
    expect(packet.stdout).toMatch(/^# Harness-R1 Direct Failure Trace Packet\n/);
    expect(packet.stdout).toContain('- benchmark: kv-store');
    expect(packet.stdout).toContain('ASSISTANT_TOOL: list_keys');
    expect(packet.stdout).not.toMatch(/wrongKeys|storeCorrect|"solution"/);
    expect(packet.stderr).toMatch(/SIMULATED TARGET/);

    const out = path.join(root, 'symbolic-report.html');
    const rewritten = await runCli(['report', dir, '--out', out], env);
    expect(rewritten.code, rewritten.stderr).toBe(0);
    expect(rewritten.stdout).toMatch(/SIMULATED TARGET, SYMBOLIC ENGINEER/);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('kv-store');
    expect(html).toMatch(/SIMULATED TARGET/);
  }, SLOW);

  it('improve with a scripted LLM engineer over a real HTTP server: the prompt is the benchmark\'s, its patch is validated and rerun', async () => {
    const server = await startFakeOpenAIServer(() => ({
      kind: 'text',
      content: `Several agents answer before reading the store or talk without calling tools.\n</think>\n<patch>${JSON.stringify(LLM_PATCH)}</patch>`,
    }));
    try {
      const dir = path.join(root, 'improve-llm');
      const r = await runCli(['improve', '--bench', bench, '--tasks', '0:16', '--batch-size', '16', '--target', 'sim:kv-store?seed=0', '--engineer', `openai:${server.url}#fake-model`, '--run-dir', dir, '--json'], env);
      expect(r.code, r.stderr).toBe(0);
      const { summary } = JSON.parse(r.stdout) as { summary: ImproveSummary };
      expect(summary.engineer.symbolic).toBe(false);
      expect(summary.batches.map((b) => b.status)).toEqual(['scored']);
      expect(summary.totals.baselinePass).toBe(10);
      expect(summary.totals.patchedPass).toBeGreaterThan(10);
      const sent = server.requests.filter((q) => q.path.endsWith('/chat/completions')).map((q) => q.body as { messages: { role: string; content: string }[] });
      expect(sent).toHaveLength(1);
      const [system, prompt] = sent[0]!.messages;
      expect(system!.content).toMatch(/key-value store/);
      expect(prompt!.content).toContain('Patch format (kv-store, code hooks only)');
      expect(prompt!.content).toContain('Observed no-harness rollout evidence:');
      expect(prompt!.content).toContain('- benchmark: kv-store');
      const patched = readFileSync(path.join(dir, 'reruns', readJson<BatchResult>(path.join(dir, 'batches', 'batch_000', 'result.json')).rerun!.cacheKey, 'episodes.jsonl'), 'utf8');
      expect(patched).toContain('Look at the store with get or list_keys before you submit an answer.');
    } finally {
      await server.close();
    }
  }, SLOW);

  it('a config file registers the module by name', async () => {
    const config = path.join(user, 'harness.json');
    writeFileSync(config, JSON.stringify({ benchmarks: { 'kv-store': './kv-store/index.ts' }, bench: 'kv-store', target: 'sim:kv-store?faults=none', family: 'move_prefix' }));
    const r = await runCli(['run', '--config', config, '--run-dir', path.join(root, 'run-config'), '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { summary: RunSummary; tasks: { index: number }[] };
    expect(out.tasks.map((t) => t.index)).toEqual([0, 1]);
    expect(out.summary.successes).toBe(2);
  }, SLOW);

  it.each([
    ['no-default-export.ts', /does not default-export a benchmark definition \(use defineBenchmark\)/],
    ['wrong-shape.ts', /does not default-export a benchmark definition/],
    ['mismatched-names.ts', /Benchmark definition 'kv-renamed' is not valid: patch\.name 'kv-store' differs from name 'kv-renamed'/],
    ['throws-on-load.ts', /Cannot load benchmark module .*throws-on-load\.ts: this benchmark module cannot be loaded/],
  ])('a broken module (%s) is a usage error: exit 2 and a message naming the problem', async (file, message) => {
    const r = await runCli(['run', '--bench', path.join(FIXTURES, file), '--target', 'sim:kv-store'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  }, SLOW);
});
