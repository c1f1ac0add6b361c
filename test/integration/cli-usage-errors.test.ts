import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFakeOpenAIServer, type FakeOpenAIServer } from '../../src/models/fake-openai-server.js';
import { runCli } from './cli-helpers.js';

// Usage mistakes as real CLI processes: integer options refused by name, bad target or engineer SPECs
// refused before a run directory exists, probe's report of a refused port, and packet's wording on a run
// in which nothing was scored.

const root = mkdtempSync(path.join(tmpdir(), 'harness-usage-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs `cases` a few at a time (each is a CLI process). */
async function inChunks<T, R>(cases: readonly T[], size: number, run: (c: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < cases.length; i += size) results.push(...(await Promise.all(cases.slice(i, i + size).map(run))));
  return results;
}

describe('integer options', () => {
  it('demo --seed abc names --seed, not the target SPEC it would have built', async () => {
    const r = await runCli(['demo', '--seed', 'abc', '--run-dir', path.join(root, 'demo-seed')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --seed must be an integer from 0 to 2147483647, got 'abc'\.$/m);
    expect(r.stderr).not.toMatch(/SPEC|--target|sim:/);
    expect(existsSync(path.join(root, 'demo-seed'))).toBe(false);
  }, 60_000);

  // One of each path an integer takes: command schemas, benchmark flags, demo's and probe's own flags.
  const sim = ['--target', 'sim:dbbench'];
  const INTEGER_CASES: [string, string[]][] = [
    ['--goal-seed', ['run', '--bench', 'webshop', '--target', 'sim:webshop', '--goal-seed', '1.5']],
    ['--goal-seed', ['improve', '--bench', 'webshop', '--target', 'sim:webshop', '--goal-seed', 'x']],
    ['--sqlite-workers', ['run', '--bench', 'dbbench', ...sim, '--sqlite-workers', '2.5']],
    ['--max-rounds', ['run', '--bench', 'dbbench', ...sim, '--max-rounds', '1.5']],
    ['--hook-kill-limit', ['run', '--bench', 'dbbench', ...sim, '--hook-kill-limit', '1e2']],
    ['--batches', ['improve', '--bench', 'dbbench', ...sim, '--batches', '1.5']],
    ['--batch-size', ['demo', '--batch-size', '2.0']],
    ['--concurrency', ['demo', '--concurrency', 'four']],
    ['--attempts', ['probe', '--model', 'openai:http://127.0.0.1:8000/v1#m', '--attempts', '1.5']],
    ['--evidence', ['experiment', 'heldout', '--bench', 'dbbench', ...sim, '--evidence', '0.5']],
    ['--repeats', ['experiment', 'ablation', '--bench', 'dbbench', ...sim, '--patch', 'p.json', '--repeats', '2.5']],
    ['--resamples', ['experiment', 'transfer', '--bench', 'dbbench', '--targets', 'sim:dbbench', '--resamples', 'many']],
  ];
  it('every kind of integer option is refused with exit 2, naming the flag and saying an integer is required', async () => {
    const results = await inChunks(INTEGER_CASES, 3, async ([flag, args]) => ({ flag, args, r: await runCli(args) }));
    for (const { flag, args, r } of results) {
      const value = args.at(-1)!;
      expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(new RegExp(`^error: ${flag} must be an integer( from -?\\d+ to \\d+| >= \\d+)?, got '${value.replace('.', '\\.')}'\\.$`, 'm'));
      expect(r.stderr).not.toMatch(/NaN|^\s+at /m);
    }
  }, 600_000);
});

describe('target and engineer SPECs are checked before the run directory is made', () => {
  const bad: [string, (dir: string) => string[], RegExp][] = [
    ['run: unknown sim parameter', (dir) => ['run', '--bench', 'dbbench', '--target', 'sim:dbbench?nosuch=1', '--run-dir', dir], /Unknown parameter 'nosuch' in the sim:dbbench spec/],
    ['improve: malformed target', (dir) => ['improve', '--bench', 'dbbench', '--target', 'openai:foo', '--run-dir', dir], /Invalid --target SPEC 'openai:foo'/],
    ['improve: bad fault', (dir) => ['improve', '--bench', 'alfworld', '--target', 'sim:alfworld?faults=none,backticks:1', '--run-dir', dir], /Bad ALFWorld fault item 'backticks:1'/],
    ['improve: a simulated target as engineer', (dir) => ['improve', '--bench', 'dbbench', '--target', 'sim:dbbench', '--engineer', 'sim:dbbench', '--run-dir', dir], /'sim:dbbench' is a simulated target, not an engineer/],
    ['improve: another benchmark\'s simulated target', (dir) => ['improve', '--bench', 'dbbench', '--target', 'sim:webshop', '--run-dir', dir], /sim:webshop is the simulated target of webshop; --bench dbbench plays with sim:dbbench/],
    ['demo: bad latency', (dir) => ['demo', '--bench', 'alfworld', '--sim-options', 'latency_ms=fast', '--run-dir', dir], /latency_ms must be an integer number of milliseconds \(0\.\.600000\), got 'fast'/],
    ['experiment heldout: malformed engineer', (dir) => ['experiment', 'heldout', '--bench', 'dbbench', '--target', 'sim:dbbench', '--engineer', 'openai:foo', '--out', dir], /Invalid --engineer SPEC 'openai:foo'/],
    ['experiment ablation: bad sim seed', (dir) => ['experiment', 'ablation', '--bench', 'dbbench', '--target', 'sim:dbbench?seed=-1', '--patch', path.join(root, 'empty-patch.json'), '--out', dir], /seed must be an integer >= 0, got '-1'/],
    ['experiment transfer: second target bad', (dir) => ['experiment', 'transfer', '--bench', 'dbbench', '--targets', 'sim:dbbench,sim:dbbench?comply=2', '--out', dir], /comply/],
    ['experiment transfer: malformed engineer', (dir) => ['experiment', 'transfer', '--bench', 'dbbench', '--targets', 'sim:dbbench', '--engineer', 'openai:foo', '--out', dir], /Invalid --engineer SPEC 'openai:foo'/],
    ['experiment main: second engineer bad', (dir) => ['experiment', 'main', '--benches', 'dbbench', '--targets', 'sim:any', '--engineers', 'symbolic,openai:foo', '--out', dir], /Invalid --engineer SPEC 'openai:foo'/],
    ['experiment main: sim:any with another benchmark\'s fault', (dir) => ['experiment', 'main', '--benches', 'dbbench,webshop', '--targets', 'sim:any?faults=none,backticks:1', '--out', dir], /Unknown WebShop fault 'backticks'/],
  ];
  beforeAll(() => writeFileSync(path.join(root, 'empty-patch.json'), JSON.stringify({ hooks: [] })));

  it('each is exit 2 with the problem named, and the directory does not exist afterwards', async () => {
    const results = await inChunks(bad, 3, async ([name, args, message]) => {
      const dir = path.join(root, `bad-spec-${bad.findIndex((b) => b[0] === name)}`);
      return { name, message, dir, r: await runCli(args(dir)) };
    });
    for (const { name, message, dir, r } of results) {
      expect(r.code, `${name}\n${r.stderr}`).toBe(2);
      expect(r.stderr, name).toMatch(message);
      expect(r.stderr).not.toMatch(/^\s+at /m);
      expect(existsSync(dir), `${name}: ${dir}`).toBe(false);
    }
  }, 600_000);
});

describe('probe against a refused port', () => {
  it('prints the cause and the fix first, then the attempts, and makes no further attempt', async () => {
    const port = await closedPort();
    const r = await runCli(['probe', '--model', `openai:http://127.0.0.1:${port}/v1#some-model`, '--attempts', '3']);
    expect(r.code, r.stderr).toBe(1);
    const lines = r.stdout.split('\n');
    const cause = lines.findIndex((l) => l === 'Connection refused (attempt 1):');
    const attempts = lines.indexOf('Attempts:');
    expect(cause, r.stdout).toBe(1);
    expect(lines[cause + 1]).toContain(`Nothing is listening at http://127.0.0.1:${port}/v1.`);
    expect(lines[cause + 1]).toContain('Not retried');
    expect(lines.slice(cause, attempts)).toContain('  - Start the server, or fix the host and port in the base URL.');
    expect(attempts).toBeGreaterThan(cause);
    expect(lines.slice(attempts + 1).filter((l) => /^ {2}#\d/.test(l))).toEqual(['  #1 FAIL  connection refused']);
    expect(lines).toContain('  (attempts 2-3 were not made: the error above is permanent and would repeat)');
    expect(lines.filter((l) => l !== '').at(-1)).toBe('FAIL: 0 of 1 attempt(s) passed. The server must return structured message.tool_calls.');
  }, 60_000);
});

describe('packet on a run in which no task was scored', () => {
  let server: FakeOpenAIServer;
  beforeAll(async () => {
    // The pre-flight probe gets a proper tool call; every benchmark turn an HTTP 400, so every episode is a model_error.
    server = await startFakeOpenAIServer({
      recordRequests: false,
      handler: (request) =>
        JSON.stringify(request.tools ?? []).includes('lookup_weather')
          ? { kind: 'tool_calls', calls: [{ name: 'lookup_weather', arguments: { city: 'Paris' } }] }
          : { kind: 'http_error', status: 400, body: { error: { message: 'refused' } } },
    });
  });
  afterAll(() => server.close());

  it('says nothing was scored, never that every scored task reached the threshold', async () => {
    const dir = path.join(root, 'unscored');
    const run = await runCli(['run', '--bench', 'dbbench', '--tasks', '0:2', '--target', `openai:${server.url}#fake-model`, '--run-dir', dir]);
    expect(run.code, run.stderr).toBe(1);
    const r = await runCli(['packet', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('No scored tasks: every episode of this batch ended in an infrastructure failure');
    expect(r.stdout).not.toMatch(/every scored task reached|No failures/);
  }, 300_000);
});
