import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { HookCallResult } from '../hooks/hook-provider.js';
import { createPythonHookProvider, type PythonHookSource } from './python-hook-provider.js';
import { createSandboxPool, type SandboxPool } from './worker-pool.js';

let pool: SandboxPool;

beforeAll(async () => {
  // A generous wall clock so that a loaded test machine cannot turn a normal call into a timeout; the default
  // 50 ms limit has its own pool below.
  pool = createSandboxPool({ size: 1, hookTimeoutMs: 1000 });
  await pool.ready();
});

afterAll(async () => {
  await pool.close();
});

const py = (...lines: string[]): string => `${lines.join('\n')}\n`;

function raw(result: HookCallResult | undefined): unknown {
  if (result === undefined) throw new Error('missing result');
  if ('fault' in result) throw new Error(`unexpected fault ${result.fault.kind}: ${result.fault.message}`);
  return result.raw;
}

function fault(result: HookCallResult | undefined): { kind: string; message: string } {
  if (result === undefined || !('fault' in result)) throw new Error(`expected a fault, got ${JSON.stringify(result)}`);
  return result.fault;
}

async function openOn(on: SandboxPool, hooks: PythonHookSource[]) {
  const provider = await createPythonHookProvider(on, hooks);
  return { provider, episode: await provider.openEpisode() };
}

const open = (hooks: PythonHookSource[]) => openOn(pool, hooks);

describe('createPythonHookProvider: install', () => {
  it('drops hooks that fail compile_hook and says why, keeping patch order for the rest', async () => {
    const provider = await createPythonHookProvider(
      pool,
      [
        { hook: 'make_pre_hint', code: py('def hook(ctx, nb):', '    return {"message": "first"}') },
        { hook: 'make_pre_hint', code: py('import os', 'def hook(ctx, nb):', '    return None') },
        { hook: 'on_before_action', code: py('def hook(ctx, nb):', '    return {"kind": "force_action", "action": "go to desk 1"}') },
        { hook: 'make_pre_hint', code: py('def hook(ctx, nb):', '    return {"message": "second"}') },
        { hook: 'not_a_hook' as never, code: py('def hook(ctx, nb):', '    return None') },
      ],
      { rules: { numberedInstances: true } },
    );
    expect(provider.dropped).toEqual([
      { position: 1, hook: 'make_pre_hint', reason: 'hook uses forbidden syntax: Import' },
      { position: 2, hook: 'on_before_action', reason: "hook string constant names a numbered ALFWorld instance: 'go to desk 1'" },
      { position: 4, hook: 'not_a_hook', reason: "unknown hook name 'not_a_hook'" },
    ]);
    expect(provider.installed.map((h) => [h.position, h.hook, h.hookIndex])).toEqual([
      [0, 'make_pre_hint', 0],
      [3, 'make_pre_hint', 1],
    ]);
    expect(provider.pythonVersion).toMatch(/^3\.14\./);
    const episode = await provider.openEpisode();
    expect(episode.count('make_pre_hint')).toBe(2);
    expect(episode.count('on_before_action')).toBe(0);
    expect(await episode.call('on_before_action', {})).toEqual([]);
    expect(await episode.call('make_pre_hint', {})).toEqual([
      { hookIndex: 0, raw: { message: 'first' } },
      { hookIndex: 1, raw: { message: 'second' } },
    ]);
    await episode.close();
  });
});

describe('createPythonHookProvider: nb and ctx', () => {
  it('shares one live nb between all hooks of an episode, and starts each episode with an empty one', async () => {
    const { provider, episode } = await open([
      { hook: 'on_init', code: py('def hook(ctx, nb):', '    nb["seen"] = ["init"]', '    return None') },
      { hook: 'on_post_step', code: py('def hook(ctx, nb):', '    nb["seen"].append(ctx.step)', '    nb["tuple"] = (1, 2)', '    return None') },
      { hook: 'make_pre_hint', code: py('def hook(ctx, nb):', '    return {"message": str(nb.get("seen")), "t": nb.get("tuple")}') },
    ]);
    await episode.call('on_init', {});
    await episode.call('on_post_step', { step: 1 });
    await episode.call('on_post_step', { step: 2 });
    expect(await episode.call('make_pre_hint', {})).toEqual([{ hookIndex: 0, raw: { message: "['init', 1, 2]", t: [1, 2] } }]);
    const second = await provider.openEpisode();
    expect(await second.call('make_pre_hint', {})).toEqual([{ hookIndex: 0, raw: { message: 'None', t: null } }]);
    await second.close();
    await episode.close();
  });

  it('gives every hook its own deep copy of ctx with attribute reads, and never changes the caller ctx', async () => {
    const { episode } = await open([
      {
        hook: 'on_before_action',
        code: py(
          'def hook(ctx, nb):',
          '    ctx.action["raw"] = "changed"',
          '    ctx.admissible.append("x")',
          '    ctx.note = "attribute set"',
          '    return {"message": ctx.task.goal + "|" + ctx.note + "|" + str(isinstance(ctx.task, dict))}',
        ),
      },
      { hook: 'on_before_action', code: py('def hook(ctx, nb):', '    return {"message": ctx.action.raw + "|" + str(len(ctx.admissible))}') },
      { hook: 'on_before_action', code: py('def hook(ctx, nb):', '    return {"message": ctx.missing}') },
    ]);
    const ctx = { task: { goal: 'heat an egg' }, action: { raw: 'look' }, admissible: ['look', 'go to desk 1'] };
    const before = structuredClone(ctx);
    const results = await episode.call('on_before_action', ctx);
    expect(raw(results[0])).toEqual({ message: 'heat an egg|attribute set|True' });
    expect(raw(results[1])).toEqual({ message: 'look|2' });
    expect(fault(results[2])).toEqual({ kind: 'exception', message: 'AttributeError: missing' });
    expect(ctx).toEqual(before);
    await episode.close();
  });

  it('keeps partial nb writes of a hook that fails (exception, line budget, interrupt)', async () => {
    const { episode } = await open([
      { hook: 'on_post_step', code: py('def hook(ctx, nb):', '    nb["a"] = 1', '    return 1 / 0') },
      { hook: 'on_post_step', code: py('def hook(ctx, nb):', '    nb["b"] = 2', '    for i in range(10 ** 9):', '        pass') },
      { hook: 'on_post_step', code: py('def hook(ctx, nb):', '    nb["c"] = 3', '    return re.search(r"(a+)+$", "a" * 40 + "b")') },
      { hook: 'make_pre_hint', code: py('def hook(ctx, nb):', '    return {"message": str(sorted(nb.items()))}') },
    ]);
    const faults = (await episode.call('on_post_step', {})).map((r) => fault(r).kind);
    expect(faults).toEqual(['exception', 'line_budget', 'timeout']);
    expect(await episode.call('make_pre_hint', {})).toEqual([{ hookIndex: 0, raw: { message: "[('a', 1), ('b', 2), ('c', 3)]" } }]);
    await episode.close();
  });
});

describe('createPythonHookProvider: results', () => {
  it('delivers results as JSON, marking what JSON cannot hold', async () => {
    const { episode } = await open([
      { hook: 'make_pre_hint', code: py('def hook(ctx, nb):', '    return {"message": 5}') },
      { hook: 'make_pre_hint', code: py('def hook(ctx, nb):', '    return {"message": "m", "f": 5.0, "b": True, "n": None, "t": (1, [2, (3,)])}') },
      { hook: 'make_pre_hint', code: py('def hook(ctx, nb):', '    return {1: "int key", True: "bool key", (1, 2): "tuple key", "s": {3}}') },
      { hook: 'make_pre_hint', code: py('def hook(ctx, nb):', '    return {"nan": float("inf"), "big": 2 ** 60, "fn": hook, "r": range(3)}') },
      { hook: 'make_pre_hint', code: py('def hook(ctx, nb):', '    return "just a string"') },
      { hook: 'make_pre_hint', code: py('def hook(ctx, nb):', '    return None') },
    ]);
    const results = await episode.call('make_pre_hint', {});
    expect(results.map(raw)).toEqual([
      { message: 5 },
      { message: 'm', f: 5, b: true, n: null, t: [1, [2, [3]]] },
      { '1': 'bool key', '$pyKey:(1, 2)': 'tuple key', s: { $pyType: 'set', pyRepr: '{3}' } },
      {
        nan: { $pyType: 'float', pyRepr: 'inf' },
        big: { $pyType: 'int', pyRepr: String(2n ** 60n) },
        fn: { $pyType: 'function', pyRepr: '<function hook>' },
        r: { $pyType: 'range', pyRepr: 'range(0, 3)' },
      },
      'just a string',
      null,
    ]);
    await episode.close();
  });

  it('turns oversized, cyclic or too deep results into bad_result faults', async () => {
    const { episode } = await open([
      { hook: 'make_pre_hint', code: py('def hook(ctx, nb):', '    return {"message": "x" * 2000000}') },
      { hook: 'make_pre_hint', code: py('def hook(ctx, nb):', '    nb["self"] = nb', '    return nb') },
    ]);
    const results = await episode.call('make_pre_hint', {});
    expect(fault(results[0])).toEqual({ kind: 'bad_result', message: 'result is 2000022 characters of JSON; at most 1000000 are delivered' });
    expect(fault(results[1]).kind).toBe('bad_result');
    await episode.close();
  });
});

describe('createPythonHookProvider: limits and worker loss', () => {
  it('enforces the 2000-line budget on traced hook and helper lines', async () => {
    const loop = (n: number): string => py('def step(i):', '    return i', '', 'def hook(ctx, nb):', '    t = 0', `    for i in range(${n}):`, '    ' + '    t += step(i)', '    return {"message": str(t)}');
    const { episode } = await open([
      { hook: 'make_pre_hint', code: loop(600) },
      { hook: 'make_pre_hint', code: loop(700) },
    ]);
    const [ok, over] = await episode.call('make_pre_hint', {});
    expect(raw(ok)).toEqual({ message: String((599 * 600) / 2) });
    expect(fault(over)).toEqual({ kind: 'line_budget', message: 'hook exceeded the 2000-line budget' });
    await episode.close();
  });

  it('treats a killed worker as a crash: the in-flight or next call faults and the episode continues with a fresh nb', async () => {
    const { episode } = await open([
      { hook: 'make_pre_hint', code: py('def hook(ctx, nb):', '    nb["n"] = nb.get("n", 0) + 1', '    return {"message": str(nb["n"])}') },
    ]);
    expect(await episode.call('make_pre_hint', {})).toEqual([{ hookIndex: 0, raw: { message: '1' } }]);
    const worker = pool.info().workers.find((w) => w.episodes > 0 && w.state === 'ready');
    expect(worker?.pid).toBeTypeOf('number');
    const crashesBefore = pool.info().replaced.crash;
    process.kill(worker?.pid as number, 'SIGKILL');
    await expect.poll(() => pool.info().replaced.crash).toBe(crashesBefore + 1);
    const [lost] = await episode.call('make_pre_hint', {});
    expect(fault(lost).kind).toBe('worker_crash');
    expect(await episode.call('make_pre_hint', {})).toEqual([{ hookIndex: 0, raw: { message: '1' } }]);
    await episode.close();
  });

  it('turns allocation past the memory cap into a memory fault and recycles the worker once its episodes close', async () => {
    const { episode } = await open([
      { hook: 'on_init', code: py('def hook(ctx, nb):', '    nb["ok"] = True', '    return len("x" * (1500 * 1024 ** 2))') },
      { hook: 'make_pre_hint', code: py('def hook(ctx, nb):', '    return {"message": str(nb.get("ok"))}') },
    ]);
    const recycledBefore = pool.info().replaced.recycled;
    expect(fault((await episode.call('on_init', {}))[0])).toEqual({ kind: 'memory', message: 'MemoryError: the hook ran out of sandbox memory' });
    expect(await episode.call('make_pre_hint', {})).toEqual([{ hookIndex: 0, raw: { message: 'True' } }]);
    expect(pool.info().workers.some((w) => w.draining)).toBe(true);
    await episode.close();
    expect(pool.info().replaced.recycled).toBe(recycledBefore + 1);
  });
});

describe('createPythonHookProvider: the default 50 ms wall clock', () => {
  let defaultPool: SandboxPool;

  beforeAll(async () => {
    defaultPool = createSandboxPool({ size: 1 });
    await defaultPool.ready();
  });

  afterAll(async () => {
    await defaultPool.close();
  });

  it('kills a hook that ignores the 50 ms interrupt, resets that episode, and reports the loss to episodes sharing the worker', async () => {
    const counter = py('def hook(ctx, nb):', '    nb["n"] = nb.get("n", 0) + 1', '    return {"message": str(nb["n"])}');
    const victim = await openOn(defaultPool, [{ hook: 'make_pre_hint', code: counter }, { hook: 'make_pre_hint', code: counter }]);
    const { episode } = await openOn(defaultPool, [
      { hook: 'on_post_step', code: py('def hook(ctx, nb):', '    nb["n"] = 100', '    return sum(range(10 ** 13))') },
      { hook: 'on_post_step', code: counter },
      { hook: 'make_pre_hint', code: counter },
    ]);
    expect((await victim.episode.call('make_pre_hint', {})).map(raw)).toEqual([{ message: '1' }, { message: '2' }]);
    const replacedBefore = defaultPool.info().replaced.timeout;

    const [killed, after] = await episode.call('on_post_step', {});
    expect(fault(killed)).toEqual({
      kind: 'timeout',
      message: 'hook exceeded the 50 ms wall-clock limit and did not stop; the worker was killed and nb was reset',
    });
    expect(raw(after)).toEqual({ message: '1' }); // ran on a fresh worker with a fresh nb
    expect(raw((await episode.call('make_pre_hint', {}))[0])).toEqual({ message: '2' });
    expect(defaultPool.info().replaced.timeout).toBe(replacedBefore + 1);

    const lost = await victim.episode.call('make_pre_hint', {});
    expect(lost.map((r) => fault(r).kind)).toEqual(['worker_crash', 'worker_crash']);
    expect(fault(lost[0]).message).toMatch(/^the episode's sandbox worker stopped \(timeout: .*\); nb was reset$/);
    expect((await victim.episode.call('make_pre_hint', {})).map(raw)).toEqual([{ message: '1' }, { message: '2' }]);
    await victim.episode.close();
    await episode.close();
  });

});

describe('sandbox pool', () => {
  it('reports the Python version, the permission flag and the network protection in effect', () => {
    const info = pool.info();
    expect(info.pythonVersion).toMatch(/^3\.14\.\d+$/);
    expect(info.pyodideVersion).toBe('314.0.7');
    expect(info.permissionFlag).toBe(process.version.startsWith('v20.') ? '--experimental-permission' : '--permission');
    expect(['netns', 'userns-netns', 'js-only']).toContain(info.network.kind);
    if (info.network.kind !== 'js-only') expect(info.network.verified).toBe(true);
  });

  // One more pool, started cold (no snapshot) in its own worker process, for both tests below.
  let small: SandboxPool;

  beforeAll(async () => {
    small = createSandboxPool({ size: 1, lineBudget: 10, hookTimeoutMs: 1000, useSnapshot: false });
    await small.ready();
  });

  afterAll(async () => {
    await small.close();
  });

  it('is deterministic across workers: PYTHONHASHSEED=0 fixes str hashes and set order', async () => {
    // Two lines a call, inside the other pool's 10-line budget.
    const hooks = [{ hook: 'make_pre_hint' as const, code: py('def hook(ctx, nb):', '    words = set(ctx.words)', '    return {"message": str(list(words)) + str(hash("abc"))}') }];
    const ctx = { words: ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'] };
    const first = await (await createPythonHookProvider(pool, hooks)).openEpisode();
    const second = await (await createPythonHookProvider(small, hooks)).openEpisode();
    const a = await first.call('make_pre_hint', ctx);
    const b = await second.call('make_pre_hint', ctx);
    expect(a).toEqual(b);
    expect(pool.info().workers[0]?.pid).not.toBe(small.info().workers[0]?.pid);
    await first.close();
    await second.close();
  });

  it('honours a configured line budget', async () => {
    const provider = await createPythonHookProvider(small, [
      { hook: 'make_pre_hint', code: py('def hook(ctx, nb):', '    for i in range(2):', '        pass', '    return {"message": "ok"}') },
      { hook: 'make_pre_hint', code: py('def hook(ctx, nb):', '    for i in range(8):', '        pass', '    return {"message": "ok"}') },
    ]);
    const episode = await provider.openEpisode();
    const [fits, over] = await episode.call('make_pre_hint', {});
    expect(raw(fits)).toEqual({ message: 'ok' });
    expect(fault(over)).toEqual({ kind: 'line_budget', message: 'hook exceeded the 10-line budget' });
    await episode.close();
  });

  it('counts every turn of a loop that stays on one line, on the first call and on later ones alike', async () => {
    // The loops below never leave their line: only the backward jumps count them. Jumps that never count are
    // switched off after their first event, which must not change what later calls count.
    const provider = await createPythonHookProvider(small, [
      { hook: 'make_pre_hint', code: py('def hook(ctx, nb):', '    t = sum([i for i in range(3) if i >= 0])', '    return {"message": str(t)}') },
      { hook: 'make_pre_hint', code: py('def hook(ctx, nb):', '    t = sum([i for i in range(30) if i >= 0])', '    return {"message": str(t)}') },
      { hook: 'make_pre_hint', code: py('def hook(ctx, nb):', '    for i in range(100): pass', '    return {"message": "done"}') },
    ]);
    const episode = await provider.openEpisode();
    for (let round = 0; round < 3; round++) {
      const [fits, over, oneLineLoop] = await episode.call('make_pre_hint', {});
      expect(raw(fits)).toEqual({ message: '3' });
      expect(fault(over)).toEqual({ kind: 'line_budget', message: 'hook exceeded the 10-line budget' });
      expect(fault(oneLineLoop)).toEqual({ kind: 'line_budget', message: 'hook exceeded the 10-line budget' });
    }
    await episode.close();
  });
});
