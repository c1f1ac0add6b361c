/**
 * Episode isolation and bounded cost in the hook sandbox:
 * - hooks whose calls keep costing a worker kill (C loops that ignore the interrupt) are switched off for the
 *   rest of the episode after `hookKillLimit` kills, and the trace says so;
 * - state planted on shared objects (`re.error`, functions, enum members) does not reach another episode,
 *   including one that runs at the same time on the same worker, and every module's attribute state is the
 *   same before and after a hostile episode;
 * - no host path is left anywhere in the interpreter (environment, `sys`, or any object a walk can reach).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { HookTraceEntry } from '../../src/episode/index.js';
import { callHooks } from '../../src/runtime/call-hooks.js';
import { DEFAULT_HOOK_KILL_LIMIT } from '../../src/sandbox/sandbox-options.js';
import { createPythonHookProvider } from '../../src/sandbox/python-hook-provider.js';
import { createSandboxPool, type SandboxPool } from '../../src/sandbox/worker-pool.js';

const CHECKOUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const C_LEVEL_LOOP = 'def hook(ctx, nb):\n    return {"message": str(sum(range(10 ** 13)))}\n';
const CANARY = 'def hook(ctx, nb):\n    nb["n"] = nb.get("n", 0) + 1\n    return {"message": "alive %d" % nb["n"]}\n';

describe('hooks that ignore the interrupt', () => {
  let pool: SandboxPool;

  beforeAll(async () => {
    pool = createSandboxPool({ size: 2 });
    await pool.ready();
  });

  afterAll(async () => {
    await pool.close();
  });

  it(`are switched off after ${DEFAULT_HOOK_KILL_LIMIT} worker kills each, and the trace records it`, async () => {
    const hooks = [...Array.from({ length: 12 }, () => ({ hook: 'make_pre_hint' as const, code: C_LEVEL_LOOP })), { hook: 'make_pre_hint' as const, code: CANARY }];
    const provider = await createPythonHookProvider(pool, hooks);
    expect(provider.dropped).toEqual([]);
    const episode = await provider.openEpisode();
    const trace: HookTraceEntry[] = [];
    const rounds = DEFAULT_HOOK_KILL_LIMIT + 3;
    const killsBefore = pool.info().replaced.timeout;
    try {
      for (let round = 1; round <= rounds; round++) await callHooks('make_pre_hint', { step: round }, { round }, episode, trace);
    } finally {
      await episode.close();
    }
    for (let hookIndex = 0; hookIndex < 12; hookIndex++) {
      const kinds = trace.filter((t) => t.hookIndex === hookIndex).map((t) => t.fault?.kind ?? 'none');
      // A kill that lands on the next hook's worker while it is being replaced may show as worker_crash.
      expect(kinds.slice(0, DEFAULT_HOOK_KILL_LIMIT).every((k) => k === 'timeout' || k === 'worker_crash'), `hook ${hookIndex}: ${kinds.join(',')}`).toBe(true);
      expect(kinds.slice(DEFAULT_HOOK_KILL_LIMIT), `hook ${hookIndex}`).toEqual(Array(rounds - DEFAULT_HOOK_KILL_LIMIT).fill('disabled'));
    }
    const disabled = trace.find((t) => t.fault?.kind === 'disabled');
    expect(disabled?.fault?.message).toMatch(/^hook switched off for the rest of the episode after 2 worker kill\(s\) \(limit 2\)/);
    // The canary after them answers every round (it shares the episode's nb across the kills only in part).
    expect(trace.filter((t) => t.hookIndex === 12).every((t) => t.fault === undefined || t.fault.kind === 'worker_crash')).toBe(true);
    expect(trace.filter((t) => t.hookIndex === 12 && t.disposition === 'applied').slice(-1)[0]?.detail).toMatch(/^alive \d+$/);
    // At most limit x 12 kills, however many rounds: the cost of the episode is bounded.
    const kills = pool.info().replaced.timeout - killsBefore;
    expect(kills).toBeLessThanOrEqual(12 * DEFAULT_HOOK_KILL_LIMIT);
    expect(trace.filter((t) => t.hookIndex < 12 && t.fault?.kind !== 'disabled')).toHaveLength(12 * DEFAULT_HOOK_KILL_LIMIT);
  }, 600_000);

  it('are never switched off with hookKillLimit 0', async () => {
    const unlimited = createSandboxPool({ size: 1, hookKillLimit: 0 });
    try {
      await unlimited.ready();
      const provider = await createPythonHookProvider(unlimited, [{ hook: 'make_pre_hint', code: C_LEVEL_LOOP }]);
      const episode = await provider.openEpisode();
      const kinds: string[] = [];
      for (let round = 0; round < 3; round++) {
        const [result] = await episode.call('make_pre_hint', {});
        kinds.push(result !== undefined && 'fault' in result ? result.fault.kind : 'none');
      }
      await episode.close();
      expect(kinds).toEqual(['timeout', 'timeout', 'timeout']);
    } finally {
      await unlimited.close();
    }
  }, 300_000);
});

describe('state planted on shared objects', () => {
  let pool: SandboxPool;

  beforeAll(async () => {
    // One worker: every episode shares the interpreter.
    pool = createSandboxPool({ size: 1 });
    await pool.ready();
  });

  afterAll(async () => {
    await pool.close();
  });

  const PLANT = [
    'def hook(ctx, nb):',
    '    re.error.planted = ctx.secret',
    '    re.error.msg = ctx.secret',
    '    re.search.planted = ctx.secret',
    '    re.fullmatch.planted = ctx.secret',
    '    re.NOFLAG.planted = ctx.secret',
    '    SequenceMatcher.ratio.planted = ctx.secret',
    '    re.Scanner.scan.planted = ctx.secret',
    '    return {"message": re.error.planted + re.search.planted}',
    '',
  ].join('\n');
  const READ = (expr: string): string => `def hook(ctx, nb):\n    return {"message": str(${expr})}\n`;
  const PLANTED = ['re.error.planted', 're.error.msg', 're.search.planted', 're.fullmatch.planted', 're.NOFLAG.planted', 'SequenceMatcher.ratio.planted', 're.Scanner.scan.planted'];

  async function readAll(): Promise<string[]> {
    const provider = await createPythonHookProvider(
      pool,
      PLANTED.map((expr) => ({ hook: 'make_pre_hint' as const, code: READ(expr) })),
    );
    const episode = await provider.openEpisode();
    try {
      return (await episode.call('make_pre_hint', {})).map((r) => ('fault' in r ? r.fault.message : String((r.raw as { message: string }).message)));
    } finally {
      await episode.close();
    }
  }

  it('do not reach the next episode, nor one running at the same time', async () => {
    const secret = 'planted-secret-7f3a';
    const before = await pool.sharedStateFingerprints();
    expect(before).toHaveLength(1);
    expect(before[0]!.sharedObjects).toBeGreaterThan(20);

    const planterHooks = await createPythonHookProvider(pool, [{ hook: 'make_pre_hint', code: PLANT }]);
    expect(planterHooks.dropped).toEqual([]);
    const planter = await planterHooks.openEpisode();
    const concurrent = await (
      await createPythonHookProvider(pool, PLANTED.map((expr) => ({ hook: 'make_pre_hint' as const, code: READ(expr) })))
    ).openEpisode();
    try {
      // Within its own call the plant works (the hook runs as written)...
      expect(await planter.call('make_pre_hint', { secret })).toEqual([{ hookIndex: 0, raw: { message: secret + secret } }]);
      // ...but the episode open at the same time on the same worker sees none of it.
      const seen = await concurrent.call('make_pre_hint', {});
      expect(JSON.stringify(seen)).not.toContain(secret);
      expect(seen.map((r) => ('fault' in r ? r.fault.kind : 'value'))).toEqual(PLANTED.map(() => 'exception'));
    } finally {
      await planter.close();
      await concurrent.close();
    }
    const later = await readAll();
    expect(later.join('\n')).not.toContain(secret);
    expect(later[0]).toBe("AttributeError: type object 'PatternError' has no attribute 'planted'");
    // Every module's attribute state (and that of its classes and functions) is as it was.
    expect((await pool.sharedStateFingerprints())[0]!.fingerprint).toBe(before[0]!.fingerprint);
  });
});

describe('host paths in the interpreter', () => {
  it('are gone from os.environ, sys and everything a format-string walk reaches', async () => {
    const pool = createSandboxPool({ size: 1 });
    try {
      await pool.ready();
      const walks = [
        '{0.search.__globals__[enum].sys.modules[os].environ}',
        '{0.search.__globals__[enum].sys.executable}',
        '{0.search.__globals__[enum].sys.orig_argv}',
        '{0.search.__globals__[enum].sys.argv}',
        '{0.search.__globals__[enum].sys.modules[posix].environ}',
        '{0.search.__globals__[enum].sys.path}',
      ];
      const provider = await createPythonHookProvider(
        pool,
        walks.map((walk) => ({ hook: 'make_pre_hint' as const, code: `def hook(ctx, nb):\n    return {"message": "${walk}".format(re)}\n` })),
      );
      expect(provider.dropped).toEqual([]);
      const episode = await provider.openEpisode();
      const results = await episode.call('make_pre_hint', {});
      await episode.close();
      expect(results.every((r) => 'raw' in r)).toBe(true);
      const text = JSON.stringify(results);
      expect(text).toContain('PYTHONHASHSEED');
      expect(text).not.toContain(CHECKOUT);
      expect(text).not.toContain('worker-main.js');
    } finally {
      await pool.close();
    }
  });

  it('appear in no string or bytes object the interpreter holds (a walk of every object)', async () => {
    // Guards off: the hook walks the garbage collector's view of every container and what it refers to.
    const pool = createSandboxPool({ size: 1, lineBudget: 1_000_000_000, hookTimeoutMs: 60_000, testing: { simulateInterpreterEscape: true } });
    try {
      await pool.ready();
      const code = [
        'def hook(ctx, nb):',
        '    import gc, sys',
        '    sys.settrace(None)',
        '    needle = "".join(ctx["needle"])',
        '    hits = []',
        '    for obj in gc.get_objects():',
        '        if obj is ctx or obj is hits:',
        '            continue',
        '        for ref in gc.get_referents(obj):',
        '            if isinstance(ref, str) and needle in ref or isinstance(ref, bytes) and needle.encode() in ref:',
        '                hits.append("%s: %s" % (type(obj).__name__, ref[:120]))',
        '    return {"message": hits}',
        '',
      ].join('\n');
      const episode = await (await createPythonHookProvider(pool, [{ hook: 'make_pre_hint', code }])).openEpisode();
      // The needle travels in pieces so that the walk does not find ctx's own copy of it.
      const [result] = await episode.call('make_pre_hint', { needle: [...CHECKOUT] });
      await episode.close();
      expect(result).toEqual({ hookIndex: 0, raw: { message: [] } });
    } finally {
      await pool.close();
    }
  }, 120_000);
});
