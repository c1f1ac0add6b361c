import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFakeOpenAIServer, type FakeChatHandler, type FakeOpenAIServer } from '../../src/models/fake-openai-server.js';
import { runCli } from './cli-helpers.js';

// The silent-zero alarm and the response caps through the real CLI process, against a real local server.
const root = mkdtempSync(path.join(tmpdir(), 'harness-model-health-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface ModelTurnsJson {
  turns: number;
  textToolCalls: number;
  emptyTurns: number;
  badToolArguments: number;
  limits: Record<string, number>;
  warnings: { kind: string; message: string; fixes: string[] }[];
}

/** A server without its tool-call parser: every call comes back as `<tool_call>` text in `content`. */
const textToolCalls: FakeChatHandler = () => ({ kind: 'tool_calls_as_text', calls: [{ name: 'execute_sql', arguments: { query: 'SELECT 1' } }] });

describe('a server that writes tool calls as text', () => {
  let server: FakeOpenAIServer;
  beforeAll(async () => {
    server = await startFakeOpenAIServer({ handler: textToolCalls, recordRequests: false });
  });
  afterAll(() => server.close());
  const target = () => `openai:${server.url}#fake-model`;

  it('run: the summary warns and names the tool-call parser', async () => {
    const r = await runCli(['run', '--bench', 'dbbench', '--tasks', '0:2', '--target', target(), '--run-dir', path.join(root, 'run-text')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('model turns: 40 (tool calls as text 40, empty 0, unparseable tool arguments 0; caps hit: none)');
    expect(r.stdout).toContain('WARNING: 40 of 40 (100.0%) model turns came back with the tool call written as text in message.content');
    expect(r.stdout).toContain('--enable-auto-tool-choice --tool-call-parser');
    expect(r.stdout).toContain('harness-r1 probe --model');
  }, 120_000);

  it('run --json carries the counts and the warning', async () => {
    const dir = path.join(root, 'run-json');
    const r = await runCli(['run', '--bench', 'dbbench', '--tasks', '0:2', '--target', target(), '--run-dir', dir, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { modelTurns: ModelTurnsJson; tasks: { outcome: string }[] };
    expect(out.tasks.map((t) => t.outcome)).toEqual(['round_limit', 'round_limit']);
    expect(out.modelTurns).toMatchObject({ turns: 40, textToolCalls: 40, emptyTurns: 0, badToolArguments: 0 });
    expect(out.modelTurns.warnings.map((w) => w.kind)).toEqual(['tool_calls_as_text']);

    const report = await runCli(['report', dir, '--out', path.join(root, 'run-json.html')]);
    expect(report.code, report.stderr).toBe(0);
    const page = readFileSync(path.join(root, 'run-json.html'), 'utf8');
    expect(page).toContain('data-model-turns="tool_calls_as_text"');
    expect(page).toMatch(/<span data-count="text-tool-calls">40<\/span>/);
  }, 120_000);

  it('improve: the summary, --json and the report carry the alarm', async () => {
    const dir = path.join(root, 'improve-text');
    const r = await runCli(['improve', '--bench', 'dbbench', '--tasks', '0:2', '--batch-size', '2', '--target', target(), '--run-dir', dir, '--concurrency', '2']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/WARNING: \d+ of \d+ \(100\.0%\) model turns came back with the tool call written as text/);
    expect(readFileSync(path.join(dir, 'report.html'), 'utf8')).toContain('data-model-turns="tool_calls_as_text"');
    // The same command again resumes from the stored artifacts and prints the JSON form.
    const again = await runCli(['improve', '--bench', 'dbbench', '--tasks', '0:2', '--batch-size', '2', '--target', target(), '--run-dir', dir, '--json']);
    expect(again.code, again.stderr).toBe(0);
    const out = JSON.parse(again.stdout) as { modelTurns: ModelTurnsJson };
    expect(out.modelTurns.textToolCalls).toBeGreaterThanOrEqual(40);
    expect(out.modelTurns.textToolCalls).toBe(out.modelTurns.turns);
    expect(out.modelTurns.warnings[0]?.kind).toBe('tool_calls_as_text');
  }, 180_000);
});

describe('a server that sends a 100 MB answer once', () => {
  let server: FakeOpenAIServer;
  beforeAll(async () => {
    let benchmarkTurns = 0;
    const head = '{"id":"c","object":"chat.completion","created":0,"model":"fake-model","choices":[{"index":0,"message":{"role":"assistant","content":"';
    server = await startFakeOpenAIServer({
      recordRequests: false,
      // The first benchmark turn is huge (the pre-flight probe, which offers lookup_weather, is not counted).
      handler: (request) =>
        !JSON.stringify(request.tools ?? []).includes('lookup_weather') && benchmarkTurns++ === 0
          ? { kind: 'stream', head, chunk: 'x'.repeat(64 * 1024), repeat: 1600, tail: '"}}]}', declareLength: true }
          : { kind: 'tool_calls', calls: [{ name: 'commit_final_answer', arguments: { answers: ['1'] } }] },
    });
  });
  afterAll(() => server.close());

  it('costs that episode a model_error naming the cap; the run goes on and its records stay small', async () => {
    const dir = path.join(root, 'run-huge');
    const r = await runCli(['run', '--bench', 'dbbench', '--tasks', '0:2', '--target', `openai:${server.url}#fake-model`, '--run-dir', dir, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { modelTurns: ModelTurnsJson; tasks: { outcome: string }[]; summary: { infraFailures: number } };
    expect(out.tasks.map((t) => t.outcome)).toEqual(['model_error', 'wrong_answer']);
    expect(out.summary.infraFailures).toBe(1);
    expect(out.modelTurns.limits.max_body_bytes).toBe(1);
    expect(out.modelTurns.warnings.map((w) => w.kind)).toEqual(['response_limits']);
    const lines = readFileSync(path.join(dir, 'episodes.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    const first = JSON.parse(lines[0]!) as { detail: { error: string; modelLimits: unknown[] } };
    expect(first.detail.error).toContain('larger than max_body_bytes=16777216');
    expect(first.detail.modelLimits).toEqual([{ round: 1, limit: 'max_body_bytes', cap: 16_777_216, actual: expect.any(Number) as number }]);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(64 * 1024);
  }, 120_000);
});

describe('a healthy simulated target', () => {
  it('prints no model-turn line and no warning', async () => {
    const r = await runCli(['run', '--bench', 'dbbench', '--tasks', '0:4', '--target', 'sim:dbbench?seed=2', '--run-dir', path.join(root, 'run-sim')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('model turns:');
    expect(r.stdout).not.toContain('WARNING');
  }, 120_000);
});
