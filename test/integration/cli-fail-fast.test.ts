import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFakeOpenAIServer, type FakeChatHandler, type FakeOpenAIServer } from '../../src/models/fake-openai-server.js';
import { runCli } from './cli-helpers.js';

// Dead or wrong servers stop a command before it plays anything, and a run that measured nothing says so
// with a non-zero exit: real CLI processes, a real local HTTP server.

const root = mkdtempSync(path.join(os.tmpdir(), 'harness-fail-fast-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Answers the pre-flight probe with a proper tool call, and every benchmark turn with HTTP 400. */
const probeOnly: FakeChatHandler = (request) =>
  JSON.stringify(request.tools ?? []).includes('lookup_weather')
    ? { kind: 'tool_calls', calls: [{ name: 'lookup_weather', arguments: { city: 'Paris' } }] }
    : { kind: 'http_error', status: 400, body: { error: { message: 'this server refuses the request' } } };

describe('a target or engineer where nothing listens', () => {
  it('run stops at the pre-flight check with the diagnosis (exit 1), plays nothing and leaves no directory', async () => {
    const port = await closedPort();
    const dir = path.join(root, 'dead-target');
    const started = Date.now();
    const r = await runCli(['run', '--bench', 'dbbench', '--tasks', '0:3', '--target', `openai:http://127.0.0.1:${port}/v1#m`, '--run-dir', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/pre-flight check of the target .* failed, nothing was played: connection refused/);
    expect(r.stderr).toContain('Not retried');
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(dir)).toBe(false);
    // One refused connection, not five retries of every episode (backoff alone was 15 s per episode).
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 120_000);

  it('improve stops when the engineer server cannot be reached', async () => {
    const port = await closedPort();
    const r = await runCli(['improve', '--bench', 'dbbench', '--tasks', '0:2', '--target', 'sim:dbbench', '--engineer', `openai:http://127.0.0.1:${port}/v1#m`, '--run-dir', path.join(root, 'dead-engineer')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/pre-flight check of the engineer .* failed, nothing was played: Cannot connect .* connection refused/);
  }, 300_000);
});

describe('a target whose every episode fails for infrastructure reasons', () => {
  let server: FakeOpenAIServer;
  beforeAll(async () => {
    server = await startFakeOpenAIServer({ handler: probeOnly, recordRequests: false });
  });
  afterAll(() => server.close());

  it('run exits 1 and prints the cause', async () => {
    const r = await runCli(['run', '--bench', 'dbbench', '--tasks', '0:2', '--target', `openai:${server.url}#fake-model`, '--run-dir', path.join(root, 'run-infra')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/every episode \(2\) ended in an infrastructure failure \(model_error 2\); nothing was measured/);
    expect(r.stderr).toMatch(/cause: .*HTTP 400.*this server refuses the request/);
  }, 300_000);

  it('improve exits 1 and never calls the batch no_failures', async () => {
    const dir = path.join(root, 'improve-infra');
    const r = await runCli(['improve', '--bench', 'dbbench', '--tasks', '0:2', '--batch-size', '2', '--target', `openai:${server.url}#fake-model`, '--run-dir', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/baseline: every episode \(2\) ended in an infrastructure failure/);
    const summary = JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8')) as { batches: { status: string }[] };
    expect(summary.batches.map((b) => b.status)).toEqual(['no_scored_baseline']);
  }, 300_000);
});
