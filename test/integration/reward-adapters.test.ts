/**
 * The Python reward adapters (adapters/python/), called from python3 exactly as each engine calls them, against
 * the contract fake of the reward service (test/fixtures/reward-adapters/fake_service.py): valid, inert,
 * engineer-failure, missing-evaluation and invalid responses; jobs polled to the end; refusals raised. Then the
 * same calls against the real `serve-reward` on rows exported in the test (simulated DBBench target): each
 * adapter's rewards equal the service's own JSON answer for the same row and responses.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BenchmarkRegistry } from '../../src/benchmarks/registry.js';
import { exportRlCommand } from '../../src/cli/commands/export-rl.js';
import { openRewardServer, type RewardServer } from '../../src/cli/commands/serve-reward.js';
import type { RewardResult } from '../../src/serving/reward-result.js';
import { readRows } from '../../src/training/rows/export-rl.js';
import type { RlRow } from '../../src/training/rows/rl-row.js';

import { callAdapter, ENGINES, fixtureRow, startFakeService, type AdapterAnswer, type FakeService } from './reward-adapters-driver.js';

const VALID = '<patch>{"fixture":"valid"}</patch>';
const INERT = '<patch>{"fixture":"inert"}</patch>';
const ENGINEER_FAILED = '';
const INFRA = '<patch>{"fixture":"infra"}</patch>';
const INVALID = 'I would quote the table names.';
const RESPONSES = [VALID, INERT, ENGINEER_FAILED, INFRA, INVALID];
const STATUSES = ['scored', 'inert', 'engineer_request_failed_treated_as_no_patch', 'missing_evaluation', 'invalid_patch_treated_as_no_patch'];
const REWARDS = [0.3, 0, 0, 0, 0];

type Dict = Record<string, unknown>;
interface RelaxAnswer { is_coroutine: boolean; single_types: string[]; batch_type: string; reward_types: string[]; rewards: number[]; single: Dict[]; batch: Dict[]; remove_sample: boolean[]; remove_sample_single: boolean[] }
interface VerlAnswer { sync_is_coroutine: boolean; async_is_coroutine: boolean; single_types: string[]; reward_types: string[]; rewards: number[]; batch_rewards: number[]; batch_keys: string[][]; value_types: string[]; batch: Dict[]; single: Dict[]; async_first: Dict }
interface TrlCall { type: string; rewards: (number | null)[]; reward_types: string[]; logged: Record<string, string[]>; metrics: Record<string, number> }
interface TrlAnswer { rewards: (number | null)[]; standard: TrlCall; conversational: TrlCall }
interface OpenRlhfAnswer { info_types: string[]; keys: string[][]; rewards_types: string[]; rewards: number[]; scores: (number | string)[]; extra_log_types: string[]; infos: { extra_logs: Record<string, number> }[] }

function ok<T>(answer: AdapterAnswer): T {
  if (!answer.ok) throw new Error(`adapter raised ${answer.error_type}: ${answer.error}`);
  return answer as unknown as T;
}

describe('reward adapters against the reward service contract (fake service)', () => {
  let service: FakeService;
  let env: NodeJS.ProcessEnv;
  const rows = RESPONSES.map((response) => ({ row: fixtureRow(), response }));
  const answers = new Map<string, unknown>();

  beforeAll(async () => {
    // Every job needs two polls, the first POST is refused with 429, every job's first poll is a 404 (a restart).
    service = await startFakeService(['--polls', '2', '--busy-first', '--forget-first']);
    env = { HARNESS_REWARD_URL: service.url, HARNESS_REWARD_WAIT_MS: '5' };
    for (const engine of ENGINES) answers.set(engine, ok<unknown>(await callAdapter(engine, rows, env)));
  });
  afterAll(() => service?.stop());

  it('Relax/slime: reward_func(args, sample) gives the release dict, reward_func(args, samples) a list; missing evaluations are masked', () => {
    const a = answers.get('relax') as RelaxAnswer;
    expect(a.is_coroutine).toBe(true);
    expect(a.single_types).toEqual(RESPONSES.map(() => 'dict'));
    expect(a.batch_type).toBe('list');
    expect(a.reward_types).toEqual(RESPONSES.map(() => 'float'));
    expect(a.rewards).toEqual(REWARDS);
    expect(a.single.map((d) => d.score)).toEqual(REWARDS);
    expect(a.batch.map((d) => d.eval_status)).toEqual(STATUSES);
    expect(a.batch.map((d) => d.valid_patch)).toEqual([true, true, false, true, false]);
    expect(a.batch[0]).toMatchObject({ delta_pass: 3, delta_pass_rate: 0.3, baseline_pass: 4, patched_pass: 7, batch_size: 10, benchmark: 'dbbench', rescued: 3 });
    // The release's delta keys are all there.
    for (const key of ['score', 'delta_score', 'delta_pass', 'delta_pass_rate', 'baseline_pass', 'patched_pass', 'batch_size', 'valid_patch', 'eval_status', 'detail', 'benchmark']) expect(Object.keys(a.batch[2]!)).toContain(key);
    expect(a.remove_sample).toEqual([false, false, false, true, false]);
    expect(a.remove_sample_single).toEqual([false, false, false, true, false]);
  });

  it('verl: compute_score, compute_score_batch and compute_score_async return {score, …} with the same numeric keys for every sample', () => {
    const a = answers.get('verl') as VerlAnswer;
    expect(a.sync_is_coroutine).toBe(false);
    expect(a.async_is_coroutine).toBe(true);
    expect(a.single_types).toEqual(RESPONSES.map(() => 'dict'));
    expect(a.reward_types).toEqual(RESPONSES.map(() => 'float'));
    expect(a.rewards).toEqual(REWARDS);
    expect(a.batch_rewards).toEqual(REWARDS);
    expect(new Set(a.batch_keys.map((k) => k.join(','))).size).toBe(1);
    expect(a.value_types).toEqual(['float']);
    expect(a.batch.map((d) => d.scored)).toEqual([1, 1, 1, 0, 1]);
    expect(a.async_first).toEqual(a.single[0]);
  });

  it('TRL: the reward function returns one float per completion and None for a missing evaluation, text or conversational', () => {
    const a = answers.get('trl') as TrlAnswer;
    for (const mode of ['standard', 'conversational'] as const) {
      expect(a[mode].type).toBe('list');
      expect(a[mode].rewards).toEqual([0.3, 0, 0, null, 0]);
      expect(a[mode].reward_types).toEqual(['float', 'float', 'float', 'NoneType', 'float']);
      expect(a[mode].logged.harness_r1_status).toEqual(STATUSES);
      expect(a[mode].metrics['harness_r1/missing_evaluation_rate']).toBeCloseTo(0.2);
    }
  });

  it('OpenRLHF: reward_func(queries, prompts, labels) returns {rewards, scores, extra_logs}; a missing evaluation scores NaN', () => {
    const a = answers.get('openrlhf') as OpenRlhfAnswer;
    expect(a.info_types).toEqual(RESPONSES.map(() => 'dict'));
    expect(a.keys).toEqual(RESPONSES.map(() => ['extra_logs', 'rewards', 'scores']));
    expect(a.rewards_types).toEqual(RESPONSES.map(() => 'list')); // no torch here; tensors where torch is installed
    expect(a.rewards).toEqual(REWARDS);
    expect(a.scores).toEqual([0.3, 0, 0, 'NaN', 0]);
    expect(a.extra_log_types).toEqual(['float']);
    expect(a.infos[3]!.extra_logs.harness_r1_missing_evaluation).toBe(1);
  });

  it('every adapter queued jobs with wait_ms and polled GET /v1/jobs/{id} until done, after a 429 and a lost job', async () => {
    const log = await service.log();
    const posts = log.filter((e) => e.method === 'POST');
    const polls = log.filter((e) => e.method === 'GET' && e.path.startsWith('/v1/jobs/'));
    expect(posts.every((e) => e.wait_ms === 5)).toBe(true);
    expect(polls.every((e) => e.wait_ms === '5')).toBe(true);
    // 5 distinct jobs (same row, five responses): each forgotten once (404, then submitted again) and polled twice more.
    const jobs = new Set(polls.map((e) => e.path));
    expect(jobs.size).toBe(RESPONSES.length);
    for (const job of jobs) expect(polls.filter((e) => e.path === job).length).toBeGreaterThanOrEqual(3);
    expect(posts.length).toBeGreaterThan(1 + RESPONSES.length); // the refused first POST, the resubmissions, the calls
  });
});

describe('reward adapters when the service refuses, breaks or takes too long', () => {
  let service: FakeService;
  beforeAll(async () => {
    service = await startFakeService(['--polls', '100000']);
  });
  afterAll(() => service?.stop());

  it('a row refused by the service raises in every adapter instead of scoring 0', async () => {
    const rows = [{ row: fixtureRow({ target_spec: 'refuse:other-target' }), response: VALID }];
    for (const engine of ENGINES) {
      const answer = await callAdapter(engine, rows, { HARNESS_REWARD_URL: service.url, HARNESS_REWARD_WAIT_MS: '5' });
      expect(answer.ok).toBe(false);
      if (!answer.ok) {
        expect(answer.error_type).toBe('RewardServiceError');
        expect(answer.error).toContain('409 row_context_mismatch');
      }
    }
  });

  it('a job still running when the adapter stops waiting comes back as a missing evaluation, not a reward', async () => {
    const env = { HARNESS_REWARD_URL: service.url, HARNESS_REWARD_WAIT_MS: '5', HARNESS_REWARD_TIMEOUT_S: '0.3' };
    const trl = ok<TrlAnswer>(await callAdapter('trl', [{ row: fixtureRow(), response: VALID }], env));
    expect(trl.rewards).toEqual([null]);
    const relax = ok<RelaxAnswer>(await callAdapter('relax', [{ row: fixtureRow(), response: VALID }], env));
    expect(relax.batch[0]).toMatchObject({ score: 0, eval_status: 'missing_evaluation' });
    expect(relax.batch[0]!.detail).toContain('HARNESS_REWARD_TIMEOUT_S');
    expect(relax.remove_sample).toEqual([true]);
  });

  it('no service at the URL: the adapter keeps asking until its deadline, then raises a timeout', async () => {
    const env = { HARNESS_REWARD_URL: 'http://127.0.0.1:9', HARNESS_REWARD_WAIT_MS: '5', HARNESS_REWARD_TIMEOUT_S: '0.5' };
    const answer = await callAdapter('verl', [{ row: fixtureRow(), response: VALID }], env);
    expect(answer).toMatchObject({ ok: false, error_type: 'TimeoutError' });
  });
});

describe('reward adapters against the real serve-reward (simulated DBBench target)', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'harness-reward-adapters-'));
  const ctx = { registry: new BenchmarkRegistry() };
  const hook = (code: string) => ({ benchmark: 'dbbench', actions: [{ type: 'add_code_hook', hook: 'on_init', code }] });
  const answer = (patch: unknown) => `- the failures recur\n</think>\n<patch>${JSON.stringify(patch)}</patch>`;
  const responses = [
    answer(hook('def hook(ctx, nb):\n    return {"skills": ["Quote multi-word table names with backticks."]}\n')),
    answer(hook('def hook(ctx, nb):\n    return None\n')),
    'I would add a guard but I forgot the format.',
    '',
  ];
  let server: RewardServer;
  let row: RlRow;
  let served: RewardResult[];
  const env = () => ({ HARNESS_REWARD_URL: server.url, HARNESS_REWARD_WAIT_MS: '2000' });

  beforeAll(async () => {
    const rowsDir = path.join(work, 'rl');
    await exportRlCommand(ctx, { bench: 'dbbench', target: 'sim:dbbench', out: rowsDir, batchSize: '3', batches: '1', json: true }, { write: () => true });
    row = readRows(path.join(rowsDir, 'dbbench', 'rows.jsonl'))[0]!;
    server = await openRewardServer(ctx, { rows: rowsDir, store: path.join(work, 'store'), port: 0, hookTimeoutMs: '1000' });
  }, 600_000);
  afterAll(async () => {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('the service answers the four kinds of response with improve\'s statuses', async () => {
    // Asked through the Relax adapter first (jobs, polled), then straight from the service: the same answers.
    const relax = ok<RelaxAnswer>(await callAdapter('relax', responses.map((response) => ({ row, response })), env()));
    const res = await fetch(`${server.url}/v1/rewards`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: responses.map((response) => ({ metadata: row.metadata, response })), wait_ms: 600_000 }) });
    served = ((await res.json()) as { results: RewardResult[] }).results;
    expect(served.map((r) => r.status)).toEqual(['scored', 'inert', 'invalid_patch_treated_as_no_patch', 'engineer_request_failed_treated_as_no_patch']);
    expect(served.every((r) => r.cached)).toBe(true); // the adapter's calls already ran every rerun
    expect(relax.batch.map((d) => d.eval_status)).toEqual(served.map((r) => r.status));
    expect(relax.rewards).toEqual(served.map((r) => r.reward));
    expect(relax.batch.map((d) => d.eval_key)).toEqual(served.map((r) => r.eval_key));
  }, 600_000);

  it('verl, TRL and OpenRLHF give the service\'s rewards for the same row and responses', async () => {
    const rows = responses.map((response) => ({ row, response }));
    const rewards = served.map((r) => r.reward);
    const verl = ok<VerlAnswer>(await callAdapter('verl', rows, env()));
    expect(verl.rewards).toEqual(rewards);
    expect(verl.batch_rewards).toEqual(rewards);
    expect(verl.batch.map((d) => d.cached)).toEqual(rewards.map(() => 1));
    const trl = ok<TrlAnswer>(await callAdapter('trl', rows, env()));
    expect(trl.standard.rewards).toEqual(rewards);
    expect(trl.conversational.rewards).toEqual(rewards);
    expect(trl.standard.logged.harness_r1_status).toEqual(served.map((r) => r.status));
    const openrlhf = ok<OpenRlhfAnswer>(await callAdapter('openrlhf', rows, env()));
    expect(openrlhf.rewards).toEqual(rewards);
    expect(openrlhf.scores).toEqual(rewards);
  }, 600_000);

  it('a row whose baseline came from another target is refused by the adapters with the service\'s 409', async () => {
    const other = { ...row, metadata: { ...row.metadata, target_spec: 'sim:dbbench?seed=3' } } as RlRow;
    const refused = await callAdapter('trl', [{ row: other, response: responses[2]! }], env());
    expect(refused).toMatchObject({ ok: false, error_type: 'RewardServiceError' });
    if (!refused.ok) expect(refused.error).toContain('409 row_context_mismatch');
  }, 120_000);
});
