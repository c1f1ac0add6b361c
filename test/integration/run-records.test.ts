import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../src/config/data-dir.js';
import { loadDbBenchSplit } from '../../src/environments/dbbench/load-tasks.js';
import { startFakeOpenAIServer } from '../../src/models/fake-openai-server.js';
import { createDbBenchSimHandler, toSimHttpReply } from '../../src/benchmarks/dbbench/simulation/wire-handler.js';
import { runCli } from './cli-helpers.js';

const root = mkdtempSync(path.join(tmpdir(), 'harness-records-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface StoredRecord {
  schemaVersion: number;
  task: { index: number };
  attempt: number;
  outcome: string;
  reward: number;
  detail: Record<string, unknown>;
  messages: unknown[];
}

const episodes = (dir: string): StoredRecord[] =>
  readFileSync(path.join(dir, 'episodes.jsonl'), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as StoredRecord);

describe('run records: canonical order, attempt numbers, size cap (real CLI)', () => {
  it('writes byte-identical episodes.jsonl for the same seed at concurrency 1 and 8', async () => {
    const args = ['run', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:24', '--target', 'sim:dbbench?seed=11'];
    const one = path.join(root, 'c1');
    const eight = path.join(root, 'c8');
    const a = await runCli([...args, '--concurrency', '1', '--run-dir', one]);
    expect(a.code, a.stderr).toBe(0);
    const b = await runCli([...args, '--concurrency', '8', '--run-dir', eight]);
    expect(b.code, b.stderr).toBe(0);
    const bytes = readFileSync(path.join(eight, 'episodes.jsonl'));
    expect(bytes.equals(readFileSync(path.join(one, 'episodes.jsonl')))).toBe(true);
    expect(episodes(eight).map((r) => r.task.index)).toEqual([...Array(24).keys()]);
    expect(episodes(eight).every((r) => r.schemaVersion === 2 && r.attempt === 1)).toBe(true);
  }, 180_000);

  it('numbers the attempts of --retry-infra replays, keeps them in task order, and counts the last', async () => {
    const dataDir = resolveDataDir();
    const dev = loadDbBenchSplit(dataDir, 'dev');
    const sim = createDbBenchSimHandler({ dataDir, seed: 3 });
    // The model server is down for some tasks: 1 and 4 on the first pass, 4 again on the second.
    let failing = new Set([1, 4]);
    const questionOf = (request: { messages: unknown[] }) => JSON.stringify(request.messages);
    const server = await startFakeOpenAIServer({
      models: ['sim-dbbench'],
      handler: (request) => {
        const text = questionOf(request);
        if ([...failing].some((i) => text.includes(JSON.stringify(dev[i]!.description).slice(1, -1)))) {
          return { kind: 'http_error', status: 400, body: { error: { message: 'the model is not loaded', type: 'invalid_request_error' } } };
        }
        const reply = toSimHttpReply(sim(request));
        return { kind: 'raw', status: reply.status, body: reply.body };
      },
    });
    try {
      const dir = path.join(root, 'retry');
      const args = ['run', '--bench', 'dbbench', '--tasks', '0:8', '--target', `openai:${server.url}#sim-dbbench?attempts=1`, '--concurrency', '4', '--run-dir', dir];
      expect((await runCli(args)).code).toBe(0);
      expect(episodes(dir).filter((r) => r.outcome === 'model_error').map((r) => r.task.index)).toEqual([1, 4]);
      failing = new Set([4]);
      expect((await runCli([...args, '--resume', '--retry-infra'])).code).toBe(0);
      failing = new Set();
      const third = await runCli([...args, '--resume', '--retry-infra', '--json']);
      expect(third.code, third.stderr).toBe(0);

      const records = episodes(dir);
      expect(records.map((r) => [r.task.index, r.attempt, r.outcome === 'model_error'])).toEqual([
        [0, 1, false],
        [1, 1, true],
        [1, 2, false],
        [2, 1, false],
        [3, 1, false],
        [4, 1, true],
        [4, 2, true],
        [4, 3, false],
        [5, 1, false],
        [6, 1, false],
        [7, 1, false],
      ]);
      // The summary counts each task once: the record of its last attempt.
      const out = JSON.parse(third.stdout) as { summary: { episodes: number }; tasks: { index: number; outcome: string; attempt: number }[] };
      expect(out.summary.episodes).toBe(8);
      expect(out.tasks.find((t) => t.index === 4)).toMatchObject({ attempt: 3 });
      expect(out.tasks.every((t) => t.outcome !== 'model_error')).toBe(true);
    } finally {
      await server.close();
    }
  }, 180_000);

  it('replaces a record over the size cap with a small model_error and plays on', async () => {
    const script = path.join(root, 'huge.json');
    const commit = { name: 'commit_final_answer', arguments: { answers: ['1'] } };
    writeFileSync(script, JSON.stringify({
      schemaVersion: 1,
      turns: [{ content: 'x'.repeat(300_000), toolCalls: [commit] }, { content: 'done', toolCalls: [commit] }],
    }));
    const dir = path.join(root, 'cap');
    const r = await runCli(['run', '--bench', 'dbbench', '--tasks', '2:4', '--target', `scripted:${script}`, '--run-dir', dir, '--max-record-bytes', '100000', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const [big, small] = episodes(dir);
    expect(big).toMatchObject({ task: { index: 2 }, attempt: 1, outcome: 'model_error', reward: 0, messages: [] });
    expect(big!.detail.error).toMatch(/episode record not stored: the record is over the 100000-byte cap/);
    expect(big!.detail.recordCap).toMatchObject({ capBytes: 100000, originalOutcome: expect.any(String) });
    expect(JSON.stringify(big).length).toBeLessThan(5000);
    expect(small).toMatchObject({ task: { index: 3 }, attempt: 1 });
    expect(small!.outcome).not.toBe('model_error');
  }, 120_000);

  it('refuses a cap that is not a positive integer', async () => {
    const r = await runCli(['run', '--bench', 'dbbench', '--tasks', '0:1', '--target', 'sim:dbbench', '--run-dir', path.join(root, 'badcap'), '--max-record-bytes', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--max-record-bytes must be an integer from 1 to \d+, got '0'/);
  });
});
