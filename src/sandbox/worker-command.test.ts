import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';

import { describe, expect, it } from 'vitest';

import { ConfigError } from '../episode/index.js';
import { resolveSandboxOptions } from './sandbox-options.js';
import { buildWorkerArgs, detectNetworkProtection, permissionFlag, resolveSandboxAssets } from './worker-command.js';

describe('worker command line', () => {
  it('spells the permission flag for the running Node line', () => {
    expect(permissionFlag('v20.20.2')).toBe('--experimental-permission');
    expect(permissionFlag('v21.7.0')).toBe('--experimental-permission');
    expect(permissionFlag('v22.12.0')).toBe('--experimental-permission');
    expect(permissionFlag('v22.13.0')).toBe('--permission');
    expect(permissionFlag('v23.5.0')).toBe('--permission');
    expect(permissionFlag('v24.1.0')).toBe('--permission');
  });

  it('grants reads of the Pyodide directory and the worker script only, and no writes, processes or addons', () => {
    const args = buildWorkerArgs({ nodeVersion: 'v20.20.2', pyodideDir: '/opt/py', workerScript: '/opt/app/worker-main.js' });
    expect(args).toEqual([
      '--experimental-permission',
      '--allow-fs-read=/opt/py/*',
      '--allow-fs-read=/opt/app/worker-main.js',
      '--allow-worker',
      '--disable-warning=ExperimentalWarning',
      '/opt/app/worker-main.js',
    ]);
    expect(args.some((a) => /allow-(fs-write|child-process|addons|wasi)/.test(a))).toBe(false);
  });

  it('finds the worker files and Pyodide at run time', () => {
    const assets = resolveSandboxAssets();
    expect(assets.pyodideVersion).toBe('314.0.7');
    expect(assets.workerScript).toMatch(/worker-main\.js$/);
    expect(assets.validatorSource).toContain('def validate_source');
    expect(assets.runnerSource).toContain('def call_hook');
  });
});

describe('network protection', () => {
  it('falls back to js-only when isolation is switched off', () => {
    expect(detectNetworkProtection('off')).toMatchObject({ kind: 'js-only', pidNamespace: false, prefix: [] });
  });

  it('keeps a process started with the chosen prefix off the host loopback and away from host processes', async () => {
    const protection = detectNetworkProtection('auto');
    if (protection.kind === 'js-only') {
      expect(() => detectNetworkProtection('required')).toThrow(ConfigError);
      return;
    }
    let connections = 0;
    const server = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as net.AddressInfo).port;
    const victim = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const script = [
        `const s = require('net').connect(${port}, '127.0.0.1');`,
        `s.on('connect', () => { console.log('connected'); process.exit(0); });`,
        `s.on('error', (e) => { console.log('error ' + e.code); `,
        `  try { process.kill(${victim.pid}, 'SIGKILL'); console.log('killed'); } catch (k) { console.log('kill ' + k.code); }`,
        `  process.exit(0); });`,
      ].join('');
      const [command, ...prefix] = protection.prefix;
      const result = spawnSync(command as string, [...prefix, process.execPath, '-e', script], { encoding: 'utf8', timeout: 20_000 });
      expect(result.stdout).toMatch(/^error E(NETUNREACH|CONNREFUSED|ACCES|PERM)/);
      expect(connections).toBe(0);
      if (protection.pidNamespace) {
        expect(result.stdout).toMatch(/kill ESRCH/);
        expect(victim.exitCode).toBeNull();
        expect(victim.signalCode).toBeNull();
      }
    } finally {
      victim.kill('SIGKILL');
      server.close();
    }
  });
});

describe('resolveSandboxOptions', () => {
  it('fills in the defaults of the original (50 ms, 2000 lines)', () => {
    const options = resolveSandboxOptions();
    expect(options).toMatchObject({ hookTimeoutMs: 50, lineBudget: 2000, killGraceMs: 100, networkIsolation: 'auto', useSnapshot: true });
    expect(options.size).toBeGreaterThanOrEqual(1);
    expect(options.size).toBeLessThanOrEqual(4);
    expect(options.simulateInterpreterEscape).toBe(false);
  });

  it('rejects impossible values, naming the option', () => {
    expect(() => resolveSandboxOptions({ size: 0 })).toThrow(/Sandbox option 'size' must be an integer >= 1; got 0/);
    expect(() => resolveSandboxOptions({ hookTimeoutMs: 1.5 })).toThrow(/'hookTimeoutMs'/);
    expect(() => resolveSandboxOptions({ networkIsolation: 'maybe' as never })).toThrow(/Allowed: auto, required, off/);
    expect(() => resolveSandboxOptions({ memoryLimitMb: 256, recycleHeapMb: 512 })).toThrow(/'recycleHeapMb' \(512\) must not exceed 'memoryLimitMb' \(256\)/);
  });
});
