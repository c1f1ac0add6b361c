import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { SandboxEpisode } from './sandbox-episode.js';
import { createSandboxPool, type SandboxPool } from './worker-pool.js';

// How one episode pinned to a worker reports what happened to its calls: a closed episode, a worker that
// dies mid-call or is closed under it, and the kill limit that switches a hook off. Real pools, real workers.

const py = (...lines: string[]): string => `${lines.join('\n')}\n`;

/** A C-level loop: the in-process interrupt never reaches it, so only a kill stops it. */
const ENDLESS = py('def hook(ctx, nb):', '    return sum(range(10 ** 13))');
const COUNTER = py('def hook(ctx, nb):', '    nb["n"] = nb.get("n", 0) + 1', '    return nb["n"]');

/** Calls sent to the worker with id `id` so far. */
function sentTo(pool: SandboxPool, id: number): number {
  return pool.info().workers.find((w) => w.id === id)?.calls ?? -1;
}

/** Starts call `index` of `episode`, and resolves with its outcome once the episode's worker has received it. */
async function callInFlight(pool: SandboxPool, episode: SandboxEpisode, index: number) {
  const worker = pool.info().workers.find((w) => w.state === 'ready' && w.episodes > 0);
  if (worker === undefined) throw new Error('no worker holds an episode');
  const sentBefore = sentTo(pool, worker.id);
  const outcome = episode.call(index, '{}');
  await expect.poll(() => sentTo(pool, worker.id), { timeout: 30_000 }).toBe(sentBefore + 1);
  return outcome;
}

function busyPid(pool: SandboxPool): number {
  const worker = pool.info().workers.find((w) => w.state === 'ready' && w.episodes > 0);
  if (worker?.pid === undefined) throw new Error('no worker holds an episode');
  return worker.pid;
}

describe('PinnedEpisode with a one-kill limit (default 50 ms budget)', () => {
  let pool: SandboxPool;

  beforeAll(async () => {
    pool = createSandboxPool({ size: 1, hookKillLimit: 1 });
    await pool.ready();
  });

  afterAll(async () => {
    await pool.close();
  });

  it('switches a hook off after its first worker kill, saying why, and keeps running the other hooks', async () => {
    const episode = await pool.openEpisode({ sources: [ENDLESS, COUNTER], benchmark: undefined });
    const timeout = 'hook exceeded the 50 ms wall-clock limit and did not stop; the worker was killed and nb was reset';
    expect(await episode.call(0, '{}')).toEqual({ fault: { kind: 'timeout', message: timeout } });
    expect(await episode.call(1, '{}')).toEqual({ raw: 1 });
    const off = `hook switched off for the rest of the episode after 1 worker kill(s) (limit 1); last: timeout: ${timeout}`;
    const callsBefore = pool.info().workers.reduce((sum, w) => sum + w.calls, 0);
    expect(await episode.call(0, '{}')).toEqual({ fault: { kind: 'disabled', message: off } });
    expect(await episode.call(0, '{}')).toEqual({ fault: { kind: 'disabled', message: off } });
    // The switched-off hook never reached a worker; the other one still runs, on the same fresh nb.
    expect(pool.info().workers.reduce((sum, w) => sum + w.calls, 0)).toBe(callsBefore);
    expect(await episode.call(1, '{}')).toEqual({ raw: 2 });
    await episode.close();
    // A closed episode answers without a worker, and closing again is harmless.
    expect(await episode.call(1, '{}')).toEqual({ fault: { kind: 'worker_crash', message: 'episode is closed' } });
    await episode.close();
    // A new episode starts with no kills counted.
    const next = await pool.openEpisode({ sources: [ENDLESS], benchmark: undefined });
    expect(await next.call(0, '{}')).toEqual({ fault: { kind: 'timeout', message: timeout } });
    await next.close();
  });
});

describe('PinnedEpisode when its worker goes away during a call', () => {
  let pool: SandboxPool;

  beforeAll(async () => {
    // A budget far beyond the test, so that only the test ends the endless hook.
    pool = createSandboxPool({ size: 1, hookTimeoutMs: 600_000, hookKillLimit: 0 });
    await pool.ready();
  });

  afterAll(async () => {
    await pool.close();
  });

  it('reports a worker killed mid-call as a crash and goes on on a fresh worker; limit 0 never switches the hook off', async () => {
    const episode = await pool.openEpisode({ sources: [ENDLESS, COUNTER], benchmark: undefined });
    expect(await episode.call(1, '{}')).toEqual({ raw: 1 });
    const outcome = callInFlight(pool, episode, 0);
    process.kill(busyPid(pool), 'SIGKILL');
    const crashed = await outcome;
    expect(crashed).toMatchObject({ fault: { kind: 'worker_crash', message: expect.stringMatching(/; the worker was replaced and nb was reset$/) } });
    const message = 'fault' in crashed ? crashed.fault.message : '';
    expect(message).not.toMatch(/^hook did not run/);
    // The crash took nb with it; the episode's next call runs on a fresh worker.
    expect(await episode.call(1, '{}')).toEqual({ raw: 1 });
    // With hookKillLimit 0 the hook runs again (and is killed again) instead of being switched off.
    const again = callInFlight(pool, episode, 0);
    process.kill(busyPid(pool), 'SIGKILL');
    expect(await again).toMatchObject({ fault: { kind: 'worker_crash', message: expect.stringMatching(/; the worker was replaced and nb was reset$/) } });
    await episode.close();
  });

  it('reports a pool closed mid-call without counting a kill, and no worker after that', async () => {
    const episode = await pool.openEpisode({ sources: [ENDLESS, COUNTER], benchmark: undefined });
    expect(await episode.call(1, '{}')).toEqual({ raw: 1 });
    const outcome = callInFlight(pool, episode, 0);
    await pool.close();
    expect(await outcome).toEqual({ fault: { kind: 'worker_crash', message: 'sandbox pool closed during the call' } });
    // Not switched off (a closed pool is not the hook's doing): the call tries to get a worker again.
    expect(await episode.call(0, '{}')).toEqual({ fault: { kind: 'worker_crash', message: 'no sandbox worker available: sandbox pool is closed' } });
    await episode.close();
  });
});
