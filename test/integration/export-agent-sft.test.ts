import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadRunArtifacts } from '../../src/run-dir/read-run.js';
import { sharegptProblem, type SharegptTurn } from '../../src/training/agent-sft/chat-formats.js';
import type { AgentSftSummary } from '../../src/training/agent-sft/export-agent-sft.js';
import { runCli } from './cli-helpers.js';

const root = mkdtempSync(path.join(tmpdir(), 'harness-agent-sft-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const improveDir = path.join(root, 'improve');

const readJsonl = (file: string): Record<string, unknown>[] => readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);

async function exportSft(out: string, ...args: string[]): Promise<AgentSftSummary> {
  const r = await runCli(['export', 'agent-sft', '--out', out, '--json', ...args]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as AgentSftSummary;
}

beforeAll(async () => {
  const r = await runCli(['improve', '--bench', 'dbbench', '--tasks', '0:10', '--target', 'sim:dbbench?seed=1', '--engineer', 'symbolic', '--run-dir', improveDir, '--json']);
  expect(r.code).toBe(0);
}, 600_000);

describe('harness-r1 export agent-sft (improve run of a simulated target)', () => {
  it('keeps one successful episode per task from the baseline and the reruns, each row saying which kind and where from', async () => {
    const out = path.join(root, 'both');
    // The baseline store is given twice (inside the improve run and by itself): its episodes are duplicates.
    const summary = await exportSft(out, '--from', improveDir, path.join(improveDir, 'baseline'), '--episodes', 'both');
    const run = loadRunArtifacts(improveDir);
    if (run.kind !== 'improve') throw new Error('expected an improve run');
    const reruns = run.batches.flatMap((b) => b.rerun?.records ?? []);
    const ok = (r: { reward: number }) => r.reward >= 1;
    const baselineWins = new Set(run.baseline.records.filter(ok).map((r) => r.task.index));
    const rerunWins = new Set(reruns.filter(ok).map((r) => r.task.index));
    const expected = new Set([...baselineWins, ...rerunWins]);

    const rows = readJsonl(path.join(out, 'agent_sft.jsonl'));
    const meta = rows.map((r) => r.metadata as Record<string, unknown>);
    expect(meta.map((m) => m.task_index)).toEqual([...expected].sort((a, b) => a - b));
    const c = summary.byBenchmark.dbbench!;
    expect(c.read).toBe(2 * run.baseline.records.length + reruns.length);
    expect(c.candidates).toBe(2 * baselineWins.size + rerunWins.size);
    expect(c.duplicatesDropped).toBe(c.candidates - expected.size);
    expect(c.kept).toBe(expected.size);
    expect(c.keptByKind.harnessed).toBeGreaterThan(0);
    expect(c.keptByKind.no_intervention).toBeGreaterThan(0);
    for (const m of meta) {
      expect(m.reward).toBe(1);
      expect(m.target_simulated).toBe(true);
      if (m.kind === 'harnessed') {
        expect(m.source_part).toMatch(/^reruns\//);
        expect(m.patch_sha256).toMatch(/^[0-9a-f]{64}$/);
        expect(m.batch_tag).toBe('batch_000');
      } else {
        expect(m.kind).toBe('no_intervention');
        expect(['baseline', '.']).toContain(m.source_part);
        expect(m.patch_sha256).toBeNull();
      }
    }

    // OpenAI tool-calling rows: the benchmark's tools, every called tool among them, ending on the agent's turn.
    for (const row of rows) {
      const tools = (row.tools as { type: string; function: { name: string } }[]).map((t) => t.function.name);
      expect(tools).toEqual(['execute_sql', 'commit_final_answer']);
      const messages = row.messages as { role: string; tool_calls?: { type: string; function: { name: string; arguments: string } }[] }[];
      expect(messages[0]!.role).toBe('system');
      expect(messages.at(-1)!.role).toBe('assistant');
      const called = messages.flatMap((m) => m.tool_calls ?? []);
      expect(called.length).toBeGreaterThan(0);
      for (const tc of called) {
        expect(tc.type).toBe('function');
        expect(tools).toContain(tc.function.name);
        expect(() => JSON.parse(tc.function.arguments) as unknown).not.toThrow();
      }
    }

    // LLaMA-Factory sharegpt rows: the same demonstrations, readable by its alternation rule, tools as a JSON string.
    const sharegpt = readJsonl(path.join(out, 'agent_sft_sharegpt.jsonl'));
    expect(sharegpt).toHaveLength(rows.length);
    for (const row of sharegpt) {
      expect(sharegptProblem(row.messages as SharegptTurn[])).toBeNull();
      expect(JSON.parse(row.tools as string)).toHaveLength(2);
    }
    const info = JSON.parse(readFileSync(path.join(out, 'dataset_info.json'), 'utf8')) as Record<string, { file_name: string; formatting: string; columns: Record<string, string> }>;
    expect(info.harness_r1_agent_sft).toMatchObject({ file_name: 'agent_sft_sharegpt.jsonl', formatting: 'sharegpt', columns: { messages: 'messages', tools: 'tools' } });
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8')) as AgentSftSummary;
    expect(manifest.totals.kept).toBe(expected.size);

    // Same sources and settings, same bytes.
    const again = path.join(root, 'both-again');
    await exportSft(again, '--from', improveDir, path.join(improveDir, 'baseline'), '--episodes', 'both');
    for (const f of ['agent_sft.jsonl', 'agent_sft_sharegpt.jsonl', 'manifest.json']) expect(readFileSync(path.join(again, f))).toEqual(readFileSync(path.join(out, f)));
  }, 600_000);

  it('takes its settings from --config, a flag winning over the file', async () => {
    const config = path.join(root, 'agent-sft.json');
    writeFileSync(config, JSON.stringify({ from: [improveDir], episodes: 'harnessed' }));
    const fromFile = await exportSft(path.join(root, 'harnessed'), '--config', config);
    expect(fromFile.episodes).toBe('harnessed');
    expect(fromFile.totals.noIntervention).toBe(0);
    expect(fromFile.totals.harnessed).toBeGreaterThan(0);
    const flagWins = await exportSft(path.join(root, 'baseline'), '--config', config, '--episodes', 'baseline');
    expect(flagWins.episodes).toBe('baseline');
    expect(flagWins.totals.harnessed).toBe(0);
    expect(flagWins.totals.noIntervention).toBeGreaterThan(0);
    const bad = await runCli(['export', 'agent-sft', '--config', config, '--out', path.join(root, 'x'), '--episodes', 'some']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Unknown --episodes 'some'/);
  }, 600_000);
});
