/**
 * Where a sandboxed hook call's time goes, without the transport: loads Pyodide in this process with the same
 * validator and runner the workers use, then times (a) the runner's `call_hook` called directly from JS (the
 * interpreter side of one sandboxed call: ctx parse, line budget, hook, result serialisation, the JS<->Python
 * boundary), and (b) its parts inside Python: the ctx parse with and without the attribute `object_hook`, the
 * global settrace line budget, and sys.monitoring line events as the alternative. Each figure is the median of
 * several timed batches (robust on a loaded machine). Compare with `sandbox-bench.ts --calls-only` run in the same
 * sitting: the difference is the transport (IPC, supervisor hop, timers).
 *
 *   npx tsx bench/hook-call-breakdown.ts [--calls 2000]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { resolveDataDir } from '../src/config/data-dir.js';

import { resolveSandboxAssets } from '../src/sandbox/worker-command.js';
import { CTX } from './hook-call-ctx.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const calls = Number(arg('--calls', '2000'));
const assets = resolveSandboxAssets();
// Pyodide's loader is untyped here; only the calls below are used.
interface Py {
  globals: { get(name: string): (...args: unknown[]) => PyDict };
  runPython(code: string, options?: { globals?: PyDict; filename?: string }): unknown;
  version: string;
}
interface PyDict {
  get(name: string): (...args: unknown[]) => unknown;
  set(name: string, value: unknown): void;
}
const { loadPyodide } = (await import(pathToFileURL(`${assets.pyodideDir}/pyodide.mjs`).href)) as {
  loadPyodide: (config: Record<string, unknown>) => Promise<Py>;
};
const py = await loadPyodide({ indexURL: `${assets.pyodideDir}/`, env: { PYTHONHASHSEED: '0' }, stdout: () => {}, stderr: () => {} });
py.runPython('import ast, difflib, io, json, math, re, reprlib, tokenize, types, warnings');
const dict = py.globals.get('dict');
const validatorNs = dict();
py.runPython(assets.validatorSource, { globals: validatorNs, filename: 'validator.py' });
const runnerNs = dict();
for (const name of ['check_tree', 'Rejected', 'SAFE_BUILTIN_NAMES', 'PYTHON_VERSION']) runnerNs.set(name, validatorNs.get(name));
py.runPython(assets.runnerSource, { globals: runnerNs, filename: 'runner.py' });
const configure = runnerNs.get('configure') as (s: string) => string;
const openEpisode = runnerNs.get('open_episode') as (id: string, sources: string, benchmark: string) => string;
const callHook = runnerNs.get('call_hook') as (id: string, index: number, ctx: string) => string;

const ctxJson = JSON.stringify(CTX);

// Timed before configure(): the audit hook it installs would refuse the sys / time imports of the probe.
const probe = `
import json, sys, time
ctx_json = ${JSON.stringify(ctxJson)}
class A(dict):
    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None
decoder = json.JSONDecoder(object_hook=A)
def hook(ctx, nb):
    return {"message": "x"}
def median_us(fn, n=${calls}, batches=7):
    times = []
    for _ in range(batches):
        t = time.perf_counter()
        for _ in range(n // batches):
            fn()
        times.append((time.perf_counter() - t) / (n // batches) * 1e6)
    times.sort()
    return times[len(times) // 2]
def tracer(frame, event, arg):
    return None
def with_trace():
    sys.settrace(tracer)
    try:
        hook({}, {})
    finally:
        sys.settrace(None)
out = {
    'parse_object_hook_us': median_us(lambda: json.loads(ctx_json, object_hook=A)),
    'parse_plain_us': median_us(lambda: json.loads(ctx_json)),
    'parse_cached_decoder_us': median_us(lambda: decoder.decode(ctx_json)),
    'call_bare_us': median_us(lambda: hook({}, {})),
    'call_settrace_us': median_us(with_trace),
    'has_sys_monitoring': hasattr(sys, 'monitoring'),
}
if hasattr(sys, 'monitoring'):
    M = sys.monitoring
    tool = M.PROFILER_ID
    M.use_tool_id(tool, 'bench')
    count = [0]
    def on_line(code, line):
        count[0] += 1
    M.register_callback(tool, M.events.LINE, on_line)
    M.set_local_events(tool, hook.__code__, M.events.LINE)
    out['call_monitoring_us'] = median_us(lambda: hook({}, {}))
    M.set_local_events(tool, hook.__code__, 0)
    M.free_tool_id(tool)
json.dumps(out)
`;
const parts = JSON.parse(py.runPython(probe) as string) as Record<string, number | boolean>;

configure(JSON.stringify({ line_budget: 2000, max_result_chars: 20_000, unvalidated: false, host_paths: [] }));
const cases: Array<[string, string, string]> = [
  ['trivial hook, empty ctx', 'def hook(ctx, nb):\n    return {"message": "x"}\n', '{}'],
  ['trivial hook, 1.7 KB ctx', 'def hook(ctx, nb):\n    return {"message": "x"}\n', ctxJson],
  ['hook assigning an attribute (shared-state restore), 1.7 KB ctx', 'def hook(ctx, nb):\n    re.error.planted = 1\n    return {"message": "x"}\n', ctxJson],
];
// The corpus hook sandbox-bench.ts also times (about 280 traced lines per call: the line budget's share shows here).
{
  const file = path.join(resolveDataDir(), 'patches', 'heldout_generalization', 'harness-r1', 'seed20260721', 'alfworld.json');
  const patch = JSON.parse(readFileSync(file, 'utf8')) as { actions?: Array<{ hook?: string; code?: string }> };
  const postStep = patch.actions?.find((a) => a.hook === 'on_post_step')?.code;
  if (postStep !== undefined) cases.push(['corpus ALFWorld on_post_step (3 helpers), 1.7 KB ctx', postStep, ctxJson]);
}
console.log(`hook call breakdown: Node ${process.version}, Pyodide ${py.version} in this process, ${calls} calls`);
for (const [label, code, ctx] of cases) {
  openEpisode('bench', JSON.stringify([code]), '');
  for (let i = 0; i < 200; i++) callHook('bench', 0, ctx);
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    const result = callHook('bench', 0, ctx);
    times.push(performance.now() - t);
    if (result.includes('"fault"')) throw new Error(`${label}: ${result}`);
  }
  times.sort((a, b) => a - b);
  console.log(`runner call_hook without transport, ${label}: p50 ${quantile(times, 0.5).toFixed(3)} ms  p99 ${quantile(times, 0.99).toFixed(3)} ms`);
}
const us = (k: string): string => `${Number(parts[k]).toFixed(1)} us`;
console.log(
  `ctx parse (1.7 KB): json.loads(object_hook=AttrDict) ${us('parse_object_hook_us')}, one cached JSONDecoder(object_hook=AttrDict) ${us('parse_cached_decoder_us')}, plain json.loads ${us('parse_plain_us')}`,
);
console.log(
  `trivial call: bare ${us('call_bare_us')}, under a global settrace ${us('call_settrace_us')}` +
    (parts.has_sys_monitoring ? `, with sys.monitoring LINE events on its code only ${us('call_monitoring_us')}` : '; sys.monitoring not available'),
);
