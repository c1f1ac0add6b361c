import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import type { TransferArtifact } from '../../src/experiments/transfer/transfer-summary.js';
import { startFakeOpenAIServer } from '../../src/models/fake-openai-server.js';
import { PROJECT_ROOT, runCli } from './cli-helpers.js';

const root = mkdtempSync(path.join(tmpdir(), 'harness-transfer-llm-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const dataDir = process.env.HARNESS_DATA_DIR ?? path.join(PROJECT_ROOT, '..', 'shared', 'data');
const shipped = path.join(dataDir, 'patches', 'heldout_generalization', 'harness-r1', 'seed20260720', 'dbbench.json');

interface BatchResult { status: string; validPatch: boolean; engineer?: { label?: string } }

describe('harness-r1 experiment transfer with an LLM engineer (real CLI process, fake OpenAI server over HTTP, simulated targets)', () => {
  it('asks the engineer once per failing batch of each target, every answer installed as a valid patch, its cost counted; a resume asks nothing', async () => {
    const patch = readFileSync(shipped, 'utf8');
    const server = await startFakeOpenAIServer(() => ({ kind: 'text', content: `Both batches fail the same way.\n</think>\n<patch>${patch}</patch>`, usage: { promptTokens: 700, completionTokens: 90 } }));
    try {
      const out = path.join(root, 'dbbench');
      const args = ['experiment', 'transfer', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:6', '--batch-size', '3', '--targets', 'sim:dbbench?seed=1,sim:dbbench?seed=2', '--engineer', `openai:${server.url}#fake-engineer`, '--resamples', '200', '--out', out];
      const r = await runCli([...args, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const a = JSON.parse(r.stdout) as TransferArtifact;
      // Simulated targets, and no symbolic label: the patches came from the LLM engineer.
      expect(a.labels).toEqual(['simulated target']);
      expect(a.engineer.symbolic).toBe(false);
      let failing = 0;
      for (const cell of a.cells) {
        const batches = path.join(out, cell.dir, 'batches');
        for (const tag of readdirSync(batches)) {
          const result = JSON.parse(readFileSync(path.join(batches, tag, 'result.json'), 'utf8')) as BatchResult;
          if (result.status === 'no_failures') continue;
          failing++;
          expect(result.validPatch, `${cell.dir}/${tag}`).toBe(true);
        }
      }
      const asked = server.requests.filter((q) => q.path.endsWith('/chat/completions')).length;
      expect(failing).toBeGreaterThan(0);
      expect(asked).toBe(failing);
      expect(a.cost.engineer).toMatchObject({ modelCalls: asked, promptTokens: 700 * asked, completionTokens: 90 * asked });

      // Resumed: every batch is done, so the engineer server is not asked again and the artifact is the same.
      const again = await runCli([...args, '--json']);
      expect(again.code, again.stderr).toBe(0);
      expect(server.requests.filter((q) => q.path.endsWith('/chat/completions')).length).toBe(asked);
      const { runDir: _a, summary: _b, ...first } = a as TransferArtifact & { runDir?: string; summary?: string };
      const { runDir: _c, summary: _d, ...second } = JSON.parse(again.stdout) as TransferArtifact & { runDir?: string; summary?: string };
      expect(second).toEqual(first);
    } finally {
      await server.close();
    }
  }, 600_000);
});
