import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { CLI, PROJECT_ROOT, runCli } from './cli-helpers.js';

// What a new user meets first, as real CLI processes: colour on a terminal and never with NO_COLOR, demo's
// progress in a pipe, a dead server named at once by probe, numbers refused with the flag and the value
// given, and the install scripts npm must be allowed to run.

const root = mkdtempSync(path.join(tmpdir(), 'harness-user-path-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SGR = new RegExp(`${String.fromCharCode(27)}\\[[\\d;]*m`);

/** Runs the CLI on a pseudo-terminal (util-linux `script`), so it sees a TTY on stdout and stderr. */
function runOnTerminal(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const quoted = [process.execPath, CLI, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const child = spawn('script', ['-qec', quoted, '/dev/null'], { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

describe('colour on a terminal', () => {
  it('run colours its table on a terminal, and prints no colour code there with NO_COLOR set', async () => {
    const args = (name: string): string[] => ['run', '--bench', 'dbbench', '--tasks', '0:2', '--target', 'sim:dbbench?seed=1', '--run-dir', path.join(root, name)];
    const coloured = await runOnTerminal(args('tty'), { NO_COLOR: '', FORCE_COLOR: '' });
    expect(coloured.code, coloured.output).toBe(0);
    expect(coloured.output).toMatch(/success: \d\/2/);
    expect(coloured.output).toMatch(SGR);
    const plain = await runOnTerminal(args('no-color'), { NO_COLOR: '1', FORCE_COLOR: '' });
    expect(plain.code, plain.output).toBe(0);
    expect(plain.output).toMatch(/success: \d\/2/);
    expect(plain.output).not.toMatch(SGR);
  });
});

describe('demo progress without a terminal', () => {
  it('prints plain progress lines for every stage while episodes play, then the summary', async () => {
    const r = await runCli(['demo', '--bench', 'alfworld', '--tasks', '0:2', '--batch-size', '2', '--run-dir', path.join(root, 'demo')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^baseline: 1\/2 episodes, successes \d, elapsed [^,]+, ETA /m);
    expect(r.stderr).toMatch(/^baseline: 2\/2 episodes, successes \d, elapsed [^,]+, done/m);
    expect(r.stderr).toMatch(/^batch_000: (done → no_failures|engineer)/m);
    expect(r.stdout).toMatch(/SIMULATED TARGET/);
    expect(r.stdout + r.stderr).not.toMatch(SGR);
  });
});

describe('probe against a port where nothing listens', () => {
  it('exits 1 naming the refused connection, and says it is not retried', async () => {
    const r = await runCli(['probe', '--model', 'openai:http://127.0.0.1:9/v1#some-model']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/Cannot connect to http:\/\/127\.0\.0\.1:9\/v1: connection refused \(connect ECONNREFUSED 127\.0\.0\.1:9\)\. Is the server running on that host and port\? Not retried/);
  });
});

describe('numbers on the command line', () => {
  it.each([
    [['run', '--bench', 'dbbench', '--target', 'sim:dbbench', '--concurrency', 'abc'], /^error: --concurrency must be an integer from 1 to 256, got 'abc'\.$/m],
    [['run', '--bench', 'dbbench', '--target', 'sim:dbbench', '--hook-timeout-ms', 'x'], /^error: --hook-timeout-ms must be an integer from 1 to 60000, got 'x'\.$/m],
    [['improve', '--bench', 'dbbench', '--target', 'sim:dbbench', '--batch-size', '0'], /^error: --batch-size must be an integer from 1 to 100000, got '0'\.$/m],
    [['run', '--bench', 'dbbench', '--target', 'sim:dbbench?latency_ms=abc'], /latency_ms must be an integer number of milliseconds \(0\.\.600000\), got 'abc'/],
  ])('%j: exit 2 naming the flag and the value, never NaN', async (args, message) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/NaN|at .*\.(js|ts):\d+/);
  });
});

describe('help of improve and demo', () => {
  it('names every benchmark: splits, simulated targets, demo ranges and a run directory per benchmark', async () => {
    const improve = await runCli(['improve', '--help']);
    expect(improve.code).toBe(0);
    const flat = improve.stdout.replace(/\s+/g, ' ');
    expect(flat).toContain('dbbench: dev, standard, standard.v0.2; alfworld: dev, standard, new_std, train_valid; webshop: dev');
    expect(flat).toContain('sim:dbbench, sim:alfworld, sim:webshop');
    expect(flat).not.toMatch(/dbbench first/i);
    const demo = await runCli(['demo', '--help']);
    expect(demo.code).toBe(0);
    const demoFlat = demo.stdout.replace(/\s+/g, ' ');
    expect(demoFlat).toContain('dbbench 0:60, alfworld 0:20, webshop 0:50');
    expect(demoFlat).toContain('runs/improve-<bench>-<split>-<time>');
  });
});

describe('install scripts', () => {
  it('allowScripts names every package in the lock file that has an install script', () => {
    const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
    const lock = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript === true)
      .map(([where]) => where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length))
      .sort();
    expect(withScripts).toEqual(['better-sqlite3', 'esbuild']);
    expect(Object.keys(pkg.allowScripts ?? {}).sort()).toEqual(withScripts);
    expect(Object.values(pkg.allowScripts ?? {}).every((v) => v === true)).toBe(true);
  });
});
