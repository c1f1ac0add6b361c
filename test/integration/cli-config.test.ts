/**
 * `--config FILE`: the same settings as the flags, validated by the same schema; flags win, and a bad
 * setting is a usage error (exit 2) naming the field and, where there is a fixed set, the allowed values.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { runCli } from './cli-helpers.js';

const root = mkdtempSync(path.join(tmpdir(), 'harness-config-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function config(name: string, content: unknown): string {
  const file = path.join(root, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('run --config', () => {
  it('takes settings from the file, and flags win over it', async () => {
    const file = config('ok.json', { bench: 'dbbench', target: 'sim:dbbench?seed=1', tasks: '0:3', concurrency: 2, grading: 'v0.2' });
    const runDir = path.join(root, 'ok-run');
    const r = await runCli(['run', '--config', file, '--tasks', '0:2', '--run-dir', runDir, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { tasks: unknown[] };
    expect(out.tasks).toHaveLength(2);
    const manifest = JSON.parse(readFileSync(path.join(runDir, 'run.json'), 'utf8')) as { bench: string; options: { grading: string } };
    expect(manifest.bench).toBe('dbbench');
    expect(manifest.options.grading).toBe('v0.2');
  });

  it.each([
    ['typo.json', { bench: 'dbbench', target: 'sim:dbbench', concurency: 2 }, /unknown setting\(s\): concurency/],
    ['bad-int.json', { bench: 'dbbench', target: 'sim:dbbench', concurrency: 'many' }, /--concurrency must be an integer from 1 to 256, got 'many'/],
    ['bad-enum.json', { bench: 'dbbench', target: 'sim:dbbench', grading: 'v9' }, /Unknown --grading 'v9'\. Allowed: fc, v0\.2/],
    ['other-bench.json', { bench: 'dbbench', target: 'sim:dbbench', wording: '2.1.2' }, /--wording applies to alfworld only, not dbbench/],
    ['not-json.json', '{"bench": ', /is not valid JSON/],
    ['array.json', '[1, 2]', /must hold a JSON object/],
    ['bad-module.json', { benchmarks: { mine: './nowhere/index.js' } }, /Benchmark module not found: .*nowhere/],
  ])('exits 2 for %s', async (name, content, message) => {
    const r = await runCli(['run', '--config', config(name, content), '--run-dir', path.join(root, `run-${name}`)]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('exits 2 naming a missing config file', async () => {
    const r = await runCli(['run', '--config', path.join(root, 'missing.json'), '--bench', 'dbbench', '--target', 'sim:dbbench']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Cannot read config file .*missing\.json/);
  });
});
