/**
 * `serve-reward` over real HTTP on rows exported in the test (DBBench, simulated target at 200 ms per
 * turn, one batch of 3 tasks): statuses and rewards as improve's reward path gives them, one rerun for
 * many identical requests, refusals, limits, and a kill mid-rerun followed by a restart on the same store.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { rowRewardPaths } from '../../src/app/row-reward-path.js';
import { BenchmarkRegistry } from '../../src/benchmarks/registry.js';
import { exportRlCommand } from '../../src/cli/commands/export-rl.js';
import { openRewardServer, type RewardServer } from '../../src/cli/commands/serve-reward.js';
import { resolveDataDir } from '../../src/config/data-dir.js';
import { judgeProposal } from '../../src/evaluation/improve/judge-proposal.js';
import { createSandboxPool } from '../../src/sandbox/index.js';
import { RowCatalog } from '../../src/serving/row-catalog.js';
import type { RewardResult } from '../../src/serving/reward-result.js';
import { readRows } from '../../src/training/rows/export-rl.js';
import type { RlRow } from '../../src/training/rows/rl-row.js';
import { spawnCli } from './cli-helpers.js';

const work = mkdtempSync(path.join(tmpdir(), 'harness-serve-reward-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const ctx = { registry: new BenchmarkRegistry() };
const rowsDir = path.join(work, 'rl');
let row: RlRow;

const hook = (code: string) => ({ benchmark: 'dbbench', actions: [{ type: 'add_code_hook', hook: 'on_init', code }] });
const skill = (text: string) => hook(`def hook(ctx, nb):\n    return {"skills": ["${text}"]}\n`);
const answer = (patch: unknown) => `- the failures recur\n</think>\n<patch>${JSON.stringify(patch)}</patch>`;
const VALID = skill('Quote multi-word table names with backticks.');
const INERT = hook('def hook(ctx, nb):\n    return None\n');
const GARBAGE = 'I would add a guard but I forgot the format.';

/** Every answer shape of the service, as the tests read them. */
type Answer = RewardResult & { results: RewardResult[]; error: { code: string; message: string; fields?: string[] }; rewards: number[]; extra_logs: { status: string[] } };

async function post(url: string, body: unknown): Promise<{ status: number; json: Answer; headers: Headers }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Answer, headers: res.headers };
}
const metric = async (url: string, name: string) => Number(new RegExp(`^harness_r1_reward_${name} (\\S+)$`, 'm').exec(await (await fetch(`${url}/metrics`)).text())![1]);
const rerunDirs = (store: string) => readdirSync(path.join(store, 'reruns')).sort();

beforeAll(async () => {
  await exportRlCommand(ctx, { bench: 'dbbench', target: 'sim:dbbench?latency_ms=200', out: rowsDir, batchSize: '3', batches: '2', json: true }, { write: () => true });
  row = readRows(path.join(rowsDir, 'dbbench', 'rows.jsonl'))[0]!;
}, 600_000);

describe('serve-reward (simulated target)', () => {
  let server: RewardServer;
  const storeA = path.join(work, 'store-a');
  beforeAll(async () => {
    // A hook time limit well above the default: a loaded machine must not turn a working hook into a timeout fault.
    server = await openRewardServer(ctx, { rows: rowsDir, store: storeA, port: 0, maxBodyBytes: '65536', hookTimeoutMs: '1000' });
  }, 120_000);
  afterAll(() => server?.close());

  it('gives improve\'s statuses and rewards: valid, inert, invalid, empty (engineer failure)', async () => {
    const items = [answer(VALID), answer(INERT), GARBAGE, ''].map((response) => ({ metadata: row.metadata, response }));
    const { status, json } = await post(`${server.url}/v1/rewards`, { items, wait_ms: 600_000 });
    expect(status).toBe(200);
    const [valid, inert, invalid, empty] = json.results as RewardResult[];
    expect(json.results.every((r: RewardResult) => r.state === 'done' && r.cached === false && r.job_id === r.eval_key)).toBe(true);
    expect(valid!.status, JSON.stringify(valid)).toBe('scored');
    expect(inert).toMatchObject({ status: 'inert', reward: 0, scored: true });
    expect(invalid).toMatchObject({ status: 'invalid_patch_treated_as_no_patch', reward: 0, delta: null });
    expect(invalid!.rejection).toMatch(/think/);
    expect(empty).toMatchObject({ status: 'engineer_request_failed_treated_as_no_patch', reward: 0 });

    // The same patches through judgeProposal itself, in another folder: the same rewards.
    const pool = createSandboxPool({ size: 1, hookTimeoutMs: 1000 });
    const paths = rowRewardPaths({ registry: ctx.registry, dataDir: resolveDataDir(undefined), rootDir: path.join(work, 'direct'), pool, episodeConcurrency: 4, maxInfraRetries: 2, extraRerunContext: { hookTimeoutMs: 1000 } });
    try {
      const prepared = await paths.prepare(RowCatalog.load([rowsDir]).all()[0]!);
      for (const [patch, served] of [[VALID, valid!], [INERT, inert!]] as const) {
        const judged = await judgeProposal(prepared.ctx, prepared.batch, { status: 'ok', proposal: { kind: 'response', text: answer(patch), protocol: 'prefill_think_patch' } });
        expect(served.status).toBe(judged.decision.status);
        expect(served.reward).toBe(judged.decision.score);
        expect(served.delta).toBe(judged.decision.raw!.score);
        expect(served.patched_pass).toBe(judged.decision.raw!.patchedPass);
        expect(served.rescued).toBe(judged.decision.raw!.rescued.length);
      }
    } finally {
      await paths.close();
      await pool.close();
    }

    // Asked again (another think text, same patch): the stored answer, no rerun.
    const reruns = await metric(server.url, 'reruns_total');
    const again = await post(`${server.url}/v1/rewards`, { metadata: row.metadata, response: answer(VALID).replace('recur', 'repeat') });
    expect(again.json).toEqual({ ...valid, cached: true });
    expect(await metric(server.url, 'reruns_total')).toBe(reruns);
  }, 900_000);

  it('runs one rerun for 50 concurrent identical requests', async () => {
    const before = rerunDirs(storeA).length;
    const reruns = await metric(server.url, 'reruns_total');
    const body = { metadata: row.metadata, response: answer(skill('Check the column names before the query.')), wait_ms: 600_000 };
    const answers = await Promise.all(Array.from({ length: 50 }, () => post(`${server.url}/v1/rewards`, body)));
    expect(new Set(answers.map((a) => a.json.job_id)).size).toBe(1);
    expect(answers.every((a) => a.status === 200 && a.json.state === 'done' && a.json.status === 'scored')).toBe(true);
    expect(await metric(server.url, 'reruns_total')).toBe(reruns + 1);
    expect(rerunDirs(storeA).length).toBe(before + 1);
  }, 900_000);

  it('refuses a row with another target, an unknown row, a bad body and a body over the limit', async () => {
    const other = await post(`${server.url}/v1/rewards`, { metadata: { ...row.metadata, target_spec: 'sim:dbbench?seed=3' }, response: GARBAGE });
    expect(other.status).toBe(409);
    expect(other.json.error).toMatchObject({ code: 'row_context_mismatch', fields: ['target_spec'] });
    expect(other.json.error.message).toContain('target_spec');
    const unknown = await post(`${server.url}/v1/rewards`, { metadata: { ...row.metadata, batch_tag: 'nope' }, response: GARBAGE });
    expect(unknown.status).toBe(422);
    expect(unknown.json.error.code).toBe('unknown_row');
    expect((await post(`${server.url}/v1/rewards`, '{"items": ')).status).toBe(400);
    const large = await post(`${server.url}/v1/rewards`, { metadata: row.metadata, response: 'x'.repeat(70_000) });
    expect(large.status).toBe(413);
    expect(large.json.error.code).toBe('too_large');
    expect((await fetch(`${server.url}/v1/jobs/${'0'.repeat(64)}`)).status).toBe(404);
  });

  it('answers OpenRLHF\'s remote reward-model request', async () => {
    const prompt = 'PROMPT ';
    const { status, json } = await post(`${server.url}/openrlhf/reward`, { query: [prompt + answer(INERT), prompt + GARBAGE], prompts: [prompt, prompt], labels: [JSON.stringify(row.metadata), JSON.stringify(row.metadata)] });
    expect(status).toBe(200);
    expect(json.rewards).toEqual([0, 0]);
    expect(json.extra_logs.status).toEqual(['inert', 'invalid_patch_treated_as_no_patch']);
  });
});

describe('serve-reward limits', () => {
  it('answers 429 with Retry-After when the queue is full', async () => {
    const server = await openRewardServer(ctx, { rows: rowsDir, store: path.join(work, 'store-b'), port: 0, concurrency: '1', queueDepth: '1' });
    try {
      const send = (text: string) => post(`${server.url}/v1/rewards`, { metadata: row.metadata, response: answer(skill(text)) });
      const first = await send('One.');
      const second = await send('Two.');
      const third = await send('Three.');
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(first.json.state).toBe('running');
      expect(second.json.state).toBe('queued');
      expect(third.status).toBe(429);
      expect(third.json.error.code).toBe('queue_full');
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await (await fetch(`${server.url}/health`)).json())).toMatchObject({ ok: true, queued: 1, running: 1 });
    } finally {
      await server.close();
    }
  }, 300_000);
});

describe('serve-reward with another target than the rows\'', () => {
  it('refuses every row with 409, naming target_spec', async () => {
    const server = await openRewardServer(ctx, { rows: rowsDir, store: path.join(work, 'store-d'), port: 0, target: 'sim:dbbench?latency_ms=200&seed=3' });
    try {
      const refused = await post(`${server.url}/v1/rewards`, { metadata: row.metadata, response: GARBAGE });
      expect(refused.status).toBe(409);
      expect(refused.json.error.code).toBe('row_context_mismatch');
      expect(refused.json.error.fields).toEqual(['target_spec']);
      expect(refused.json.error.message).toContain('sim:dbbench?latency_ms=200&seed=3');
    } finally {
      await server.close();
    }
  }, 300_000);
});

describe('serve-reward killed mid-rerun', () => {
  it('keeps every finished result after SIGKILL, reruns nothing finished, and finishes the interrupted job at restart', async () => {
    const store = path.join(work, 'store-c');
    const start = async () => {
      const proc = spawnCli(['serve-reward', '--rows', rowsDir, '--store', store, '--port', '0', '--hook-timeout-ms', '1000'], { HARNESS_R1_FROM_SOURCE: '1' });
      let out = '';
      proc.child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      for (let i = 0; i < 600 && !/listening on (\S+)/.test(out); i++) await new Promise((r) => setTimeout(r, 100));
      return { ...proc, url: /listening on (\S+)/.exec(out)![1]!, output: () => out };
    };
    const first = await start();
    const finished = await post(`${first.url}/v1/rewards`, { metadata: row.metadata, response: answer(INERT), wait_ms: 600_000 });
    expect(finished.json).toMatchObject({ state: 'done', status: 'inert', cached: false });
    const [finishedDir] = rerunDirs(store);
    const stamp = () => Object.fromEntries(readdirSync(path.join(store, 'reruns', finishedDir!)).map((f) => [f, statSync(path.join(store, 'reruns', finishedDir!, f)).mtimeMs]));
    const before = stamp();
    const pending = await post(`${first.url}/v1/rewards`, { metadata: row.metadata, response: answer(VALID) });
    expect(['queued', 'running']).toContain(pending.json.state);
    for (let i = 0; i < 600 && (await metric(first.url, 'reruns_in_flight')) === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await metric(first.url, 'reruns_in_flight')).toBe(1);
    await new Promise((r) => setTimeout(r, 300));
    first.child.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');

    const second = await start();
    const again = await post(`${second.url}/v1/rewards`, { metadata: row.metadata, response: answer(INERT) });
    expect(again.json).toEqual({ ...finished.json, cached: true });
    expect(stamp()).toEqual(before);
    expect(await metric(second.url, 'cache_hits_total')).toBe(1);
    const resumed = await (await fetch(`${second.url}/v1/jobs/${pending.json.job_id}?wait_ms=600000`)).json();
    expect(resumed).toMatchObject({ state: 'done', status: 'scored' });
    expect(rerunDirs(store)).toHaveLength(2);
    expect(stamp()).toEqual(before);

    second.child.kill('SIGTERM');
    const stopped = await second.done;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain('serve-reward stopped');
  }, 900_000);
});
