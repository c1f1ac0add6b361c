import { readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BenchmarkRegistry } from '../../benchmarks/registry.js';
import { resolveDataDir } from '../../config/data-dir.js';
import { ConfigError } from '../../episode/index.js';
import { PREFILL_THINK } from '../../engineer/engineer-prompt.js';
import { startFakeOpenAIServer } from '../../models/fake-openai-server.js';
import { extractPatchJson } from '../../patch/index.js';
import { buildSplits, HELD_OUT_PARTITIONS } from '../../task-splits/index.js';
import { promptSha256 } from '../../training/rows/rl-row.js';
import type { ExportSftSummary, SftCandidate } from '../../training/sft/export-sft.js';
import type { SftRow } from '../../training/sft/sft-row.js';
import { exportSftCommand } from './export-sft.js';

const work = mkdtempSync(path.join(tmpdir(), 'harness-export-sft-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const ctx = { registry: new BenchmarkRegistry() };
const sink = { write: () => true };
const quiet = { write: () => true } as unknown as NodeJS.WriteStream;
const out = path.join(work, 'sft');
const bench = (dir: string, file: string) => path.join(dir, 'dbbench', file);
const jsonl = <T>(file: string) => readFileSync(file, 'utf8').trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as T);
const flags = { bench: 'dbbench', target: 'sim:dbbench', batches: '1', k: '3', format: 'llamafactory,trl', json: true, hookTimeoutMs: '1000' };
// A generous hook limit: on a loaded machine the 50 ms default turns hooks into timeouts and the reruns into noise.

let summary: ExportSftSummary;
beforeAll(async () => {
  ({ summary } = await exportSftCommand(ctx, { ...flags, out }, sink, quiet));
}, 900_000);

describe('export sft (DBBench sft_train, symbolic teacher, simulated target)', () => {
  it('counts every candidate once, by verdict, and says the numbers come from the symbolic teacher and a simulated target', () => {
    expect(summary.labels.join(' ')).toMatch(/SYMBOLIC teacher/);
    expect(summary.labels.join(' ')).toMatch(/SIMULATED target/);
    expect(summary.batches.total).toBe(1);
    expect(summary.candidates).toBe(summary.batches.packets * 3);
    const candidates = jsonl<SftCandidate>(bench(out, 'candidates.jsonl'));
    expect(candidates).toHaveLength(summary.candidates);
    expect(candidates.filter((c) => c.verdict === 'kept')).toHaveLength(summary.kept);
    for (const [reason, n] of Object.entries(summary.rejected)) expect(candidates.filter((c) => c.verdict === reason), reason).toHaveLength(n);
    expect(summary.kept + Object.values(summary.rejected).reduce((a, b) => a + b, 0)).toBe(summary.candidates);
    expect(summary.kept).toBeGreaterThan(0);
    expect(summary.kept + summary.packetsWithoutRow).toBe(summary.batches.packets);
    // At most one kept per packet, and it has the best delta of the packet's eligible candidates.
    for (const tag of new Set(candidates.map((c) => c.batch_tag))) {
      const mine = candidates.filter((c) => c.batch_tag === tag);
      const kept = mine.filter((c) => c.verdict === 'kept');
      expect(kept.length).toBeLessThanOrEqual(1);
      for (const c of mine.filter((x) => x.verdict === 'not_best')) expect(c.rerun_delta!).toBeLessThanOrEqual(kept[0]!.rerun_delta!);
    }
  });

  it('writes the prompt as export rl builds it and the assistant turn as the prefill template continues it', () => {
    const rows = jsonl<SftRow>(bench(out, 'sft.jsonl'));
    expect(rows).toHaveLength(summary.kept);
    for (const row of rows) {
      expect(row.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
      expect(promptSha256(row.messages.slice(0, 2), PREFILL_THINK)).toBe(row.metadata.prompt_sha256);
      const assistant = row.messages[2].content!;
      expect(assistant.startsWith('<think')).toBe(false);
      expect(assistant).toMatch(/\n<\/think>\n<patch>\n[\s\S]*\n<\/patch>$/);
      expect(extractPatchJson(assistant, 'prefill_think_patch').ok).toBe(true);
      const m = row.metadata;
      expect(m.teacher_symbolic).toBe(true);
      expect(m.target_simulated).toBe(true);
      expect(m.verdict).toBe('kept');
      expect(m.rerun_delta).toBeGreaterThanOrEqual(0);
      expect(m.regressed).toEqual([]);
      expect(m.sample).toBeLessThan(3);
      expect(m.sampling).toEqual({ temperature: 0.7, top_p: 0.95, seed: m.sample });
      expect(m.assistant_chars).toBe(assistant.length);
    }
    const lf = JSON.parse(readFileSync(bench(out, 'sft.llamafactory.json'), 'utf8')) as { messages: unknown; metadata: string }[];
    const trl = jsonl<{ messages: unknown; metadata: string }>(bench(out, 'sft.trl.jsonl'));
    expect(lf).toHaveLength(rows.length);
    rows.forEach((row, i) => {
      for (const record of [lf[i]!, trl[i]!]) {
        expect(Object.keys(record)).toEqual(['messages', 'metadata']);
        expect(record.messages).toEqual(row.messages);
        expect(JSON.parse(record.metadata)).toEqual(row.metadata);
      }
    });
    const info = JSON.parse(readFileSync(path.join(out, 'dataset_info.json'), 'utf8')) as Record<string, { file_name: string; formatting: string; columns: unknown; tags: unknown }>;
    expect(info.harness_r1_sft_dbbench).toEqual({
      file_name: 'dbbench/sft.llamafactory.json', formatting: 'sharegpt', columns: { messages: 'messages' },
      tags: { role_tag: 'role', content_tag: 'content', user_tag: 'user', assistant_tag: 'assistant', system_tag: 'system' },
    });
  });

  it('puts no validation or test identity in any file', () => {
    const manifest = buildSplits(ctx.registry.get('dbbench').paperSplits!, { dataDir: resolveDataDir(undefined) }).manifest;
    const heldOut = HELD_OUT_PARTITIONS.flatMap((p) => manifest.partitions[p].tasks.map((t) => t.id));
    const sftIds = new Set(manifest.partitions.sft_train.tasks.map((t) => t.id));
    for (const name of readdirSync(path.join(out, 'dbbench')).filter((f) => f.startsWith('sft') || f === 'candidates.jsonl')) {
      const text = readFileSync(bench(out, name), 'utf8');
      for (const id of heldOut) expect(text.includes(`"${id}"`), `${name} holds ${id}`).toBe(false);
    }
    for (const row of jsonl<SftRow>(bench(out, 'sft.jsonl'))) for (const id of row.metadata.task_ids) expect(sftIds.has(id)).toBe(true);
  });

  it('resumes: run again, every answer is reused and the files are the same bytes', async () => {
    const before = readFileSync(bench(out, 'sft.llamafactory.json'));
    await exportSftCommand(ctx, { ...flags, out }, sink, quiet);
    expect(readFileSync(bench(out, 'sft.llamafactory.json')).equals(before)).toBe(true);
    expect(jsonl<SftCandidate>(bench(out, 'candidates.jsonl')).every((c) => c.answer_reused)).toBe(true);
  }, 900_000);

  it('refuses a held-out split and an unknown format before playing anything', async () => {
    await expect(exportSftCommand(ctx, { ...flags, split: 'validation', out: path.join(work, 'v') }, sink, quiet)).rejects.toThrow(/held out/);
    await expect(exportSftCommand(ctx, { ...flags, format: 'alpaca', out: path.join(work, 'v') }, sink, quiet)).rejects.toThrow(ConfigError);
  });
});

describe('export sft with an LLM teacher over HTTP', () => {
  it('filters out malformed answers with their reasons and keeps the well-formed one', async () => {
    const [good] = jsonl<SftRow>(bench(out, 'sft.jsonl')).filter((r) => r.metadata.batch_tag === 'dbbench_sft_train_0000');
    expect(good).toBeDefined();
    const valid = good!.messages[2].content!;
    const answers = [
      'The batch keeps committing early.\n</think>\nI would add a guard before commit.',
      'The batch keeps committing early.\n</think>\n<patch>{"benchmark": "dbbench", "actions": [{"type": "add_code_hook",</patch>',
      valid.slice(valid.indexOf('<patch>')),
      valid,
    ];
    const server = await startFakeOpenAIServer({ models: ['teacher'], handler: (_request, { index }) => ({ kind: 'text', content: answers[index % 4]! }) });
    const llmOut = path.join(work, 'llm');
    try {
      const { summary: s } = await exportSftCommand(ctx, { ...flags, out: llmOut, batches: '1', k: '4', teacher: `openai:${server.url}#teacher` }, sink, quiet);
      const chats = server.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.body as { messages: { role: string; content: string }[]; temperature: number; top_p: number; seed: number });
      expect(chats).toHaveLength(4);
      chats.forEach((body, k) => {
        expect(body.messages.slice(0, 2)).toEqual(good!.messages.slice(0, 2));
        expect(body.messages[2]).toEqual({ role: 'assistant', content: '<think>\n' });
        expect([body.temperature, body.top_p, body.seed]).toEqual([0.7, 0.95, k]);
      });
      const verdicts = jsonl<SftCandidate>(bench(llmOut, 'candidates.jsonl')).map((c) => [c.verdict, c.detail?.split(':')[0] ?? null]);
      expect(verdicts[0]).toEqual(['incomplete', 'missing_patch_block']);
      expect(verdicts[1]![0]).toBe('invalid_patch');
      expect(verdicts[2]).toEqual(['incomplete', 'missing_think_block']);
      expect(verdicts[3]![0]).toBe('kept');
      expect(s.kept).toBe(1);
      expect(s.rejected).toMatchObject({ incomplete: 2, invalid_patch: 1 });
      expect(s.teacherSymbolic).toBe(false);
      expect(s.labels.join(' ')).not.toMatch(/SYMBOLIC/);
      const [row] = jsonl<SftRow>(bench(llmOut, 'sft.jsonl'));
      expect(row!.messages[2].content).toBe(valid);
      expect(row!.metadata).toMatchObject({ teacher_symbolic: false, sample: 3, teacher_protocol: 'prefill_think_patch', rerun_delta: good!.metadata.rerun_delta });
    } finally {
      await server.close();
    }
  }, 900_000);
});
