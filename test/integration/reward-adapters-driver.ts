/**
 * Drives the Python reward adapters from the tests: starts the contract fake of the reward service, builds each
 * engine's dataset record of a row exactly as `export rl` writes it, and runs `call_adapter.py`, which calls an
 * adapter the way its engine does.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { canonicalJson } from '../../src/evaluation/improve/rerun-cache-key.js';
import { jsonlRecord, VERL_ABILITY, VERL_REWARD_STYLE, verlDataSource } from '../../src/training/rows/formats.js';
import type { RlRow } from '../../src/training/rows/rl-row.js';
import { PROJECT_ROOT } from './cli-helpers.js';

export const FIXTURES = path.join(PROJECT_ROOT, 'test', 'fixtures', 'reward-adapters');
export const ADAPTERS = path.join(PROJECT_ROOT, 'adapters', 'python');
export type Engine = 'relax' | 'verl' | 'trl' | 'openrlhf';
export const ENGINES: readonly Engine[] = ['relax', 'verl', 'trl', 'openrlhf'];

/** The fixture row: the small metadata object with a two-message prompt. */
export function fixtureRow(overrides: Record<string, unknown> = {}): RlRow {
  const metadata = { ...JSON.parse(readFileSync(path.join(FIXTURES, 'row-metadata.json'), 'utf8')), ...overrides };
  return { prompt: [{ role: 'system', content: 'You write harness patches.' }, { role: 'user', content: 'Failures of batch 0.' }], label: '', metadata } as RlRow;
}

/** The row as the engine's dataset holds it (`export rl --format <engine>`). */
export function engineRecord(row: RlRow, engine: Engine): unknown {
  if (engine !== 'verl') return jsonlRecord(row, engine);
  return {
    data_source: verlDataSource(row.metadata.benchmark),
    prompt: row.prompt.map((m) => ({ role: m.role, content: m.content ?? '' })),
    ability: VERL_ABILITY,
    reward_model: { style: VERL_REWARD_STYLE, ground_truth: '' },
    extra_info: { index: 0, benchmark: row.metadata.benchmark, batch_tag: row.metadata.batch_tag, split: row.metadata.split, metadata: canonicalJson(row.metadata) },
  };
}

interface Proc { code: number | null; stdout: string; stderr: string }

function runPython(args: string[], input: string, env: NodeJS.ProcessEnv): Promise<Proc> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', args, { cwd: PROJECT_ROOT, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** What `call_adapter.py` printed: `ok` and the engine's view of the rewards, or the Python exception. */
export type AdapterAnswer = { ok: true; rewards: unknown[] } & Record<string, unknown> | { ok: false; error_type: string; error: string };

export async function callAdapter(engine: Engine, rows: { row: RlRow; response: string }[], env: NodeJS.ProcessEnv): Promise<AdapterAnswer> {
  const request = { engine, adapters: ADAPTERS, rows: rows.map((r) => ({ record: engineRecord(r.row, engine), response: r.response })) };
  const out = await runPython([path.join(FIXTURES, 'call_adapter.py')], JSON.stringify(request), env);
  if (out.code !== 0) throw new Error(`call_adapter.py exited ${out.code}: ${out.stderr}`);
  return JSON.parse(out.stdout) as AdapterAnswer;
}

export interface FakeService { url: string; log(): Promise<{ method: string; path: string; wait_ms: unknown }[]>; stop(): void }

/** Starts `fake_service.py` on a free port. */
export function startFakeService(flags: string[] = []): Promise<FakeService> {
  const child = spawn('python3', [path.join(FIXTURES, 'fake_service.py'), path.join(FIXTURES, 'outcomes.json'), ...flags], { cwd: PROJECT_ROOT, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => reject(new Error(`fake service exited ${code}: ${stderr}`)));
    child.stdout.on('data', (d: Buffer) => {
      seen += d.toString();
      const port = /PORT (\d+)/.exec(seen)?.[1];
      if (!port) return;
      const url = `http://127.0.0.1:${port}`;
      resolve({
        url,
        log: async () => ((await (await fetch(`${url}/_log`)).json()) as { log: { method: string; path: string; wait_ms: unknown }[] }).log,
        stop: () => child.kill('SIGTERM'),
      });
    });
  });
}
