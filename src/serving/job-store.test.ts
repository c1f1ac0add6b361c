import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { JobStore } from './job-store.js';
import { failedReward } from './reward-result.js';
import { ServiceMetrics } from './service-metrics.js';

const work = mkdtempSync(path.join(tmpdir(), 'harness-job-store-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('JobStore (SQLite)', () => {
  it('keeps finished results and unfinished jobs across a reopen', () => {
    const dir = path.join(work, 'a');
    const store = new JobStore(dir);
    store.addQueued('k1', 'row', 'response one');
    store.addQueued('k2', 'row', 'response two');
    store.setState('k2', 'running');
    const result = { ...failedReward(2, 'x'), status: 'inert' as const, scored: true, error: null };
    store.finish('k1', result, 1.5);
    store.putResponseKey('r1', 'k1');
    store.addQueued('k1', 'row', 'again');
    store.close();

    const reopened = new JobStore(dir);
    expect(reopened.get('k1')).toEqual({ evalKey: 'k1', rowKey: 'row', response: 'response one', state: 'done', result });
    expect(reopened.unfinished().map((j) => [j.evalKey, j.state])).toEqual([['k2', 'running']]);
    expect(reopened.evalKeyOfResponse('r1')).toBe('k1');
    expect(reopened.evalKeyOfResponse('r2')).toBeUndefined();
    expect(reopened.doneCount()).toBe(1);
    reopened.remove('k2');
    expect(reopened.unfinished()).toEqual([]);
    reopened.close();
  });
});

describe('ServiceMetrics', () => {
  it('renders Prometheus text with nearest-rank quantiles and per-status counts', () => {
    const m = new ServiceMetrics();
    for (const s of [4, 1, 3, 2]) m.rerunSeconds(s);
    m.status('scored');
    m.status('scored');
    m.cacheHits = 3;
    m.cacheMisses = 1;
    expect(m.quantile(0.5)).toBe(2);
    expect(m.quantile(0.95)).toBe(4);
    const text = m.render({ queued: 5, running: 2, done: 7 });
    expect(text).toContain('harness_r1_reward_queue_depth 5\n');
    expect(text).toContain('harness_r1_reward_reruns_in_flight 2\n');
    expect(text).toContain('harness_r1_reward_results_total{status="scored"} 2\n');
    expect(text).toContain('harness_r1_reward_results_total{status="inert"} 0\n');
    expect(text).toContain('harness_r1_reward_rerun_seconds{quantile="0.5"} 2\n');
    expect(text).toContain('harness_r1_reward_rerun_seconds_sum 10\n');
    expect(text).toContain('harness_r1_reward_cache_hit_ratio 0.75\n');
    expect(text.split('\n').filter((l) => l !== '' && !l.startsWith('#')).every((l) => /^harness_r1_reward_\w+(\{[^}]*\})? \S+$/.test(l))).toBe(true);
  });
});
