import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import type { HookCompiler } from './patch-types.js';
import { validatePatchFile } from './validate-patch-file.js';
import { BUILTIN_PATCH_RULES } from '../testing/builtin-patch-rules.js';

/** Test double: accepts every hook without compiling it. */
const acceptAll: HookCompiler = async () => ({ ok: true });
const dir = mkdtempSync(path.join(tmpdir(), 'patch-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const p = path.join(dir, name);
  writeFileSync(p, content);
  return p;
}

const PATCH = JSON.stringify({ benchmark: 'webshop', actions: [{ type: 'add_code_hook', hook: 'on_init', code: 'def hook(ctx, nb):\n    return None' }] });

describe('validatePatchFile', () => {
  it('reads a patch JSON like json.loads', async () => {
    expect(await validatePatchFile(file('ok.json', `\n${PATCH}\n`), { benchmarks: BUILTIN_PATCH_RULES, compiler: acceptAll })).toMatchObject({ kind: 'valid' });
    expect(await validatePatchFile(file('bom.json', `\ufeff${PATCH}`), { benchmarks: BUILTIN_PATCH_RULES, compiler: acceptAll })).toMatchObject({
      rejection: { rule: 'json_syntax', exception: 'JSONDecodeError', message: 'Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)' },
    });
    expect(await validatePatchFile(file('extra.json', `${PATCH} {}`), { benchmarks: BUILTIN_PATCH_RULES, compiler: acceptAll })).toMatchObject({ rejection: { rule: 'json_syntax' } });
    expect(await validatePatchFile(file('bad.json', Buffer.from([0x7b, 0xff, 0x7d])), { benchmarks: BUILTIN_PATCH_RULES, compiler: acceptAll })).toMatchObject({
      rejection: { rule: 'json_syntax', exception: 'ValueError' },
    });
  });

  it('reads an engineer response with a response protocol', async () => {
    const response = file('response.txt', `<think>plan</think>\n<patch>\n${PATCH}\n</patch>`);
    expect(await validatePatchFile(response, { benchmarks: BUILTIN_PATCH_RULES, compiler: acceptAll, protocol: 'full_think_patch' })).toMatchObject({ kind: 'valid' });
    expect(await validatePatchFile(response, { benchmarks: BUILTIN_PATCH_RULES, compiler: acceptAll, protocol: 'prefill_think_patch' })).toMatchObject({
      rejection: { rule: 'prefill_starts_with_think' },
    });
    expect(await validatePatchFile(response, { benchmarks: BUILTIN_PATCH_RULES, compiler: acceptAll })).toMatchObject({ rejection: { rule: 'json_syntax' } });
  });

  it('throws ConfigError for usage errors', async () => {
    await expect(validatePatchFile(path.join(dir, 'missing.json'), { benchmarks: BUILTIN_PATCH_RULES, compiler: acceptAll })).rejects.toMatchObject({
      code: 'config_error',
      message: expect.stringContaining('not found'),
    });
    await expect(validatePatchFile(path.join(dir, 'ok.json'), { benchmarks: BUILTIN_PATCH_RULES, compiler: acceptAll, protocol: 'yaml' as 'patch' })).rejects.toMatchObject({
      code: 'config_error',
    });
  });
});
