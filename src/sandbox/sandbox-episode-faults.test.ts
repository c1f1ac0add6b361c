import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, describe, expect, it } from 'vitest';

import { InternalError } from '../episode/index.js';
import { PinnedEpisode, type EpisodeHost } from './sandbox-episode.js';
import { resolveSandboxOptions, type SandboxPoolOptions } from './sandbox-options.js';
import { resolveSandboxAssets } from './worker-command.js';
import { WorkerGoneError, WorkerProcess } from './worker-process.js';

// How an episode handles a worker that misbehaves: refuses or fails to open the episode, answers a call with
// something other than a result, dies while the episode is idle, dies with a call queued behind another, or
// runs out of memory mid-call; and what closing the episode sends. Real worker processes, running a scripted
// stand-in for the Pyodide worker (fault-worker.fixture.js) that answers as each test asks.

const FAULT_WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fault-worker.fixture.js');

type Mode = 'ok' | 'open-refuse' | 'open-refuse-bare' | 'open-not-json' | 'open-exit' | 'open-hang' | 'close-hang';

/** A pool of one: each `acquire` starts a new fault worker, in the next mode of `modes` ('ok' when none is left). */
class FaultHost implements EpisodeHost {
  readonly options;
  readonly workers: WorkerProcess[] = [];
  readonly heapNotes: Array<{ worker: number; ranOutOfMemory: boolean }> = [];
  readonly retired: number[] = [];

  constructor(
    private readonly modes: Mode[],
    options: SandboxPoolOptions = {},
  ) {
    this.options = resolveSandboxOptions(options);
  }

  async acquire(): Promise<WorkerProcess> {
    const mode = this.modes.shift() ?? 'ok';
    const worker = new WorkerProcess({
      id: this.workers.length + 1,
      assets: { ...resolveSandboxAssets(), workerScript: FAULT_WORKER },
      options: this.options,
      network: { kind: 'js-only', pidNamespace: false, prefix: ['env', `FAULT_WORKER_MODE=${mode}`], detail: 'test' },
      snapshot: undefined,
      makeSnapshot: false,
    });
    this.workers.push(worker);
    await worker.ready;
    return worker;
  }

  noteHeap(worker: WorkerProcess, ranOutOfMemory: boolean): void {
    this.heapNotes.push({ worker: worker.id, ranOutOfMemory });
  }

  retireIfIdle(worker: WorkerProcess): void {
    this.retired.push(worker.id);
  }

  /**
   * The requests worker `index` received, as it reported them (without their ids). The reports come over IPC and
   * the replies over stdout, so a reply may be read before the report of its request: poll.
   */
  received(index: number): unknown[] {
    const tail = this.workers[index]?.outputTail ?? '';
    return [...tail.matchAll(/^request (.*)$/gm)].map((m) => {
      const { id: _id, ...request } = JSON.parse(m[1] ?? '{}') as Record<string, unknown>;
      return request;
    });
  }

  /** Every request worker `index` received so far: one more request, whose report comes after all the others. */
  async allReceived(index: number): Promise<unknown[]> {
    const worker = this.workers[index] as WorkerProcess;
    await worker.request({ type: 'inspect' }, 30_000);
    await expect.poll(() => this.received(index).at(-1)).toEqual({ type: 'inspect' });
    return this.received(index).slice(0, -1);
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.workers.map((w) => (w.state === 'dead' ? undefined : new Promise<void>((resolve) => {
        w.onExitOnce(() => resolve());
        w.kill('closed');
      }))),
    );
  }
}

const HOOKSET = { sources: ['def hook(ctx, nb):\n    return 1\n'], benchmark: 'dbbench' };
const OPEN = { type: 'open', episodeId: 'e1', sources: HOOKSET.sources, benchmark: 'dbbench' };

let host: FaultHost | undefined;

function start(modes: Mode[], options?: SandboxPoolOptions): { host: FaultHost; episode: PinnedEpisode } {
  host = new FaultHost(modes, options);
  return { host, episode: new PinnedEpisode(host, 'e1', HOOKSET) };
}

afterEach(async () => {
  await host?.stop();
  host = undefined;
});

describe('PinnedEpisode opening its episode on a worker', () => {
  it('reports a worker that refuses the episode with its error, without a retry, and leaves the worker', async () => {
    const { host, episode } = start(['open-refuse']);
    expect(await episode.call(0, '{}')).toEqual({
      fault: { kind: 'worker_crash', message: 'no sandbox worker available: episode could not be opened: hook 2 did not compile' },
    });
    expect(host.workers).toHaveLength(1);
    expect(host.workers[0]?.episodes.size).toBe(0);
    await expect.poll(() => host.received(0)).toEqual([OPEN]);
    // Nothing was pinned: closing sends nothing and retires nothing.
    await episode.close();
    await expect.poll(() => host.received(0)).toEqual([OPEN]);
    expect(host.retired).toEqual([]);
  });

  it('quotes the reply when a refusal gives no error, and fails on a reply that is not JSON', async () => {
    const bare = start(['open-refuse-bare']);
    expect(await bare.episode.call(0, '{}')).toEqual({
      fault: { kind: 'worker_crash', message: 'no sandbox worker available: episode could not be opened: {"ok":false}' },
    });
    await bare.host.stop();
    const garbled = start(['open-not-json']);
    const outcome = await garbled.episode.call(0, '{}');
    expect(outcome).toMatchObject({ fault: { kind: 'worker_crash', message: expect.stringMatching(/^no sandbox worker available: Unexpected token/) } });
    expect(garbled.host.workers).toHaveLength(1);
    expect(garbled.host.workers[0]?.episodes.size).toBe(0);
  });

  it('opens the episode on a second worker when the first one dies opening it, and runs the call there', async () => {
    const { host, episode } = start(['open-exit', 'ok']);
    expect(await episode.call(0, '{"n":1}')).toEqual({ raw: { n: 1 } });
    expect(host.workers).toHaveLength(2);
    expect(host.workers[0]?.state).toBe('dead');
    expect(host.workers[0]?.episodes.size).toBe(0);
    expect(host.workers[1]?.episodes).toEqual(new Set(['e1']));
    await expect.poll(() => host.received(1)).toEqual([OPEN, { type: 'call', episodeId: 'e1', hookIndex: 0, ctx: '{"n":1}', timeoutMs: 50, killGraceMs: 100 }]);
    expect(host.heapNotes).toEqual([{ worker: 2, ranOutOfMemory: false }]);
    // The next call stays on the pinned worker.
    expect(await episode.call(0, '{"n":2}')).toEqual({ raw: { n: 2 } });
    expect(host.workers).toHaveLength(2);
  });

  it('gives up after two workers died opening the episode, naming the second death; the open had the compile deadline', async () => {
    const { host, episode } = start(['open-exit', 'open-hang', 'ok'], { compileTimeoutMs: 300 });
    expect(await episode.call(0, '{}')).toEqual({
      fault: { kind: 'worker_crash', message: 'no sandbox worker available: request exceeded its 300 ms deadline' },
    });
    expect(host.workers).toHaveLength(2);
    expect(host.workers[1]?.exit).toEqual({ reason: 'timeout', message: 'request exceeded its 300 ms deadline' });
    expect(host.workers.map((w) => w.episodes.size)).toEqual([0, 0]);
    // A later call tries again, on a new worker.
    expect(await episode.call(0, '{"n":3}')).toEqual({ raw: { n: 3 } });
    expect(host.workers).toHaveLength(3);
  });

  it('sends an empty benchmark name for a hookset without one', async () => {
    host = new FaultHost(['ok']);
    const episode = new PinnedEpisode(host, 'e1', { sources: HOOKSET.sources, benchmark: undefined });
    expect(await episode.call(0, '{}')).toEqual({ raw: {} });
    await expect.poll(() => host?.received(0)[0]).toEqual({ ...OPEN, benchmark: '' });
  });

  it('passes on an error that is not the worker going away', async () => {
    const failing: EpisodeHost = {
      options: resolveSandboxOptions({}),
      acquire: () => Promise.reject(new InternalError({ message: 'no workers today' })),
      noteHeap: () => undefined,
      retireIfIdle: () => undefined,
    };
    const episode = new PinnedEpisode(failing, 'e1', HOOKSET);
    expect(await episode.call(0, '{}')).toEqual({ fault: { kind: 'worker_crash', message: 'no sandbox worker available: no workers today' } });
  });
});

describe('PinnedEpisode reading a call reply', () => {
  it('turns each kind of reply into its outcome and tells the pool which were out of memory', async () => {
    const { host, episode } = start(['ok'], { hookTimeoutMs: 70 });
    const call = (reply: string) => episode.call(0, JSON.stringify({ reply }));
    expect(await call('not json')).toEqual({ fault: { kind: 'bad_result', message: 'the worker returned text that is not JSON' } });
    expect(await call('{"error":"RuntimeError: boom"}')).toEqual({ fault: { kind: 'worker_crash', message: 'sandbox runtime error: RuntimeError: boom' } });
    expect(await call('{"fault":{"kind":"timeout","message":"interrupted"}}')).toEqual({
      fault: { kind: 'timeout', message: 'hook exceeded the 70 ms wall-clock limit (interrupted; nb kept)' },
    });
    expect(await call('{"fault":{"kind":"memory","message":"MemoryError"}}')).toEqual({ fault: { kind: 'memory', message: 'MemoryError' } });
    expect(await call('{"fault":{"kind":"bad_result","message":"too big"},"error":"ignored"}')).toEqual({ fault: { kind: 'bad_result', message: 'too big' } });
    expect(await call('{"raw":[1,2]}')).toEqual({ raw: [1, 2] });
    expect(await call('{"raw":false}')).toEqual({ raw: false });
    expect(await call('{}')).toEqual({ raw: null });
    expect(host.heapNotes.map((n) => n.ranOutOfMemory)).toEqual([false, false, false, true, false, false, false, false]);
    // All on the one worker the episode was pinned to.
    expect(host.workers).toHaveLength(1);
  });
});

describe('PinnedEpisode when its worker dies', () => {
  it('reports a worker that died while the episode was idle once, with the exit reason and message', async () => {
    const { host, episode } = start(['ok', 'ok']);
    expect(await episode.call(0, '{"n":1}')).toEqual({ raw: { n: 1 } });
    expect(episode.takeLostWorker()).toBeUndefined();
    const worker = host.workers[0] as WorkerProcess;
    const gone = new Promise<void>((resolve) => worker.onExitOnce(() => resolve()));
    worker.kill('fatal', 'interpreter fatal error: stack overflow');
    await gone;
    expect(episode.takeLostWorker()).toEqual({
      kind: 'worker_crash',
      message: "the episode's sandbox worker stopped (fatal: interpreter fatal error: stack overflow); nb was reset",
    });
    expect(episode.takeLostWorker()).toBeUndefined();
    // The next call opens the episode again on a fresh worker.
    expect(await episode.call(0, '{"n":2}')).toEqual({ raw: { n: 2 } });
    expect(host.workers).toHaveLength(2);
    await expect.poll(() => host.received(1)[0]).toEqual(OPEN);
  });

  it('reports nothing lost when the worker dies after the episode closed', async () => {
    const { host, episode } = start(['ok']);
    expect(await episode.call(0, '{}')).toEqual({ raw: {} });
    await episode.close();
    const worker = host.workers[0] as WorkerProcess;
    const gone = new Promise<void>((resolve) => (worker.state === 'dead' ? resolve() : worker.onExitOnce(() => resolve())));
    worker.kill('fatal', 'late');
    await gone;
    expect(episode.takeLostWorker()).toBeUndefined();
  });

  it('says a call queued behind another request did not run, and counts no kill for it', async () => {
    const { host, episode } = start(['ok', 'ok'], { hookKillLimit: 1 });
    expect(await episode.call(0, '{}')).toEqual({ raw: {} });
    const worker = host.workers[0] as WorkerProcess;
    // Another request holds the worker; the episode's call waits behind it.
    const blocker = worker.request({ type: 'call', episodeId: 'other', hookIndex: 0, ctx: '{"hang":true}', timeoutMs: 50, killGraceMs: 0 }, 600_000);
    const blocked = blocker.then(
      () => undefined,
      (error: unknown) => error,
    );
    const queued = episode.call(0, '{"n":1}');
    await expect.poll(() => worker.load, { timeout: 30_000 }).toBe(2);
    worker.kill('fatal', 'interpreter fatal error: boom');
    expect(await queued).toEqual({
      fault: {
        kind: 'worker_crash',
        message: 'hook did not run: worker stopped before this request ran (fatal: interpreter fatal error: boom); nb was reset',
      },
    });
    expect(await blocked).toMatchObject({ reason: 'fatal', ran: true, message: 'interpreter fatal error: boom' });
    expect(await blocked).toBeInstanceOf(WorkerGoneError);
    // Not a kill of hook 0: it still runs, on a fresh worker (limit 1 would have switched it off).
    expect(await episode.call(0, '{"n":2}')).toEqual({ raw: { n: 2 } });
    // A dead worker is not offered for retirement.
    expect(host.retired).toEqual([]);
    // The episode was busy when its worker died: the call reported it, so nothing is left to report as lost.
    expect(episode.takeLostWorker()).toBeUndefined();
  });

  it('reports a worker that ran out of memory mid-call as a memory fault and counts it as a kill', async () => {
    const { host, episode } = start(['ok', 'ok'], { hookKillLimit: 1 });
    expect(await episode.call(1, '{}')).toEqual({ raw: {} });
    const worker = host.workers[0] as WorkerProcess;
    const outcome = episode.call(0, '{"oom":true}');
    await expect.poll(() => worker.outputTail.includes('oom reported'), { timeout: 30_000 }).toBe(true);
    process.kill(worker.pid as number, 'SIGKILL');
    const memory = 'worker memory (RSS 2048 MiB) exceeded its limit; the worker was replaced and nb was reset';
    expect(await outcome).toEqual({ fault: { kind: 'memory', message: memory } });
    expect(worker.exit?.reason).toBe('memory');
    expect(episode.takeLostWorker()).toBeUndefined();
    expect(host.retired).toEqual([]);
    const off = `hook switched off for the rest of the episode after 1 worker kill(s) (limit 1); last: memory: ${memory}`;
    expect(await episode.call(0, '{}')).toEqual({ fault: { kind: 'disabled', message: off } });
    // The other hook runs on a fresh worker.
    expect(await episode.call(1, '{"n":1}')).toEqual({ raw: { n: 1 } });
    expect(host.workers).toHaveLength(2);
  });

  it.each(['closed', 'retired'] as const)('counts no kill when the worker is %s under a call', async (reason) => {
    const { host, episode } = start(['ok', 'ok'], { hookKillLimit: 1 });
    expect(await episode.call(1, '{}')).toEqual({ raw: {} });
    const worker = host.workers[0] as WorkerProcess;
    const outcome = episode.call(0, '{"hang":true}');
    await expect.poll(() => host.received(0).length, { timeout: 30_000 }).toBe(3);
    worker.kill(reason, 'taken away');
    expect(await outcome).toEqual({
      fault: reason === 'closed'
        ? { kind: 'worker_crash', message: 'sandbox pool closed during the call' }
        : { kind: 'worker_crash', message: 'taken away; the worker was replaced and nb was reset' },
    });
    // The hook is not switched off (limit 1): it runs on a fresh worker.
    expect(await episode.call(0, '{"n":1}')).toEqual({ raw: { n: 1 } });
    expect(host.workers).toHaveLength(2);
  });

  it('switches a hook off at its second kill under the default limit of 2, not at its first', async () => {
    const { host, episode } = start(['ok', 'ok', 'ok']);
    for (const kill of [1, 2]) {
      let settled = false;
      const outcome = episode.call(0, '{"hang":true}').finally(() => (settled = true));
      // Until the call is on its worker, or answered without one.
      await expect.poll(() => settled || host.received(kill - 1).length === 2, { timeout: 30_000 }).toBe(true);
      host.workers[kill - 1]?.kill('fatal', `crash ${kill}`);
      expect(await outcome).toEqual({ fault: { kind: 'worker_crash', message: `crash ${kill}; the worker was replaced and nb was reset` } });
    }
    const off = 'hook switched off for the rest of the episode after 2 worker kill(s) (limit 2); last: worker_crash: crash 2; the worker was replaced and nb was reset';
    expect(await episode.call(0, '{}')).toEqual({ fault: { kind: 'disabled', message: off } });
    expect(await episode.call(1, '{}')).toEqual({ raw: {} });
    expect(host.workers).toHaveLength(3);
  });

  it('passes on an error that is not the worker going away, from the pool after a reply', async () => {
    const { host, episode } = start(['ok']);
    host.noteHeap = () => {
      throw new InternalError({ message: 'heap bookkeeping failed' });
    };
    await expect(episode.call(0, '{}')).rejects.toThrow('heap bookkeeping failed');
    // The episode stays pinned: nothing was retired.
    expect(host.retired).toEqual([]);
    expect(host.workers[0]?.episodes).toEqual(new Set(['e1']));
  });

  it('kills a worker that does not answer a call at the budget times the starvation factor plus grace plus the backstop', async () => {
    const { host, episode } = start(['ok'], { hookTimeoutMs: 10, killGraceMs: 7, hookKillLimit: 0 });
    expect(await episode.call(0, '{"hang":true}')).toEqual({
      fault: { kind: 'timeout', message: 'hook exceeded the 10 ms wall-clock limit and did not stop; the worker was killed and nb was reset' },
    });
    // 10 ms × 20 + 7 ms + 2000 ms.
    expect(host.workers[0]?.exit).toEqual({ reason: 'timeout', message: 'request exceeded its 2207 ms deadline' });
    await expect.poll(() => host.received(0)[1]).toEqual({ type: 'call', episodeId: 'e1', hookIndex: 0, ctx: '{"hang":true}', timeoutMs: 10, killGraceMs: 7 });
  });
});

describe('PinnedEpisode.close', () => {
  it('tells its worker to close the episode, with the compile deadline, and leaves the worker', async () => {
    const { host, episode } = start(['ok', 'close-hang'], { compileTimeoutMs: 400 });
    expect(await episode.call(0, '{}')).toEqual({ raw: {} });
    await episode.close();
    await expect.poll(() => host.received(0).at(-1)).toEqual({ type: 'close', episodeId: 'e1' });
    expect(host.workers[0]?.episodes.size).toBe(0);
    expect(host.retired).toEqual([1]);
    expect(host.workers[0]?.state).toBe('ready');
    // Closing again sends nothing more.
    await episode.close();
    await expect.poll(() => host.received(0).filter((r) => (r as { type: string }).type === 'close')).toHaveLength(1);
    expect(host.retired).toEqual([1]);

    // A worker that does not answer the close is killed at the compile deadline; close still returns.
    const second = new PinnedEpisode(host, 'e2', HOOKSET);
    expect(await second.call(0, '{}')).toEqual({ raw: {} });
    await second.close();
    expect(host.workers[1]?.exit).toEqual({ reason: 'timeout', message: 'request exceeded its 400 ms deadline' });
    await expect.poll(() => host.received(1).at(-1)).toEqual({ type: 'close', episodeId: 'e2' });
    expect(host.retired).toEqual([1]);
  });

  it('sends one close when closed twice at once', async () => {
    const { host, episode } = start(['ok']);
    expect(await episode.call(0, '{}')).toEqual({ raw: {} });
    await Promise.all([episode.close(), episode.close()]);
    expect(await host.allReceived(0)).toEqual([OPEN, { type: 'call', episodeId: 'e1', hookIndex: 0, ctx: '{}', timeoutMs: 50, killGraceMs: 100 }, { type: 'close', episodeId: 'e1' }]);
    expect(host.retired).toEqual([1]);
  });

  it('sends nothing to a worker that is already dead', async () => {
    const { host, episode } = start(['ok']);
    expect(await episode.call(0, '{}')).toEqual({ raw: {} });
    const worker = host.workers[0] as WorkerProcess;
    const gone = new Promise<void>((resolve) => worker.onExitOnce(() => resolve()));
    worker.kill('fatal', 'gone');
    await gone;
    await episode.close();
    await expect.poll(() => host.received(0).map((r) => (r as { type: string }).type)).toEqual(['open', 'call']);
  });
});
