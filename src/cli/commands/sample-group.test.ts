import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BenchmarkRegistry } from '../../benchmarks/registry.js';
import { createSymbolicEngineer } from '../../engineer/symbolic/index.js';
import { startFakeOpenAIServer } from '../../models/fake-openai-server.js';
import { RunStore } from '../../store/run-store.js';
import { engineerInputOf, readRows } from '../../training/rows/export-rl.js';
import { RowContextMismatch } from '../../training/rows/row-context.js';
import { exportRlCommand } from './export-rl.js';
import { sampleGroupCommand } from './sample-group.js';

const work = mkdtempSync(path.join(tmpdir(), 'harness-sample-group-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const ctx = { registry: new BenchmarkRegistry() };
const sink = { write: () => true };
const out = path.join(work, 'rl');
const rowSpec = () => `${path.join(out, 'dbbench', 'rows.jsonl')}:1`;

beforeAll(async () => {
  await exportRlCommand(ctx, { bench: 'dbbench', target: 'sim:dbbench', out, json: true }, sink);
}, 600_000);

describe('sample-group (DBBench row, simulated target)', () => {
  it('samples 8 different symbolic answers at temperature 0.7 and gives their GRPO statistics', async () => {
    const { group } = await sampleGroupCommand(ctx, { row: rowSpec(), k: '8', json: true, out: path.join(work, 'g1') }, sink);
    expect(group.k).toBe(8);
    expect(group.engineerSymbolic).toBe(true);
    expect(group.targetSimulated).toBe(true);
    expect(group.distinctPatches).toBeGreaterThan(1);
    expect(Object.values(group.statuses).reduce((a, b) => a + (b ?? 0), 0)).toBe(8);
    const mean = group.rewards.reduce((a, b) => a + b, 0) / 8;
    expect(group.mean).toBeCloseTo(mean, 12);
    if (!group.zeroVariance) expect(group.advantages.reduce((a, b) => a + b, 0)).toBeCloseTo(0, 6);
    // A patch seen again reuses its first rerun.
    const seen = new Map<string, string>();
    for (const s of group.samples) {
      if (!s.patchSha256 || !s.rerun) continue;
      if (seen.has(s.patchSha256)) expect(s.rerun).toEqual({ cacheKey: seen.get(s.patchSha256), cacheHit: true });
      else seen.set(s.patchSha256, s.rerun.cacheKey);
    }
  }, 900_000);

  it('stays deterministic at temperature 0: one patch, rerun once, a zero-variance group', async () => {
    const { group } = await sampleGroupCommand(ctx, { row: rowSpec(), k: '3', temperature: '0', json: true, out: path.join(work, 'g0') }, sink);
    expect(group.distinctPatches).toBe(1);
    expect(group.zeroVariance).toBe(true);
    expect(group.advantages).toEqual([0, 0, 0]);
    expect(group.samples.slice(1).every((s) => s.rerun?.cacheHit === true)).toBe(true);
  }, 900_000);

  it('asks an LLM engineer over HTTP with the row\'s exact prompt; a malformed answer scores 0 as invalid', async () => {
    const [row] = readRows(path.join(out, 'dbbench', 'rows.jsonl'));
    const store = RunStore.open(path.join(out, row!.metadata.baseline_run));
    const records = new Map(store.records().map((r) => [r.task.index, r]));
    store.close();
    const input = engineerInputOf(ctx.registry.get('dbbench'), row!.metadata.batch_tag, 'dev', row!.metadata.task_indices, records, 1);
    const symbolic = await createSymbolicEngineer().propose(input);
    const patch = symbolic.status === 'ok' && symbolic.proposal.kind === 'patch' ? symbolic.proposal.patch : null;
    const server = await startFakeOpenAIServer({
      models: ['engineer'],
      handler: (_request, { index }) =>
        index % 2 === 0
          ? { kind: 'text', content: 'I would add a guard but I forgot the format.' }
          : { kind: 'text', content: `- failures recur\n</think>\n<patch>${JSON.stringify(patch)}</patch>` },
    });
    try {
      const { group } = await sampleGroupCommand(ctx, { row: rowSpec(), engineer: `openai:${server.url}#engineer`, k: '4', json: true, out: path.join(work, 'gl') }, sink);
      const chats = server.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.body as { messages: { role: string; content: string }[]; temperature: number; top_p: number; seed: number });
      expect(chats).toHaveLength(4);
      for (const [k, body] of chats.entries()) {
        expect(body.messages.slice(0, 2)).toEqual(row!.prompt);
        expect(body.messages[2]).toEqual({ role: 'assistant', content: '<think>\n' });
        expect(body.temperature).toBe(0.7);
        expect(body.top_p).toBe(0.95);
        expect(body.seed).toBe(k);
      }
      expect(group.engineerSymbolic).toBe(false);
      expect(group.validRate).toBe(0.5);
      for (const s of group.samples.filter((x) => x.sample % 2 === 0)) {
        expect(s.validPatch).toBe(false);
        expect(s.reward).toBe(0);
        expect(s.status).toMatch(/invalid/);
      }
      expect(group.samples.filter((x) => x.sample % 2 === 1).every((s) => s.validPatch)).toBe(true);
    } finally {
      await server.close();
    }
  }, 900_000);

  it('refuses the row for another target', async () => {
    await expect(sampleGroupCommand(ctx, { row: rowSpec(), target: 'sim:dbbench?seed=3', json: true }, sink)).rejects.toThrow(RowContextMismatch);
    await expect(sampleGroupCommand(ctx, { row: `${path.join(out, 'dbbench', 'rows.jsonl')}:99` }, sink)).rejects.toThrow(/line 99 is not one of them/);
  });
});
