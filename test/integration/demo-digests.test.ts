/**
 * Behaviour lock for refactors: the demo on every benchmark and protocol must leave the same records,
 * batch artifacts, summaries and report as the stored digests say. A change that alters any byte of a
 * record fails here; when a change is meant to alter records, regenerate the digests with
 * `HARNESS_UPDATE_DIGESTS=1 npx vitest run test/integration/demo-digests.test.ts` and say why in the commit.
 *
 * Normalised before hashing (and only this): ISO timestamps (`createdAt`, the report's generation time),
 * the run directory's own path and name, and the order of lines in `episodes.jsonl` (completion order
 * depends on concurrency; task order does not). SQLite indexes and `timings.jsonl` (wall-clock data) are
 * not hashed.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import type { BatchResult } from '../../src/evaluation/improve/improve-batch.js';
import type { ImproveSummary } from '../../src/evaluation/improve/improve-run.js';
import { PROJECT_ROOT, runCli } from './cli-helpers.js';

const DIGEST_FILE = path.join(PROJECT_ROOT, 'test', 'fixtures', 'demo-digests.json');
const UPDATE = process.env.HARNESS_UPDATE_DIGESTS === '1';

// `batches`: the benchmark's demo range (60, 20 and 50 tasks) in batches of 10.
const CASES: { name: string; bench: string; batches: number; args: string[] }[] = [
  { name: 'dbbench-fc', bench: 'dbbench', batches: 6, args: ['--bench', 'dbbench'] },
  { name: 'alfworld-fc', bench: 'alfworld', batches: 2, args: ['--bench', 'alfworld'] },
  { name: 'alfworld-v0.2', bench: 'alfworld', batches: 2, args: ['--bench', 'alfworld', '--protocol', 'v0.2'] },
  { name: 'webshop-fc', bench: 'webshop', batches: 5, args: ['--bench', 'webshop'] },
  { name: 'webshop-v0.2', bench: 'webshop', batches: 5, args: ['--bench', 'webshop', '--protocol', 'v0.2'] },
];

const ISO_TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g;

function listFiles(dir: string, base = dir): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? listFiles(full, base) : [path.relative(base, full)];
    })
    .sort();
}

function normalise(file: string, text: string, runDir: string): string {
  let out = text.split(runDir).join('<run>').split(path.basename(runDir)).join('<run>').replace(ISO_TIME, '<time>');
  if (path.basename(file) === 'episodes.jsonl') {
    const lines = out.split('\n').filter((l) => l !== '');
    const index = (line: string) => (JSON.parse(line) as { task: { index: number } }).task.index;
    out = lines.map((l, i) => ({ l, i, k: index(l) })).sort((a, b) => a.k - b.k || a.i - b.i).map((e) => e.l).join('\n');
  }
  return out;
}

function digestRun(runDir: string, stdout: string): Record<string, string> {
  const digests: Record<string, string> = {};
  for (const file of listFiles(runDir)) {
    if (file.endsWith('.sqlite') || file.endsWith('.sqlite-wal') || file.endsWith('.sqlite-shm') || path.basename(file) === 'timings.jsonl') continue;
    const text = normalise(file, readFileSync(path.join(runDir, file), 'utf8'), runDir);
    digests[file.split(path.sep).join('/')] = createHash('sha256').update(text).digest('hex');
  }
  digests['<stdout --json>'] = createHash('sha256').update(normalise('stdout', stdout, runDir)).digest('hex');
  return digests;
}

const root = mkdtempSync(path.join(os.tmpdir(), 'harness-digests-'));
const produced: Record<string, Record<string, string>> = {};

afterAll(() => {
  if (UPDATE && Object.keys(produced).length === CASES.length) {
    writeFileSync(DIGEST_FILE, `${JSON.stringify(produced, null, 2)}\n`);
  }
  rmSync(root, { recursive: true, force: true });
});

describe('demo records and reports are byte-stable (stored digests)', () => {
  const stored = existsSync(DIGEST_FILE) ? (JSON.parse(readFileSync(DIGEST_FILE, 'utf8')) as Record<string, Record<string, string>>) : {};

  it.each(CASES)('$name', async ({ name, bench, batches, args }) => {
    const runDir = path.join(root, name);
    const result = await runCli(['demo', ...args, '--run-dir', runDir, '--json']);
    expect(result.code, result.stderr).toBe(0);
    // The whole loop ran on that benchmark, labelled simulated and symbolic, with a report.
    const { summary } = JSON.parse(result.stdout) as { summary: ImproveSummary };
    expect(summary.bench).toBe(bench);
    expect(summary.target.simulated).toBe(true);
    expect(summary.engineer.symbolic).toBe(true);
    expect(summary.batches).toHaveLength(batches);
    for (const b of summary.batches) {
      expect(['scored', 'inert', 'no_failures']).toContain(b.status);
      if (bench === 'webshop' && b.status !== 'no_failures') {
        expect(JSON.parse(readFileSync(path.join(runDir, 'batches', b.tag, 'result.json'), 'utf8')) as BatchResult).toMatchObject({ reward: { metric: 'delta_average_reward' } });
      }
    }
    expect(existsSync(path.join(runDir, 'report.html'))).toBe(true);
    const digests = digestRun(runDir, result.stdout);
    produced[name] = digests;
    if (UPDATE) return;
    expect(stored[name], `no stored digests for ${name}; run with HARNESS_UPDATE_DIGESTS=1`).toBeDefined();
    expect(digests).toEqual(stored[name]);
  }, 300_000);
});
