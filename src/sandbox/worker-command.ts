import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ConfigError } from '../episode/index.js';
import type { NetworkIsolationMode } from './sandbox-options.js';

/** Files a worker needs, resolved at run time (nothing machine-specific is stored in the repository). */
export interface SandboxAssets {
  /** The worker entry point (plain JavaScript). */
  workerScript: string;
  /** Real path of the installed `pyodide` package directory. */
  pyodideDir: string;
  pyodideVersion: string;
  validatorSource: string;
  runnerSource: string;
}

/** Which OS barriers wrap a worker process; the CLI reports them. */
export interface NetworkProtection {
  /**
   * `netns`: the worker runs in an empty network namespace (`unshare`, root); `userns-netns`: the same through
   * an unprivileged user namespace (`unshare -r`); `js-only`: no namespace, only the worker's JS-level
   * lockdown of Node's network APIs, behind the validator and the in-interpreter guards.
   */
  kind: 'netns' | 'userns-netns' | 'js-only';
  /** Whether the worker also has its own PID namespace, so it cannot signal any host process. */
  pidNamespace: boolean;
  /** Command prefix used to start workers, e.g. `['/usr/bin/unshare', '--net', '--pid', '--fork', '--kill-child']`. */
  prefix: string[];
  detail: string;
}

let cachedAssets: SandboxAssets | undefined;

/**
 * Finds the worker script and the Python sources next to this module, or in `src/sandbox` when running
 * from a build directory that did not copy them.
 */
export function resolveSandboxAssets(): SandboxAssets {
  if (cachedAssets) return cachedAssets;
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [here, path.resolve(here, '../../src/sandbox'), path.resolve(here, '../../../src/sandbox')];
  const dir = candidates.find((d) => existsSync(path.join(d, 'worker-main.js')) && existsSync(path.join(d, 'python', 'runner.py')));
  if (dir === undefined) {
    throw new ConfigError({ message: `Sandbox worker files not found (looked in ${candidates.join(', ')}).`, field: 'sandbox' });
  }
  const require = createRequire(import.meta.url);
  let pyodidePackage: string;
  try {
    pyodidePackage = require.resolve('pyodide/package.json');
  } catch (cause) {
    throw new ConfigError({ message: 'The pyodide package is not installed (npm ci installs it).', field: 'sandbox', cause });
  }
  const pyodideDir = realpathSync(path.dirname(pyodidePackage));
  const pyodideVersion = String((JSON.parse(readFileSync(pyodidePackage, 'utf8')) as { version?: unknown }).version);
  cachedAssets = {
    workerScript: realpathSync(path.join(dir, 'worker-main.js')),
    pyodideDir,
    pyodideVersion,
    validatorSource: readFileSync(path.join(dir, 'python', 'validator.py'), 'utf8'),
    runnerSource: readFileSync(path.join(dir, 'python', 'runner.py'), 'utf8'),
  };
  return cachedAssets;
}

/** Node 20 and 21 (and 22 before 22.13) spell the permission flag `--experimental-permission`; later lines `--permission`. */
export function permissionFlag(nodeVersion: string = process.version): '--permission' | '--experimental-permission' {
  const [major = 0, minor = 0] = nodeVersion.replace(/^v/, '').split('.').map(Number);
  if (major > 23 || (major === 23 && minor >= 5) || (major === 22 && minor >= 13)) return '--permission';
  return '--experimental-permission';
}

/**
 * Node arguments of a worker: the permission model with read access to Pyodide's directory and the worker
 * script only; no fs writes, child processes, addons or WASI; worker threads are allowed because the
 * interpreter runs in one (the supervisor thread needs to interrupt it).
 */
export function buildWorkerArgs(input: { nodeVersion?: string; pyodideDir: string; workerScript: string }): string[] {
  const nodeVersion = input.nodeVersion ?? process.version;
  const [major = 0, minor = 0] = nodeVersion.replace(/^v/, '').split('.').map(Number);
  const args = [
    permissionFlag(nodeVersion),
    `--allow-fs-read=${path.join(input.pyodideDir, '*')}`,
    `--allow-fs-read=${input.workerScript}`,
    '--allow-worker',
  ];
  if (major > 20 || (major === 20 && minor >= 11)) args.push('--disable-warning=ExperimentalWarning');
  args.push(input.workerScript);
  return args;
}

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

const PROBE_SCRIPT =
  'const ifs = Object.keys(require("os").networkInterfaces()); process.exit(ifs.length === 0 ? (process.pid === 1 ? 0 : 4) : 3)';

/** 0: no network and own PID namespace; 4: no network; anything else: the prefix does not isolate. */
function probe(prefix: string[]): number | undefined {
  const [command, ...args] = prefix;
  if (command === undefined) return undefined;
  const result = spawnSync(command, [...args, process.execPath, '-e', PROBE_SCRIPT], { stdio: 'ignore', timeout: 10_000, env: {} });
  return result.status ?? undefined;
}

const protectionCache = new Map<NetworkIsolationMode, NetworkProtection>();

const CANDIDATES: Array<{ args: string[]; kind: NetworkProtection['kind']; pid: boolean; detail: string }> = [
  { args: ['--net', '--pid', '--fork', '--kill-child'], kind: 'netns', pid: true, detail: 'empty network namespace and own PID namespace (unshare --net --pid)' },
  { args: ['--net'], kind: 'netns', pid: false, detail: 'empty network namespace (unshare --net)' },
  {
    args: ['--map-root-user', '--net', '--pid', '--fork', '--kill-child'],
    kind: 'userns-netns',
    pid: true,
    detail: 'empty network and PID namespaces inside a user namespace (unshare -r --net --pid)',
  },
  { args: ['--map-root-user', '--net'], kind: 'userns-netns', pid: false, detail: 'empty network namespace inside a user namespace (unshare -r --net)' },
];

/**
 * Decides how workers are kept off the network (and away from host processes). `unshare` variants are probed
 * once, best first, by starting Node inside them and checking it sees no network interface (and is PID 1
 * when a PID namespace is asked for); without any, `auto` falls back to `js-only` and `required` throws a
 * `ConfigError`.
 */
export function detectNetworkProtection(mode: NetworkIsolationMode): NetworkProtection {
  const cached = protectionCache.get(mode);
  if (cached) return cached;
  let result: NetworkProtection | undefined;
  if (mode !== 'off' && process.platform === 'linux') {
    const unshare = findOnPath('unshare');
    for (const candidate of unshare === undefined ? [] : CANDIDATES) {
      const prefix = [unshare as string, ...candidate.args];
      const status = probe(prefix);
      if (status === 0 || (status === 4 && !candidate.pid)) {
        result = { kind: candidate.kind, pidNamespace: candidate.pid, prefix, detail: `workers run in an ${candidate.detail}` };
        break;
      }
    }
  }
  if (result === undefined) {
    if (mode === 'required') {
      throw new ConfigError({
        message:
          'Sandbox network isolation is required but `unshare --net` does not work here (needs Linux with root or unprivileged user namespaces).',
        field: 'networkIsolation',
        allowed: ['auto', 'off'],
      });
    }
    result = {
      kind: 'js-only',
      pidNamespace: false,
      prefix: [],
      detail:
        mode === 'off'
          ? 'network namespace disabled by configuration; Node network APIs are disabled inside the worker'
          : 'no network namespace available (unshare failed); Node network APIs are disabled inside the worker',
    };
  }
  protectionCache.set(mode, result);
  return result;
}
