import { describe, expect, it } from 'vitest';

import { BUILTIN_PATCH_RULES } from '../testing/builtin-patch-rules.js';
import { ConfigError } from '../episode/errors.js';
import type { Benchmark, HookCompiler, PatchNote, PatchVerdict } from './patch-types.js';
import { validatePatchText } from './validate-patch-file.js';
import { validateEngineerResponse, validatePatch, type ValidatePatchOptions } from './validate-patch.js';

// The edges of validatePatch and validateEngineerResponse that the mutation run showed unpinned: whole
// verdicts (kind, stage, exception, notes), the strict table note kind by note kind, the protocol checks
// that pass a patch on to the notes, and the 9000-char guidance boundary.

/** Test double: accepts every hook without compiling it. */
const acceptAll: HookCompiler = async () => ({ ok: true });
const options = (extra: Partial<ValidatePatchOptions> = {}): ValidatePatchOptions => ({ benchmarks: BUILTIN_PATCH_RULES, compiler: acceptAll, ...extra });
const hook = (name: string, code = 'def hook(ctx, nb):\n    return None\n') => ({ type: 'add_code_hook', hook: name, code });
const HOOK = hook('on_init');

async function verdict(patch: unknown, extra: Partial<ValidatePatchOptions> = {}): Promise<PatchVerdict> {
  return validatePatchText(typeof patch === 'string' ? patch : JSON.stringify(patch), options(extra));
}

describe('the caller bench', () => {
  it('an unknown one is a ConfigError naming it, on the bench field', async () => {
    for (const call of [() => validatePatch({}, options({ bench: 'shop' as Benchmark })), () => validateEngineerResponse('', { ...options({ bench: 'shop' as Benchmark }), protocol: 'json_patch' })]) {
      const error = await call().then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect(error).toMatchObject({ message: 'Unknown benchmark "shop".', field: 'bench' });
    }
  });
});

describe('strict', () => {
  const recoveryRule = (extra: Record<string, unknown>) => ({ type: 'add_recovery_rule', rule_id: 'r', condition: { pred: 'buy_now_available' }, effect: { kind: 'inject_hint', message: 'm' }, ...extra });

  // Each quirk note and the rejection rule strict turns it into (the table STRICT_RULES).
  it.each<[PatchNote['kind'], string, unknown, Benchmark | undefined]>([
    ['benchmark_override', 'benchmark_mismatch', { benchmark: 'alfworld', actions: [HOOK] }, 'webshop'],
    ['duplicate_hook', 'duplicate_hook', { benchmark: 'webshop', actions: [HOOK, HOOK] }, undefined],
    ['description_coerced', 'description_not_string', { benchmark: 'webshop', description: 3, actions: [HOOK] }, undefined],
    ['unvalidated_predicate_operand', 'unsupported_predicate', { benchmark: 'webshop', actions: [recoveryRule({ condition: { eq: ['predicates.no_such', true] } })] }, undefined],
    ['rule_never_evaluated', 'rule_never_evaluated', { benchmark: 'webshop', actions: [recoveryRule({ trigger: 'budget_check' })] }, undefined],
    ['non_finite_number', 'non_finite_number', '{"benchmark": "webshop", "actions": [{"type": "set_config", "target": "price_tolerance", "value": NaN}]}', undefined],
  ])('note %s becomes rejection %s at the strict stage, with the note as its message', async (kind, rule, patch, bench) => {
    const lax = await verdict(patch, { bench });
    expect(lax.kind).toBe('valid');
    expect(lax.notes.map((n) => n.kind)).toEqual([kind]);
    const note = lax.notes[0]!;
    expect(await verdict(patch, { bench, strict: true })).toEqual({
      kind: 'invalid',
      rejection: { rule, field: note.field, message: note.message, stage: 'strict', exception: null },
      notes: lax.notes,
    });
  });

  it('rejects for the first note that has a strict rule, skipping notes without one', async () => {
    const v = await verdict({ benchmark: 'webshop', actions: [hook('on_post_step', 'x'.repeat(5000)), hook('make_pre_hint', 'y'.repeat(5000)), HOOK, HOOK] }, { strict: true });
    expect(v.notes.map((n) => n.kind)).toEqual(['duplicate_hook', 'total_code_over_guidance']);
    expect(v).toMatchObject({ kind: 'invalid', rejection: { rule: 'duplicate_hook', field: 'actions[3].hook' } });
  });
});

describe('code hook names (protocol §3.2, §3.9)', () => {
  const BENCHES: Benchmark[] = ['webshop', 'alfworld', 'dbbench'];

  it.each(['on_init', 'make_pre_hint', 'on_before_action', 'on_post_step'])('%s is accepted by every benchmark, code-hook-only and the no-op check', async (name) => {
    for (const benchmark of BENCHES) {
      expect(await verdict({ benchmark, actions: [hook(name)] }, { bench: benchmark, codeHookOnly: true, rejectRuntimeNoop: true })).toMatchObject({ kind: 'valid', notes: [] });
    }
  });

  it.each(['on_episode_end', 'on_step', 'hook', 'On_Init'])('%s is rejected by normalization on every benchmark', async (name) => {
    for (const benchmark of BENCHES) {
      expect(await verdict({ benchmark, actions: [hook(name)] })).toMatchObject({
        kind: 'invalid',
        rejection: { rule: 'unsupported_hook', field: 'actions[0].hook', message: `unsupported code hook: '${name}'`, stage: 'normalize' },
      });
    }
  });
});

describe('notes after the protocol checks', () => {
  it('a patch that passes code-hook-only or the runtime no-op check still gets its notes', async () => {
    const patch = { benchmark: 'webshop', actions: [HOOK, HOOK] };
    const duplicate = { kind: 'duplicate_hook', field: 'actions[1].hook', message: "hook 'on_init' appears more than once; the original accepts duplicates and runs all of them in order" };
    for (const extra of [{}, { codeHookOnly: true }, { rejectRuntimeNoop: true }, { codeHookOnly: true, rejectRuntimeNoop: true }]) {
      expect(await verdict(patch, extra)).toMatchObject({ kind: 'valid', notes: [duplicate] });
    }
  });

  it('notes total code over 9000 chars, not at 9000, with the total and the guidance', async () => {
    const split = (total: number) => ({ benchmark: 'webshop', actions: [hook('on_init', 'x'.repeat(5000)), hook('on_post_step', 'y'.repeat(total - 5000))] });
    expect(await verdict(split(9000))).toMatchObject({ kind: 'valid', notes: [] });
    expect(await verdict(split(9001))).toMatchObject({
      kind: 'valid',
      notes: [{ kind: 'total_code_over_guidance', field: 'actions', message: "hooks total 9001 chars, over the prompt's 9000 guidance (not enforced by the original)" }],
    });
  });
});

describe('validateEngineerResponse verdicts', () => {
  it('an unsupported protocol is rejected at the extract stage with no notes', async () => {
    expect(await validateEngineerResponse('{}', { ...options(), protocol: 'yaml' })).toEqual({
      kind: 'invalid',
      rejection: { rule: 'unsupported_protocol', field: 'protocol', message: "unsupported response protocol: 'yaml'", stage: 'extract', exception: 'PatchValidationError' },
      notes: [],
    });
  });

  it('a failed extraction is the whole verdict, with no notes', async () => {
    const v = await validateEngineerResponse('no think block\n<patch>{}</patch>', { ...options(), protocol: 'full_think_patch' });
    expect(v).toMatchObject({ kind: 'invalid', rejection: { rule: 'missing_think_block', stage: 'extract', field: 'response' } });
    expect(v.notes).toEqual([]);
  });
});
