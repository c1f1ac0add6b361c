import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ALFWORLD_FAULTS, ALFWORLD_SIM_PARAMS } from '../../src/benchmarks/alfworld/simulation/alfworld-sim-settings.js';
import { DBBENCH_FAULTS, DBBENCH_SIM_PARAMS } from '../../src/benchmarks/dbbench/simulation/fault-profile.js';
import { WEBSHOP_FAULTS, WEBSHOP_SIM_PARAMS } from '../../src/benchmarks/webshop/simulation/fault-profile.js';
import { runCli } from './cli-helpers.js';

// The help of run, improve and demo documents the simulated targets from the constants their parsers
// use, and the commands it shows as examples are accepted by the real CLI (each played on a tiny slice).

const root = mkdtempSync(path.join(tmpdir(), 'harness-help-sim-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** What each built-in simulation's parser accepts: its parameter names and its fault names. */
const SIMULATIONS = [
  { bench: 'dbbench', params: DBBENCH_SIM_PARAMS, faults: DBBENCH_FAULTS },
  { bench: 'alfworld', params: ALFWORLD_SIM_PARAMS, faults: ALFWORLD_FAULTS },
  { bench: 'webshop', params: WEBSHOP_SIM_PARAMS, faults: WEBSHOP_FAULTS },
] as const;

const help: Record<string, string> = {};
beforeAll(async () => {
  for (const command of ['run', 'improve', 'demo']) {
    const r = await runCli([command, '--help']);
    expect(r.code, r.stderr).toBe(0);
    help[command] = r.stdout;
  }
}, 120_000);

/** Splits an example line into argv as a POSIX shell would for these examples (single quotes, no escapes). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const match of line.replace(/\s+#.*$/, '').matchAll(/'([^']*)'|(\S+)/g)) words.push(match[1] ?? match[2]!);
  return words;
}

/** The example commands of a help text for `command`: the Examples lines and the per-benchmark `e.g.` lines. */
function examplesOf(text: string, command: string): string[][] {
  return text
    .split('\n')
    .map((line) => line.trim().replace(/^e\.g\. /, ''))
    .filter((line) => line.startsWith(`harness-r1 ${command} `) || line === `harness-r1 ${command}` || line.startsWith(`harness-r1 ${command}  `))
    .map((line) => shellWords(line).slice(1));
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the simulated targets in --help', () => {
  it.each(['run', 'improve', 'demo'])('%s --help lists latency_ms and, per benchmark, its parameters, fault names and an example', (command) => {
    const text = help[command]!;
    expect(text).toMatch(/^ {2}latency_ms=<ms> {2}every sim: target: delay each answer by an integer 0\.\.600000 ms/m);
    for (const { bench, params, faults } of SIMULATIONS) {
      const section = text.split(`\n  sim:${bench}\n`)[1]?.split(/\n {2}\S/)[0];
      expect(section, `${command}: sim:${bench}`).toBeDefined();
      for (const param of params) expect(section).toMatch(new RegExp(`^ {4}${param}: \\S`, 'm'));
      expect(section).toContain(`    fault names: ${faults.join(', ')}\n`);
      expect(section).toMatch(new RegExp(`^ {4}e\\.g\\. harness-r1 ${command} --bench ${bench} `, 'm'));
    }
  });

  it('improve --help has an Examples section and no longer describes a DBBench-only loop', () => {
    expect(help.improve).toMatch(/\nExamples:\n {2}harness-r1 improve /);
    expect(examplesOf(help.improve!, 'improve').length).toBeGreaterThanOrEqual(8);
  });
});

describe('every example in improve --help is accepted', () => {
  const cases = (): string[][] => examplesOf(help.improve!, 'improve');
  it('each example plays on one task (openai: examples reach the pre-flight check of a closed port)', async () => {
    const port = await closedPort();
    const examples = cases();
    // The --patch-source example replays what the --generate-only example wrote, so it runs after the others,
    // on that example's run directory; the generate-only example plays a batch of ten so that it has failures.
    const generating = examples.findIndex((args) => args.includes('--generate-only'));
    const replaying = examples.filter((args) => args.includes('--patch-source'));
    expect(generating, 'a --generate-only example').toBeGreaterThanOrEqual(0);
    expect(replaying, 'a --patch-source example').toHaveLength(1);
    const play = async (args: string[], dir: string, tasks: string[]): Promise<void> => {
      const openai = args.some((a) => a.startsWith('openai:'));
      const played = args.map((a) => a.replace(/^openai:http:\/\/127\.0\.0\.1:\d+/, `openai:http://127.0.0.1:${port}`));
      const source = played.indexOf('--patch-source');
      if (source >= 0) played[source + 1] = path.join(root, `improve-${generating}`, 'patches');
      const r = await runCli([...played, ...tasks, '--batches', '1', '--run-dir', dir]);
      const shown = `${args.join(' ')}\n${r.stderr}`;
      expect(r.stderr, shown).not.toMatch(/unknown option|error: (Invalid|Unknown)|must be/);
      if (openai) {
        expect(r.code, shown).toBe(1);
        expect(r.stderr, shown).toMatch(/pre-flight check of the target .* failed, nothing was played: connection refused/);
      } else {
        expect(r.code, shown).toBe(0);
        expect(r.stdout, shown).toMatch(/batch_000/);
      }
    };
    const tenTasks = ['--tasks', '0:10', '--batch-size', '10'];
    const oneTask = ['--tasks', '0:1', '--batch-size', '1'];
    const first = examples.filter((args) => !args.includes('--patch-source'));
    // Two at a time: each is a whole improve process (baseline, engineer, sandboxed rerun).
    for (let i = 0; i < first.length; i += 2) {
      await Promise.all(first.slice(i, i + 2).map((args) => {
        const index = examples.indexOf(args);
        return play(args, path.join(root, `improve-${index}`), index === generating ? tenTasks : oneTask);
      }));
    }
    await play(replaying[0]!, path.join(root, 'improve-replay'), tenTasks);
    expect(readdirSync(path.join(root, `improve-${generating}`, 'patches')).length).toBeGreaterThan(0);
  }, 900_000);
});

describe('the per-benchmark examples of run and demo --help are accepted', () => {
  it('each run example plays one task', async () => {
    const examples = examplesOf(help.run!, 'run').filter((args) => SIMULATIONS.some(({ bench }) => args.includes(bench)) && args.some((a) => a.startsWith('sim:') && a.includes('?')));
    expect(examples).toHaveLength(SIMULATIONS.length);
    let n = 0;
    for (const args of examples) {
      const r = await runCli([...args, '--tasks', '0:1', '--run-dir', path.join(root, `run-${n++}`)]);
      expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(/success: \d\/1/);
    }
  }, 600_000);

  it('each demo example plays one task', async () => {
    const examples = examplesOf(help.demo!, 'demo').filter((args) => args.includes('--sim-options'));
    expect(examples.length).toBeGreaterThanOrEqual(SIMULATIONS.length + 1);
    let n = 0;
    for (const args of examples) {
      const r = await runCli([...args, '--tasks', '0:1', '--batch-size', '1', '--run-dir', path.join(root, `demo-${n++}`)]);
      expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(/SIMULATED TARGET/);
    }
  }, 900_000);

  it('demo refuses a seed in --sim-options and a bad sim parameter before making the run directory', async () => {
    const seeded = await runCli(['demo', '--bench', 'dbbench', '--sim-options', 'seed=4', '--run-dir', path.join(root, 'demo-seeded')]);
    expect(seeded.code).toBe(2);
    expect(seeded.stderr).toMatch(/^error: --sim-options must not set seed: the demo takes it as --seed\.$/m);
    const bad = path.join(root, 'demo-bad-fault');
    const fault = await runCli(['demo', '--bench', 'webshop', '--sim-options', 'faults=none,nosuch:1', '--run-dir', bad]);
    expect(fault.code).toBe(2);
    expect(fault.stderr).toMatch(/Unknown WebShop fault 'nosuch'/);
    expect(fault.stderr).toContain(WEBSHOP_FAULTS.map((f) => `${f}:R`).join(', '));
    expect(existsSync(bad)).toBe(false);
  }, 120_000);
});
