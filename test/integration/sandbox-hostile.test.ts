/**
 * The hostile hook corpus (test/fixtures/hostile-hooks): every case is either rejected by the validator with
 * the expected reason class or contained at run time with the expected fault, the episode goes on (a canary
 * hook installed after it keeps answering), and the host sees nothing: no file read or written, no process
 * started or signalled, no connection or datagram received, no host secret in any result.
 *
 * `escape/` holds payloads that assume the interpreter has already been escaped (they import `pyodide_js`
 * and call Node directly). They run in pools with `simulateInterpreterEscape` (no validation, full builtins,
 * no in-interpreter guards), once with the network namespace and once without, to show that the OS-level
 * boundary alone contains them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { isHookName, type HookName } from '../../src/episode/index.js';
import type { EpisodeHooks, HookCallResult } from '../../src/hooks/hook-provider.js';
import { compileHook } from '../../src/sandbox/compile-hook.js';
import { createPythonHookProvider } from '../../src/sandbox/python-hook-provider.js';
import { createSandboxPool, type SandboxPool } from '../../src/sandbox/worker-pool.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/hostile-hooks');
const CHECKOUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FAULT_KINDS = ['exception', 'line_budget', 'timeout', 'memory', 'bad_result', 'worker_crash', 'disabled', 'none'] as const;
const REASON_CLASSES = ['forbidden_syntax', 'forbidden_name', 'newer_syntax', 'try_rule', 'size', 'alfworld_instance', 'structure', 'syntax'] as const;

type Expectation = { kind: 'rejected'; reasonClass: string } | { kind: 'contained'; fault: string };

interface HostileCase {
  name: string;
  source: string;
  expect: Expectation;
  hook: HookName;
  benchmark: string | undefined;
  calls: number;
  mustNotContain: string | undefined;
}

function loadCases(dir: string): HostileCase[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.py'))
    .sort()
    .map((file) => {
      const source = readFileSync(path.join(dir, file), 'utf8');
      const meta = new Map([...source.matchAll(/^# ([a-z-]+): (.*)$/gm)].map((m) => [m[1] as string, (m[2] as string).trim()]));
      const [verdict, detail] = (meta.get('expect') ?? '').split(/\s+/);
      let expectation: Expectation;
      if (verdict === 'rejected' && (REASON_CLASSES as readonly string[]).includes(detail ?? '')) {
        expectation = { kind: 'rejected', reasonClass: detail as string };
      } else if (verdict === 'contained' && (detail ?? '').split('|').every((k) => (FAULT_KINDS as readonly string[]).includes(k))) {
        expectation = { kind: 'contained', fault: detail as string };
      } else {
        throw new Error(`${file}: bad "# expect:" line`);
      }
      const hook = meta.get('hook') ?? 'make_pre_hint';
      if (!isHookName(hook)) throw new Error(`${file}: unknown hook ${hook}`);
      return {
        name: file.replace(/\.py$/, ''),
        source,
        expect: expectation,
        hook,
        benchmark: meta.get('benchmark'),
        calls: Number(meta.get('calls') ?? '1'),
        mustNotContain: meta.get('must-not-contain'),
      };
    });
}

/** The rule family a rejection reason belongs to (the reason texts are listed in compile-hook.test.ts). */
function reasonClass(reason: string): string {
  if (reason.startsWith('hook uses forbidden syntax:')) return 'forbidden_syntax';
  if (/^hook uses (forbidden name|forbidden attribute|a name starting|an attribute starting)/.test(reason)) return 'forbidden_name';
  if (reason.startsWith('hook uses syntax newer than Python 3.10')) return 'newer_syntax';
  if (/^(try statements|try\/except handlers|exception alias)/.test(reason)) return 'try_rule';
  if (/^(hook code exceeds|hook code has \d+ AST nodes|hook string constant exceeds)/.test(reason)) return 'size';
  if (reason.includes('numbered ALFWorld instance')) return 'alfworld_instance';
  if (reason.startsWith('invalid syntax')) return 'syntax';
  return 'structure';
}

/** What the host owns and watches while hostile code runs. */
interface Host {
  dir: string;
  secret: string;
  secretFile: string;
  writePath: string;
  markerPath: string;
  envSecret: string;
  nbSecret: string;
  tcp: net.Server;
  tcpConnections: number;
  udp: dgram.Socket;
  udpMessages: number;
  victim: ChildProcess;
}

let host: Host;

async function startHost(): Promise<Host> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hostile-hooks-'));
  const secret = `host-secret-${randomBytes(8).toString('hex')}`;
  const secretFile = path.join(dir, 'secret.txt');
  writeFileSync(secretFile, secret);
  const state = { tcpConnections: 0, udpMessages: 0 };
  const tcp = net.createServer((socket) => {
    state.tcpConnections++;
    socket.destroy();
  });
  tcp.listen(0, '127.0.0.1');
  await once(tcp, 'listening');
  const udp = dgram.createSocket('udp4');
  udp.on('message', () => state.udpMessages++);
  udp.bind(0, '127.0.0.1');
  await once(udp, 'listening');
  const victim = spawn('sleep', ['600'], { stdio: 'ignore' });
  const envSecret = `env-secret-${randomBytes(8).toString('hex')}`;
  process.env.HARNESS_HOSTILE_TEST_SECRET = envSecret;
  return {
    dir,
    secret,
    secretFile,
    writePath: path.join(dir, 'written-by-hook.txt'),
    markerPath: path.join(dir, 'marker-from-process'),
    envSecret,
    nbSecret: `nb-secret-${randomBytes(8).toString('hex')}`,
    tcp,
    get tcpConnections() {
      return state.tcpConnections;
    },
    udp,
    get udpMessages() {
      return state.udpMessages;
    },
    victim,
  };
}

function substitute(text: string): string {
  return text
    .replaceAll('{{SECRET_FILE}}', host.secretFile)
    .replaceAll('{{SECRET_DIR}}', path.dirname(host.secretFile))
    .replaceAll('{{SECRET_NAME}}', path.basename(host.secretFile))
    .replaceAll('{{SECRET}}', host.secret)
    .replaceAll('{{WRITE_PATH}}', host.writePath)
    .replaceAll('{{MARKER_PATH}}', host.markerPath)
    .replaceAll('{{PORT}}', String((host.tcp.address() as net.AddressInfo).port))
    .replaceAll('{{UDP_PORT}}', String(host.udp.address().port))
    .replaceAll('{{VICTIM_PID}}', String(host.victim.pid))
    .replaceAll('{{HOST_ENV_SECRET}}', host.envSecret)
    .replaceAll('{{NB_SECRET}}', host.nbSecret)
    .replaceAll('{{CHECKOUT}}', CHECKOUT);
}

const CANARY = 'def hook(ctx, nb):\n    nb["canary"] = nb.get("canary", 0) + 1\n    return {"message": "alive", "probe": ctx.probe}\n';

function outcome(result: HookCallResult | undefined): string {
  if (result === undefined) return 'missing';
  return 'fault' in result ? result.fault.kind : 'none';
}

/** Runs one case and checks everything the episode and the caller can see; returns all result text. */
async function runCase(pool: SandboxPool, c: HostileCase): Promise<string> {
  const source = substitute(c.source);
  const verdict = await compileHook(pool, source, { numberedInstances: c.benchmark === 'alfworld' });
  if (c.expect.kind === 'rejected') {
    expect(verdict.ok, `${c.name} should be rejected`).toBe(false);
    if (!verdict.ok) expect(reasonClass(verdict.reason), verdict.reason).toBe(c.expect.reasonClass);
    const provider = await createPythonHookProvider(pool, [{ hook: c.hook, code: source }], { rules: { numberedInstances: c.benchmark === 'alfworld' } });
    expect(provider.dropped).toHaveLength(1);
    expect((await provider.openEpisode()).count(c.hook)).toBe(0);
    return JSON.stringify(verdict);
  }
  expect(verdict.ok, `${c.name} should pass the validator: ${verdict.ok ? '' : verdict.reason}`).toBe(true);
  const provider = await createPythonHookProvider(
    pool,
    [
      { hook: c.hook, code: source },
      { hook: c.hook, code: CANARY },
    ],
    { rules: { numberedInstances: c.benchmark === 'alfworld' } },
  );
  expect(provider.dropped).toEqual([]);
  const episode: EpisodeHooks = await provider.openEpisode();
  const seen: string[] = [];
  const texts: string[] = [];
  try {
    for (let i = 0; i <= c.calls; i++) {
      const ctx = { probe: 'p', admissible: ['look'], step: i };
      const before = structuredClone(ctx);
      const results = await episode.call(c.hook, ctx);
      texts.push(JSON.stringify(results));
      expect(ctx, 'the caller ctx is never changed').toEqual(before);
      expect(results.map((r) => r.hookIndex)).toEqual([0, 1]);
      if (i < c.calls) {
        seen.push(outcome(results[0]));
      }
      const canary = results[1];
      // After a worker loss the canary of the same call may report the loss; the call after must be normal.
      if (i === c.calls || canary === undefined || !('fault' in canary)) {
        expect(canary, `${c.name}: canary on call ${i}`).toEqual({ hookIndex: 1, raw: { message: 'alive', probe: 'p' } });
      } else {
        expect(canary.fault.kind).toBe('worker_crash');
      }
    }
  } finally {
    await episode.close();
  }
  const expected = c.expect.fault;
  if (expected === 'none') {
    expect(seen, `${c.name}: outcomes`).toEqual(seen.map(() => 'none'));
  } else {
    // `memory|timeout`: either limit may stop a payload first, depending on how loaded the machine is.
    const allowed = expected.split('|');
    expect(seen.some((s) => allowed.includes(s)), `${c.name}: outcomes ${JSON.stringify(seen)} include one of ${expected}`).toBe(true);
    expect(seen.filter((s) => s !== 'none' && !allowed.includes(s)), `${c.name}: only the expected faults`).toEqual([]);
  }
  const all = texts.join('\n');
  if (c.mustNotContain !== undefined) expect(all).not.toContain(substitute(c.mustNotContain));
  return all;
}

function assertHostUntouched(results: string[]): void {
  const all = results.join('\n');
  expect(all, 'the host secret file was never read').not.toContain(host.secret);
  expect(all, 'the host environment never reached a hook').not.toContain(host.envSecret);
  expect(existsSync(host.writePath), 'no file was written').toBe(false);
  expect(existsSync(host.markerPath), 'no process ran').toBe(false);
  expect(readdirSync(host.dir), 'nothing appeared in the host directory').toEqual(['secret.txt']);
  expect(host.tcpConnections, 'no TCP connection reached the host').toBe(0);
  expect(host.udpMessages, 'no datagram reached the host').toBe(0);
  expect(host.victim.exitCode, 'the host process was not signalled').toBeNull();
  expect(host.victim.signalCode).toBeNull();
}

const cases = loadCases(FIXTURES);
const escapeCases = loadCases(path.join(FIXTURES, 'escape'));

beforeAll(async () => {
  host = await startHost();
});

afterAll(async () => {
  host.victim.kill('SIGKILL');
  host.tcp.close();
  host.udp.close();
  delete process.env.HARNESS_HOSTILE_TEST_SECRET;
  rmSync(host.dir, { recursive: true, force: true });
});

describe('hostile hook corpus against the hardened sandbox', () => {
  let pool: SandboxPool;
  let victim: EpisodeHooks;
  const results: string[] = [];
  const VICTIM = [
    'def hook(ctx, nb):',
    '    if "secret" not in nb:',
    '        nb["secret"] = ctx.secret',
    '    return {"message": nb["secret"], "ratio": SequenceMatcher(None, "abc", "abd").ratio(), "pi": math.pi,',
    '            "re": re.search("B+", "abbc", re.I).group(0),',
    '            "planted": "planted" in "{0.error.__dict__}{0.search.__dict__}{0.NOFLAG.__dict__}".format(re)}',
    '',
  ].join('\n');
  // `planted`: state a hostile episode set on a shared object (`re.error.x = ...`) must not be visible here.
  const victimExpected = (): unknown => [{ hookIndex: 0, raw: { message: host.nbSecret, ratio: 2 / 3, pi: Math.PI, re: 'bb', planted: false } }];

  beforeAll(async () => {
    // One worker, so every hostile episode shares the interpreter with the victim episode.
    pool = createSandboxPool({ size: 1, hookTimeoutMs: 1000, memoryLimitMb: 512, recycleHeapMb: 384 });
    await pool.ready();
    victim = await (await createPythonHookProvider(pool, [{ hook: 'make_pre_hint', code: VICTIM }])).openEpisode();
    expect(await victim.call('make_pre_hint', { secret: host.nbSecret })).toEqual(victimExpected());
  });

  afterAll(async () => {
    await victim.close();
    await pool.close();
  });

  it('has at least 50 cases covering every family, with both verdicts', () => {
    expect(cases.length).toBeGreaterThanOrEqual(50);
    expect(cases.filter((c) => c.expect.kind === 'rejected').length).toBeGreaterThanOrEqual(20);
    expect(cases.filter((c) => c.expect.kind === 'contained').length).toBeGreaterThanOrEqual(20);
  });

  for (const c of cases) {
    it(`${c.name}: ${c.expect.kind === 'rejected' ? `rejected (${c.expect.reasonClass})` : `contained (${c.expect.fault})`}`, async () => {
      results.push(await runCase(pool, c));
    });
  }

  it('left the host untouched and other episodes intact', async () => {
    expect(results).toHaveLength(cases.length);
    assertHostUntouched(results);
    const after = await victim.call('make_pre_hint', { secret: 'ignored' });
    // The victim shared the worker; if a hostile case killed it, the loss is reported and the next call starts over.
    if (after.every((r) => 'fault' in r && r.fault.kind === 'worker_crash')) {
      expect(await victim.call('make_pre_hint', { secret: host.nbSecret })).toEqual(victimExpected());
    } else {
      expect(after).toEqual(victimExpected());
    }
  });
});

// The two variants play side by side, one pool each: the payloads that block the interpreter thread wait
// for the parent's kill deadline (about 22 s, twice per case), and those waits need not add up.
describe('escape payloads with the validator and interpreter guards bypassed (network isolation: auto and off)', () => {
  const variants = (['auto', 'off'] as const).map((isolation) => ({ isolation, pool: undefined as SandboxPool | undefined, results: [] as string[] }));

  beforeAll(async () => {
    await Promise.all(
      variants.map(async (v) => {
        v.pool = createSandboxPool({
          size: 1,
          hookTimeoutMs: 1000,
          memoryLimitMb: 256,
          recycleHeapMb: 256,
          networkIsolation: v.isolation,
          testing: { simulateInterpreterEscape: true },
        });
        const info = await v.pool.ready();
        expect(info.network.kind === 'js-only').toBe(v.isolation === 'off' || info.network.kind === 'js-only');
      }),
    );
  });

  afterAll(async () => {
    await Promise.all(variants.map((v) => v.pool?.close()));
  });

  for (const c of escapeCases) {
    it(`${c.name}: contained (${c.expect.kind === 'contained' ? c.expect.fault : '?'}) with isolation auto and off`, async () => {
      const outputs = await Promise.all(variants.map((v) => runCase(v.pool!, c)));
      outputs.forEach((text, i) => variants[i]!.results.push(text));
    }, 300_000); // block-thread-forever waits twice for the ~22 s kill deadline: near the 60 s default under load
  }

  for (const v of variants) {
    it(`left the host untouched (network isolation: ${v.isolation})`, () => {
      expect(v.results).toHaveLength(escapeCases.length);
      assertHostUntouched(v.results);
    });
  }
});
