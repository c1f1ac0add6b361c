/**
 * `npm run bench [-- --quick]`: every bench of this folder, each in its own process, then one table of the
 * figures they printed, each beside its anchor (a goal, or the figure a document states) and the ratio
 * figure / anchor where one exists. `--quick` runs each at a small size (a few minutes in all on two
 * cores); without it the benches run at their own defaults. Figures from the simulated targets are the
 * simulated targets'. A bench that fails is a row too (its exit code), and the suite exits 1.
 *
 *   npm run bench -- [--quick] [--only name,name]
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(BENCH_DIR, '..');
const quick = process.argv.includes('--quick');
const only = process.argv.includes('--only') ? (process.argv[process.argv.indexOf('--only') + 1] ?? '').split(/,(?! )/) : undefined;

interface Figure {
  label: string;
  /** The first capture group is the value. */
  pattern: RegExp;
  unit: string;
  /** A goal or a documented figure, and where it comes from. */
  anchor?: { value: number; source: string };
}

interface Entry {
  name: string;
  /** A bench file, run through tsx, or the CLI (`bin/harness-r1.js`). */
  command: { bench: string } | { cli: true };
  args: string[];
  quickArgs: string[];
  figures: Figure[];
}

const n = String.raw`([\d.]+)`;
const ENTRIES: Entry[] = [
  {
    name: 'cli start-up', command: { cli: true }, args: ['--version'], quickArgs: ['--version'],
    figures: [{ label: 'harness-r1 --version (wall of the whole process)', pattern: /^$/, unit: 'ms' }],
  },
  {
    name: 'demo', command: { cli: true }, args: ['demo', '--bench', 'dbbench'], quickArgs: ['demo', '--bench', 'dbbench'],
    figures: [{ label: 'demo --bench dbbench (wall of the whole process)', pattern: /^$/, unit: 's', anchor: { value: 7.7, source: 'README (6.8–7.7 s quiet)' } }],
  },
  {
    name: 'concurrency', command: { bench: 'concurrency-bench.ts' }, args: ['--tasks', '64', '--concurrency', '64'], quickArgs: ['--tasks', '64', '--concurrency', '64'],
    figures: (['dbbench', 'alfworld', 'webshop'].map((bench): Figure => ({
      label: `${bench}: efficiency at 64 concurrent, 200 ms/turn (sim)`, pattern: new RegExp(`^${bench}: .*efficiency ${n}`), unit: '×bound', anchor: { value: 0.9, source: 'goal ≥ 0.9' },
    })) as Figure[]).concat(['dbbench', 'alfworld', 'webshop'].map((bench): Figure => ({
      label: `${bench}: nominal bound (turns × 200 ms) over wall at 64 (sim)`, pattern: new RegExp(`^${bench}: .*over the nominal bound \\d+ ms: ${n}`), unit: '×bound', anchor: { value: 0.9, source: 'goal ≥ 0.9' },
    })), ['dbbench', 'alfworld', 'webshop'].map((bench): Figure => ({
      label: `${bench}: model turn median at 64, 200 ms nominal (sim)`, pattern: new RegExp(`^${bench}: .*model turn median ${n} ms`), unit: 'ms', anchor: { value: 200, source: 'the simulated latency' },
    })), ['dbbench', 'alfworld', 'webshop'].map((bench): Figure => ({
      label: `${bench}: peak RSS, process + children, at 64`, pattern: new RegExp(`^${bench}: .*peak tree RSS ${n}`), unit: 'MB',
    }))),
  },
  {
    name: 'step overhead', command: { bench: 'concurrency-bench.ts' }, args: ['--tasks', '64', '--concurrency', '8'], quickArgs: ['--tasks', '24', '--concurrency', '8'],
    figures: ['dbbench', 'alfworld', 'webshop'].flatMap((bench) => [
      { label: `${bench}: per-step overhead p50 at 8 (sim)`, pattern: new RegExp(`^${bench}: .*step overhead p50 ${n}`), unit: 'ms', anchor: { value: 0.5, source: 'goal ≤ 0.5 ms' } },
      { label: `${bench}: per-step overhead p99 at 8 (sim)`, pattern: new RegExp(`^${bench}: .*p99 ${n} ms`), unit: 'ms', anchor: { value: 5, source: 'goal ≤ 5 ms' } },
    ]),
  },
  {
    // The same, with the simulated target in a process of its own (as a real model server would be): its
    // work no longer runs on the runtime's event loop, so what is left is the runtime's own overhead.
    name: 'step overhead, sim in own process', command: { bench: 'concurrency-bench.ts' }, args: ['--tasks', '64', '--concurrency', '8', '--sim-process'], quickArgs: ['--tasks', '24', '--concurrency', '8', '--sim-process'],
    figures: ['dbbench', 'alfworld', 'webshop'].flatMap((bench) => [
      { label: `${bench}: per-step overhead p50 at 8, sim in own process`, pattern: new RegExp(`^${bench}: .*step overhead p50 ${n}`), unit: 'ms', anchor: { value: 0.5, source: 'goal ≤ 0.5 ms' } },
      { label: `${bench}: per-step overhead p99 at 8, sim in own process`, pattern: new RegExp(`^${bench}: .*p99 ${n} ms`), unit: 'ms', anchor: { value: 5, source: 'goal ≤ 5 ms' } },
    ]),
  },
  {
    // DBBench's dev split has 60 tasks, so its p99 above is the single worst episode; 300 standard tasks
    // give a p99 that is the third-worst.
    name: 'step overhead, dbbench standard', command: { bench: 'concurrency-bench.ts' },
    args: ['--bench', 'dbbench', '--split', 'standard', '--tasks', '300', '--concurrency', '8'], quickArgs: ['--bench', 'dbbench', '--split', 'standard', '--tasks', '60', '--concurrency', '8'],
    figures: [
      { label: 'dbbench standard: per-step overhead p50 at 8 (sim)', pattern: new RegExp(`^dbbench: .*step overhead p50 ${n}`), unit: 'ms', anchor: { value: 0.5, source: 'goal ≤ 0.5 ms' } },
      { label: 'dbbench standard: per-step overhead p99 at 8 (sim)', pattern: new RegExp(`^dbbench: .*p99 ${n} ms`), unit: 'ms', anchor: { value: 5, source: 'goal ≤ 5 ms' } },
    ],
  },
  {
    name: 'runtime', command: { bench: 'runtime-bench.ts' }, args: [], quickArgs: ['--tasks', '0:16', '--repeat', '1'],
    figures: [{ label: 'DBBench runtime overhead per turn, concurrency 8, no latency (sim)', pattern: /^concurrency 8: .*runtime overhead ([\d.]+) ms\/turn/, unit: 'ms' }],
  },
  {
    name: 'sandbox', command: { bench: 'sandbox-bench.ts' }, args: [], quickArgs: ['--calls', '300', '--repeat', '1'],
    figures: [
      { label: 'sandbox: first worker ready (snapshot on)', pattern: /^cold start \(snapshot on\): first worker ready (\d+) ms/, unit: 'ms' },
      { label: 'sandbox: warm hook call p50', pattern: /^warm call, [^:]*: p50 ([\d.]+) ms/, unit: 'ms' },
      { label: 'sandbox: warm hook call p99', pattern: /^warm call, [^:]*: p50 [\d.]+ ms {2}p99 ([\d.]+) ms/, unit: 'ms', anchor: { value: 0.5, source: 'goal ≤ 0.5 ms' } },
      { label: 'sandbox: validation per patch p50', pattern: /^validation per patch .*: p50 ([\d.]+) ms/, unit: 'ms' },
    ],
  },
  {
    name: 'sqlite statements', command: { bench: 'sqlite-statement-bench.ts' }, args: [], quickArgs: ['--statements', '60', '--tasks', '4'],
    figures: [
      { label: 'SQLite: isolation overhead per SELECT', pattern: /^overhead of isolation \(µs\): select (\d+)/, unit: 'µs' },
      { label: 'SQLite: first open (database host start)', pattern: /^database process\s+\d+\s+\d+\s+\d+\s+[\d.]+\s+(\d+)/, unit: 'ms' },
    ],
  },
  {
    // The exchange with a database process that a DBBench statement pays when it goes to one.
    name: 'process round trip', command: { bench: 'process-round-trip-bench.ts' }, args: [], quickArgs: ['--samples', '10'],
    figures: [
      { label: 'bare child-process exchange after a 200 ms idle gap', pattern: /^echo child process .*after idle ([\d.]+) ms/, unit: 'ms', anchor: { value: 0.5, source: 'DBBench step goal ≤ 0.5 ms' } },
      { label: 'point SELECT after a 200 ms idle gap, in a database process', pattern: /^point SELECT, in a database process .*after idle ([\d.]+) ms/, unit: 'ms' },
      { label: 'point SELECT after a 200 ms idle gap, default isolation (bounded: this thread)', pattern: /^point SELECT, default .*after idle ([\d.]+) ms/, unit: 'ms', anchor: { value: 0.5, source: 'DBBench step goal ≤ 0.5 ms' } },
      { label: 'point SELECT after a 200 ms idle gap, inline', pattern: /^point SELECT, inline .*after idle ([\d.]+) ms/, unit: 'ms' },
    ],
  },
  {
    // The same warm code, back to back and after an idle gap: what a step pays for running after a model turn.
    name: 'idle gap', command: { bench: 'idle-gap-bench.ts' }, args: [], quickArgs: ['--gaps', '0,200'],
    figures: [
      { label: 'DBBench statement in this thread, back to back', pattern: /^gap +0 ms: dbbench statement p50 ([\d.]+) ms/, unit: 'ms' },
      { label: 'DBBench statement in this thread, after a 200 ms idle gap', pattern: /^gap 200 ms: dbbench statement p50 ([\d.]+) ms/, unit: 'ms', anchor: { value: 0.5, source: 'DBBench step goal ≤ 0.5 ms' } },
      { label: 'plain-JS reference, after 200 ms idle / back to back', pattern: /^gap 200 ms: .*plain-JS reference p50 [\d.]+ ms \(×([\d.]+)\)/, unit: '×' },
    ],
  },
  {
    name: 'alfworld engine', command: { bench: 'alfworld-bench.ts' }, args: [], quickArgs: ['--repeat', '1', '--random-steps', '10'],
    figures: [{ label: 'ALFWorld walkthrough steps/s (first wording)', pattern: /^ {2}walkthrough steps: (\d+) steps\/s/, unit: 'steps/s' }],
  },
  {
    name: 'webshop engine', command: { bench: 'webshop-bench.ts' }, args: [], quickArgs: ['--episodes', '200'],
    figures: [{ label: 'WebShop random-episode steps/s', pattern: /^random episodes: .* = (\d+) steps\/s/, unit: 'steps/s' }],
  },
  {
    name: 'statistics', command: { bench: 'statistics-bench.ts' }, args: [], quickArgs: [],
    figures: [{ label: 'bootstrap at 1,270 tasks', pattern: /^bootstrap 1,270 tasks .*: (\d+) ms/, unit: 'ms' }],
  },
  {
    name: 'model faults', command: { bench: 'model-fault-bench.ts' }, args: [], quickArgs: ['--tasks', '0:16'],
    figures: [{ label: 'model_error episodes under 20 % spoiled answers (sim)', pattern: /^model_error episodes: (\d+) of/, unit: 'episodes', anchor: { value: 0, source: 'retries absorb them' } }],
  },
  {
    // One model call's cost to this process: the adapter against the openai client over fetch (its transport until then).
    name: 'model client', command: { bench: 'model-client-bench.ts' }, args: [], quickArgs: ['--calls', '100', '--gap-calls', '10', '--rounds', '1'],
    figures: [
      { label: 'model call, this thread\'s cpu, back to back: adapter / openai client', pattern: /^adapter \(node:http\): .*\(×([\d.]+) \/ ×[\d.]+ of the openai client's cpu\)/, unit: '×' },
      { label: 'model call, this thread\'s cpu, after 200 ms idle: adapter / openai client', pattern: /^adapter \(node:http\): .*\(×[\d.]+ \/ ×([\d.]+) of the openai client's cpu\)/, unit: '×' },
      { label: 'model call latency p50 after 200 ms idle, adapter (local server)', pattern: /^adapter \(node:http\): .*after idle cpu [\d.]+ ms\/call, p50 ([\d.]+) ms/, unit: 'ms' },
    ],
  },
  {
    name: 'model body cap', command: { bench: 'model-body-cap-bench.ts' }, args: [], quickArgs: [],
    figures: [{ label: 'hostile body: peak RSS growth (first case)', pattern: /peak RSS \+([\d.]+) MiB/, unit: 'MiB' }],
  },
  {
    name: 'held-out figures', command: { bench: 'heldout-figures.ts' }, args: [], quickArgs: [],
    figures: [{ label: 'held-out statistics time per editor', pattern: /\(paired statistics: .*, ([\d.]+) s for the editor\)/, unit: 's' }],
  },
  {
    name: 'serve-reward', command: { bench: 'serve-reward-bench.ts' }, args: [], quickArgs: ['--hits', '300', '--reruns', '4', '--concurrency', '4'],
    figures: [
      { label: 'serve-reward: cache hits, single-item requests (sim)', pattern: /^cache hits: ([\d.]+) rewards\/s/, unit: 'rewards/s' },
      { label: 'serve-reward: cache hits, 100-item requests (sim)', pattern: /; ([\d.]+) rewards\/s in 100-item/, unit: 'rewards/s' },
      { label: 'serve-reward: p50 overhead of a cache hit', pattern: /cache hit ([\d.]+) ms;/, unit: 'ms' },
      { label: 'serve-reward: p50 overhead of a new job besides its rerun', pattern: /besides its rerun ([\d.]+) ms/, unit: 'ms' },
      { label: 'serve-reward: reruns in flight at peak, 200 ms/turn (sim)', pattern: /rerun concurrency: peak (\d+) of/, unit: 'reruns' },
    ],
  },
];

function run(entry: Entry): Promise<{ code: number | null; stdout: string; stderr: string; wallMs: number }> {
  const args = quick ? entry.quickArgs : entry.args;
  const argv = 'cli' in entry.command
    ? [path.join(ROOT, 'bin', 'harness-r1.js'), ...args]
    : ['--import', 'tsx', path.join(BENCH_DIR, entry.command.bench), ...args];
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr, wallMs: performance.now() - started }));
  });
}

interface Row { bench: string; figure: string; value: string; anchor: string; ratio: string }
const rows: Row[] = [];
let failed = false;
// Arguments are checked before anything runs: a typo must not start a suite that takes most of an hour.
{
  const names = ENTRIES.map((e) => e.name);
  const usage = `usage: npm run bench -- [--quick] [--only name,name]\n  benches (--only takes them joined by a comma without a space): ${names.map((n) => `'${n}'`).join(' ')}\n  e.g. npm run bench -- --quick --only "cli start-up,demo"`;
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(usage);
    process.exit(0);
  }
  const args = process.argv.slice(2);
  const unknown = args.filter((a, i) => a !== '--quick' && a !== '--only' && args[i - 1] !== '--only');
  const badNames = only?.filter((n) => !names.includes(n)) ?? [];
  if (unknown.length > 0 || badNames.length > 0) {
    console.error(`${unknown.length > 0 ? `unknown argument: ${unknown.join(' ')}` : `--only: no bench named ${badNames.map((n) => `'${n}'`).join(', ')}`}\n${usage}`);
    process.exit(2);
  }
}

for (const entry of ENTRIES.filter((e) => !only || only.includes(e.name))) {
  process.stderr.write(`bench: ${entry.name}…\n`);
  const result = await run(entry);
  if (result.code !== 0) {
    failed = true;
    rows.push({ bench: entry.name, figure: `exit ${result.code}: ${result.stderr.trim().split('\n').at(-1) ?? ''}`.slice(0, 90), value: '', anchor: '', ratio: '' });
    continue;
  }
  const lines = result.stdout.split('\n');
  for (const figure of entry.figures) {
    // A whole-process figure (empty pattern) is the run's own wall time.
    const wall = figure.pattern.source === '^$';
    const match = wall ? undefined : lines.map((l) => figure.pattern.exec(l)).find((m) => m);
    const value = wall ? (figure.unit === 's' ? result.wallMs / 1000 : result.wallMs) : match ? Number(match[1]) : Number.NaN;
    const anchor = figure.anchor;
    rows.push({
      bench: entry.name,
      figure: figure.label,
      value: Number.isNaN(value) ? 'not printed' : `${value.toFixed(value < 10 ? 3 : 0)} ${figure.unit}`,
      anchor: anchor ? `${anchor.value} (${anchor.source})` : '',
      ratio: anchor && anchor.value !== 0 && !Number.isNaN(value) ? `${(value / anchor.value).toFixed(2)}` : '',
    });
  }
}

const headers: Row = { bench: 'bench', figure: 'figure', value: 'value', anchor: 'anchor', ratio: 'value/anchor' };
const keys = Object.keys(headers) as (keyof Row)[];
const widths = keys.map((k) => Math.max(...[headers, ...rows].map((r) => r[k].length)));
const line = (r: Row): string => keys.map((k, i) => r[k].padEnd(widths[i]!)).join(' | ');
console.log(`bench suite (${quick ? 'quick' : 'full'} sizes), Node ${process.version}`);
console.log(line(headers));
console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
for (const r of rows) console.log(line(r));
process.exit(failed ? 1 : 0);
