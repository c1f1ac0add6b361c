import os from 'node:os';

import { afterEach, describe, expect, it, vi } from 'vitest';

import { ConfigError } from '../episode/index.js';
import { DEFAULT_HOOK_KILL_LIMIT, resolveSandboxOptions, type SandboxPoolOptions } from './sandbox-options.js';

/** The error `resolveSandboxOptions` throws for `options`, or a test failure when it accepts them. */
function rejection(options: SandboxPoolOptions): ConfigError {
  try {
    resolveSandboxOptions(options);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(options)}`);
}

// Each integer option with its default and its smallest allowed value.
const INTEGER_OPTIONS: [keyof SandboxPoolOptions & keyof ReturnType<typeof resolveSandboxOptions>, number, number][] = [
  ['hookTimeoutMs', 50, 1],
  ['killGraceMs', 100, 0],
  ['lineBudget', 2000, 1],
  ['hookKillLimit', 2, 0],
  ['memoryLimitMb', 1024, 64],
  ['recycleHeapMb', 384, 32],
  ['compileTimeoutMs', 15_000, 1],
  ['startTimeoutMs', 120_000, 1],
  ['maxResultChars', 1_000_000, 1],
  ['interpreterStackMb', 256, 4],
  ['size', 1, 1],
];

describe('resolveSandboxOptions: defaults', () => {
  it('fills in every default', () => {
    const cores = os.availableParallelism();
    expect(resolveSandboxOptions()).toEqual({
      size: Math.max(1, Math.min(4, cores)),
      hookTimeoutMs: 50,
      killGraceMs: 100,
      lineBudget: 2000,
      hookKillLimit: 2,
      memoryLimitMb: 1024,
      recycleHeapMb: 384,
      compileTimeoutMs: 15_000,
      startTimeoutMs: 120_000,
      maxResultChars: 1_000_000,
      networkIsolation: 'auto',
      useSnapshot: true,
      interpreterStackMb: 256,
      simulateInterpreterEscape: false,
    });
    expect(DEFAULT_HOOK_KILL_LIMIT).toBe(2);
  });

  it('gives the same defaults for an empty options object', () => {
    expect(resolveSandboxOptions({})).toEqual(resolveSandboxOptions());
  });
});

describe('resolveSandboxOptions: default size from the core count', () => {
  const available = os.availableParallelism;

  afterEach(() => {
    os.availableParallelism = available;
    vi.restoreAllMocks();
  });

  it('takes the available parallelism, at most 4', () => {
    vi.spyOn(os, 'cpus').mockReturnValue([]);
    vi.spyOn(os, 'availableParallelism').mockReturnValue(3);
    expect(resolveSandboxOptions().size).toBe(3);
    vi.spyOn(os, 'availableParallelism').mockReturnValue(9);
    expect(resolveSandboxOptions().size).toBe(4);
  });

  it('counts the CPUs on a Node without availableParallelism, at least 1', () => {
    (os as { availableParallelism: unknown }).availableParallelism = undefined;
    const cpu = os.cpus()[0] as os.CpuInfo;
    vi.spyOn(os, 'cpus').mockReturnValue([cpu, cpu]);
    expect(resolveSandboxOptions().size).toBe(2);
    vi.spyOn(os, 'cpus').mockReturnValue([]);
    expect(resolveSandboxOptions().size).toBe(1);
  });
});

describe('resolveSandboxOptions: given values', () => {
  it.each(INTEGER_OPTIONS)('keeps %s at its smallest allowed value and above it', (field, _default, min) => {
    // recycleHeapMb (default 384) may not exceed memoryLimitMb, so a small cap takes a small threshold.
    const base: SandboxPoolOptions = field === 'memoryLimitMb' ? { recycleHeapMb: 32 } : {};
    expect(resolveSandboxOptions({ ...base, [field]: min })[field]).toBe(min);
    expect(resolveSandboxOptions({ ...base, [field]: min + 7 })[field]).toBe(min + 7);
  });

  it.each(INTEGER_OPTIONS)('rejects %s one below its smallest value, naming the option and the bound', (field, _default, min) => {
    const error = rejection({ [field]: min - 1 });
    expect(error.message).toBe(`Sandbox option '${field}' must be an integer >= ${min}; got ${min - 1}.`);
    expect(error.field).toBe(field);
  });

  it.each(INTEGER_OPTIONS)('rejects a fraction for %s', (field, _default, min) => {
    const error = rejection({ [field]: min + 0.5 });
    expect(error.message).toBe(`Sandbox option '${field}' must be an integer >= ${min}; got ${min + 0.5}.`);
    expect(error.field).toBe(field);
  });

  it('takes every network isolation mode and rejects others with the allowed list', () => {
    for (const mode of ['auto', 'required', 'off'] as const) {
      expect(resolveSandboxOptions({ networkIsolation: mode }).networkIsolation).toBe(mode);
    }
    const error = rejection({ networkIsolation: 'maybe' as never });
    expect(error.message).toBe("Sandbox option 'networkIsolation' is 'maybe'. Allowed: auto, required, off.");
    expect(error.field).toBe('networkIsolation');
    expect(error.allowed).toEqual(['auto', 'required', 'off']);
  });

  it('keeps useSnapshot false and turns on the interpreter-escape switch only when it is true', () => {
    expect(resolveSandboxOptions({ useSnapshot: false }).useSnapshot).toBe(false);
    expect(resolveSandboxOptions({ testing: { simulateInterpreterEscape: true } }).simulateInterpreterEscape).toBe(true);
    expect(resolveSandboxOptions({ testing: { simulateInterpreterEscape: false } }).simulateInterpreterEscape).toBe(false);
    expect(resolveSandboxOptions({ testing: {} }).simulateInterpreterEscape).toBe(false);
  });

  it('lets the recycle threshold equal the memory cap but not exceed it', () => {
    expect(resolveSandboxOptions({ memoryLimitMb: 256, recycleHeapMb: 256 })).toMatchObject({ memoryLimitMb: 256, recycleHeapMb: 256 });
    const error = rejection({ memoryLimitMb: 256, recycleHeapMb: 257 });
    expect(error.message).toBe("Sandbox option 'recycleHeapMb' (257) must not exceed 'memoryLimitMb' (256).");
    expect(error.field).toBe('recycleHeapMb');
    // The default threshold (384) is checked against a given cap too.
    expect(rejection({ memoryLimitMb: 383 }).field).toBe('recycleHeapMb');
    expect(resolveSandboxOptions({ memoryLimitMb: 384 }).recycleHeapMb).toBe(384);
  });
});
