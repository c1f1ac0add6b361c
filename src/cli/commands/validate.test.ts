import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Command } from 'commander';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { BUILTIN_PATCH_RULES } from '../../testing/builtin-patch-rules.js';

import type { HookCompiler } from '../../patch/index.js';
import { registerValidateCommand, validateCommand, type ValidateCommandDeps } from './validate.js';

const dir = mkdtempSync(path.join(tmpdir(), 'validate-cmd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  process.exitCode = undefined;
});

function file(name: string, content: unknown): string {
  const p = path.join(dir, name);
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
}

const HOOK = { type: 'add_code_hook', hook: 'on_before_action', code: 'def hook(ctx, nb):\n    return None' };
/** Test double standing in for the sandbox: rejects sources containing "import". */
const fakeCompiler: HookCompiler = async (source) => (source.includes('import') ? { ok: false, reason: 'hook uses forbidden syntax: Import' } : { ok: true });
let closed = 0;
const deps: ValidateCommandDeps = { benchmarks: BUILTIN_PATCH_RULES, benchmarkNames: ['webshop', 'alfworld', 'dbbench'], openCompiler: async () => ({ compiler: fakeCompiler, close: async () => void closed++ }) };

function capture(): { out: { write(s: string): boolean }; text(): string } {
  let buf = '';
  return { out: { write: (s: string) => ((buf += s), true) }, text: () => buf };
}

describe('validateCommand', () => {
  it('prints VALID and exits 0; closes the compiler it opened', async () => {
    const c = capture();
    closed = 0;
    expect(await validateCommand(file('ok.json', { benchmark: 'webshop', actions: [HOOK] }), {}, deps, c.out)).toBe(0);
    expect(c.text()).toMatch(/^VALID .*ok\.json\n {2}webshop patch, 1 action\(s\): on_before_action\n$/);
    expect(closed).toBe(1);
  });

  it('prints the field, rule and original message for an invalid patch and exits 1', async () => {
    const c = capture();
    const bad = file('bad.json', { benchmark: 'alfworld', actions: [{ ...HOOK, code: 'import os' }] });
    expect(await validateCommand(bad, {}, deps, c.out)).toBe(1);
    expect(c.text()).toContain('reason: actions[0].code: hook_compile: hook uses forbidden syntax: Import');
    expect(c.text()).toContain("original: PatchValidationError('hook uses forbidden syntax: Import')");
  });

  it('--json reports the verdict, options and rejection', async () => {
    const c = capture();
    const legacy = file('legacy.json', { benchmark: 'webshop', actions: [{ type: 'add_or_edit_skill', skill_id: 's', text: 't' }] });
    expect(await validateCommand(legacy, { json: true, codeHookOnly: true, bench: 'WebShop' }, deps, c.out)).toBe(1);
    const report = JSON.parse(c.text());
    expect(report).toMatchObject({
      verdict: 'invalid',
      bench: 'webshop',
      codeHookOnly: true,
      rejection: { rule: 'code_hook_only', field: 'actions[0].type', status: 'invalid_patch_treated_as_no_patch' },
    });
  });

  it('--strict and --protocol are passed through', async () => {
    const dup = file('dup.json', { benchmark: 'webshop', actions: [HOOK, HOOK] });
    expect(await validateCommand(dup, {}, deps, capture().out)).toBe(0);
    expect(await validateCommand(dup, { strict: true }, deps, capture().out)).toBe(1);
    const response = file('resp.txt', `plan</think><patch>${JSON.stringify({ benchmark: 'webshop', actions: [HOOK] })}</patch>`);
    expect(await validateCommand(response, { protocol: 'prefill_think_patch' }, deps, capture().out)).toBe(0);
  });

  it('throws ConfigError (exit 2) for usage errors', async () => {
    const ok = file('ok2.json', { benchmark: 'webshop', actions: [HOOK] });
    await expect(validateCommand(ok, { bench: 'shop' }, deps)).rejects.toMatchObject({ code: 'config_error' });
    await expect(validateCommand(ok, { protocol: 'yaml' }, deps)).rejects.toMatchObject({ code: 'config_error' });
    await expect(validateCommand(path.join(dir, 'nope.json'), {}, deps)).rejects.toMatchObject({ code: 'config_error' });
    await expect(validateCommand(ok, {}, { benchmarks: BUILTIN_PATCH_RULES, benchmarkNames: [] })).rejects.toMatchObject({ code: 'config_error', message: expect.stringContaining('No hook compiler') });
  });

  it('does not need a compiler when the patch has no code hook', async () => {
    const legacy = file('legacy2.json', { benchmark: 'webshop', actions: [{ type: 'add_or_edit_skill', skill_id: 's', text: 't' }] });
    expect(await validateCommand(legacy, {}, { benchmarks: BUILTIN_PATCH_RULES, benchmarkNames: [] }, capture().out)).toBe(0);
  });
});

describe('registerValidateCommand', () => {
  it('wires the flags and sets the exit code', async () => {
    const program = new Command('harness-r1').exitOverride();
    registerValidateCommand(program, deps);
    const bad = file('leak.json', { benchmark: 'webshop', description: 'fix task 3', actions: [HOOK] });
    const original = process.stdout.write.bind(process.stdout);
    let printed = '';
    process.stdout.write = ((s: string) => ((printed += s), true)) as typeof process.stdout.write;
    try {
      await program.parseAsync(['validate', bad, '--bench', 'webshop', '--strict', '--code-hook-only', '--reject-runtime-noop', '--json'], { from: 'user' });
    } finally {
      process.stdout.write = original;
    }
    expect(process.exitCode).toBe(1);
    expect(JSON.parse(printed)).toMatchObject({ strict: true, rejectRuntimeNoop: true, rejection: { rule: 'forbidden_leakage', field: 'description' } });
  });
});
