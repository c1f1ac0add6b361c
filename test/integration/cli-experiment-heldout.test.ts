import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { heldoutSummaryMismatches, readHeldoutResults } from '../../src/experiments/heldout/index.js';
import type { HeldoutArtifact } from '../../src/experiments/heldout/heldout-summary.js';
import { startFakeOpenAIServer } from '../../src/models/fake-openai-server.js';
import { PROJECT_ROOT, runCli } from './cli-helpers.js';

const root = mkdtempSync(path.join(tmpdir(), 'harness-heldout-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const dataDir = process.env.HARNESS_DATA_DIR ?? path.join(PROJECT_ROOT, '..', 'shared', 'data');
const shipped = path.join(dataDir, 'patches', 'heldout_generalization');

describe('harness-r1 experiment heldout (real CLI process, simulated target, real sandbox)', () => {
  it('symbolic engineer: per-seed paired statistics, results.json in the original shape, labelled, resumable byte for byte', async () => {
    const out = path.join(root, 'symbolic');
    const args = ['experiment', 'heldout', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:30', '--target', 'sim:dbbench?seed=1', '--evidence', '4', '--seeds', '11,12', '--resamples', '500', '--out', out];
    const r = await runCli([...args, '--json']);
    expect(r.code, r.stderr).toBe(0);
    // The live view (plain lines off a terminal): the baseline's episodes, then each seed's held-out rerun.
    expect(r.stderr).toMatch(/baseline: 30\/30 episodes, successes \d+, elapsed/);
    expect(r.stderr).toMatch(/seed11\S* rerun: \d+\/\d+ episodes, successes \d+/);
    const a = JSON.parse(r.stdout) as HeldoutArtifact & { results: string };
    expect(a.labels).toEqual(['simulated target', 'symbolic engineer']);
    expect(a.seeds.map((s) => s.seed)).toEqual([11, 12]);
    for (const s of a.seeds) {
      expect(s.evidenceTaskIds).toHaveLength(4);
      expect(s.heldOut.tasks + s.evidenceTaskIds.length).toBe(s.fullSplit.tasks);
      expect(s.heldOut.paired.mcnemar).toMatchObject({ b: s.heldOut.rescued, c: s.heldOut.regressed });
      expect(s.heldOut.paired.ci.resamples).toBe(500);
      expect(s.heldOut.paired.delta).toBeCloseTo(s.heldOut.deltaPass / s.heldOut.tasks, 12);
    }
    // The two seeds sample different evidence from the same baseline.
    expect(a.seeds[0]!.evidenceTaskIds).not.toEqual(a.seeds[1]!.evidenceTaskIds);
    const results = readHeldoutResults(a.results);
    expect(heldoutSummaryMismatches(results)).toEqual([]);
    expect(results.target_agent).toMatch(/SIMULATED/);
    expect(Object.keys(results.editors)).toEqual(['symbolic']);
    expect(results.evidence_task_ids['11']!.dbbench).toEqual(a.seeds[0]!.evidenceTaskIds);
    const cell = results.editors.symbolic!.per_seed['11']!.dbbench!;
    expect(cell.held_out.delta_pass).toBe(a.seeds[0]!.valid ? a.seeds[0]!.heldOut.deltaPass : 0);
    if (cell.patch_file) expect(existsSync(path.join(out, cell.patch_file))).toBe(true);

    const text = readFileSync(a.results, 'utf8');
    const again = await runCli(args);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/SIMULATED TARGET · SYMBOLIC ENGINEER/);
    expect(again.stdout).toMatch(/held-out +\d+\/\d+ → \d+\/\d+ .*McNemar p=/);
    expect(again.stderr).not.toMatch(/: engineer/);
    expect(readFileSync(a.results, 'utf8')).toBe(text);

    const other = await runCli([...args.slice(0, -2), '--seeds', '11', '--out', out]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/holds another experiment.*seeds/);
  }, 400_000);

  it('--patch-source replays the shipped patches; a seed without a file is no intervention (Δ 0)', async () => {
    const out = path.join(root, 'replay');
    const r = await runCli(['experiment', 'heldout', '--bench', 'alfworld', '--split', 'dev', '--target', 'sim:alfworld?seed=2', '--evidence', '3', '--seeds', '20260720',
      '--patch-source', path.join(shipped, 'qwen3.5-397b'), '--resamples', '200', '--out', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const a = JSON.parse(r.stdout) as HeldoutArtifact;
    expect(a.labels).toEqual(['simulated target']);
    expect(a.seeds[0]).toMatchObject({ valid: false, status: 'no_patch_proposed', hooks: [] });
    expect(a.seeds[0]!.heldOut.deltaPass).toBe(0);
    expect(a.pooled.headline).toMatch(/^qwen3\.5-397b \(replayed patches\): \+0\.0 pp over \d+ tasks; valid 0\/1$/);
    const results = readHeldoutResults(path.join(out, 'results.json'));
    expect(results.editors['qwen3.5-397b']!.per_seed['20260720']!.alfworld).toMatchObject({ valid: false, patch_file: null, validation_error: 'no_patch_proposed' });
  }, 400_000);

  it('an LLM engineer over the real-HTTP fake server writes the seed\'s patch', async () => {
    const good = readFileSync(path.join(shipped, 'harness-r1', 'seed20260720', 'dbbench.json'), 'utf8');
    const server = await startFakeOpenAIServer(() => ({ kind: 'text', content: `Recurring quoting failures.\n</think>\n<patch>${good}</patch>` }));
    try {
      const out = path.join(root, 'llm');
      const r = await runCli(['experiment', 'heldout', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:16', '--target', 'sim:dbbench?seed=3', '--evidence', '3', '--seeds', '5',
        '--engineer', `openai:${server.url}#fake-engineer`, '--resamples', '200', '--out', out, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const a = JSON.parse(r.stdout) as HeldoutArtifact;
      expect(a.labels).toEqual(['simulated target']);
      expect(a.engineer.symbolic).toBe(false);
      expect(a.seeds[0]).toMatchObject({ valid: true, hooks: ['on_init', 'on_post_step', 'make_pre_hint', 'on_before_action'] });
      const sent = server.requests.filter((q) => q.path.endsWith('/chat/completions'));
      expect(sent).toHaveLength(1);
      expect(JSON.stringify(sent[0]!.body)).toMatch(/Observed no-harness rollout evidence:/);
      const results = readHeldoutResults(path.join(out, 'results.json'));
      expect(Object.keys(results.editors)).toEqual(['fake-engineer']);
    } finally {
      await server.close();
    }
  }, 400_000);

  it.each([
    [['--engineer', 'symbolic', '--patch-source', shipped], /--engineer and --patch-source exclude each other/],
    [['--seeds', '1,1'], /--seeds must be distinct non-negative integers/],
    [['--evidence', '500', '--tasks', '0:4'], /fewer than --evidence 500/],
  ])('exits 2 for %j', async (extra, message) => {
    const r = await runCli(['experiment', 'heldout', '--bench', 'dbbench', '--split', 'dev', '--target', 'sim:dbbench', '--out', path.join(root, `bad-${extra[0]}`), ...extra]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  }, 120_000);
});
