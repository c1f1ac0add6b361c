import { BUILTIN_PATCH_RULES } from '../testing/builtin-patch-rules.js';
import { describe, expect, it } from 'vitest';

import type { Benchmark, HookCompiler, PatchVerdict } from './patch-types.js';
import { formatOriginalRepr } from './rejection.js';
import { validatePatchText } from './validate-patch-file.js';
import { validateEngineerResponse, validatePatch, type ValidatePatchOptions } from './validate-patch.js';

/** Test double: accepts every hook without compiling it. Only the non-code rules are exercised here. */
const acceptAll: HookCompiler = async () => ({ ok: true });
const HOOK = { type: 'add_code_hook', hook: 'on_init', code: 'def hook(ctx, nb):\n    return None\n' };

async function verdict(patch: unknown, options: Partial<ValidatePatchOptions> = {}): Promise<PatchVerdict> {
  const text = typeof patch === 'string' ? patch : JSON.stringify(patch);
  return validatePatchText(text, { benchmarks: BUILTIN_PATCH_RULES, compiler: acceptAll, ...options });
}

async function reason(patch: unknown, options: Partial<ValidatePatchOptions> = {}): Promise<string> {
  const v = await verdict(patch, options);
  return v.kind === 'valid' ? 'valid' : `${v.rejection.field} ${v.rejection.rule}: ${v.rejection.message}`;
}

const base = (actions: unknown[], extra: Record<string, unknown> = {}) => ({ benchmark: 'webshop', description: 'd', actions, ...extra });

describe('top level', () => {
  it('normalizes to schema v1, dropping unknown keys and keeping code verbatim', async () => {
    const v = await verdict({ ...base([{ ...HOOK, hook: ' on_init ', extra: 1 }]), schema_version: 'v0', other: true, description: ' a\n b ' });
    expect(v).toMatchObject({
      kind: 'valid',
      patch: { schema_version: 'harness-r1-patch-v1', benchmark: 'webshop', description: 'a b', actions: [{ type: 'add_code_hook', hook: 'on_init', code: HOOK.code }] },
    });
    expect(v.kind === 'valid' && Object.keys(v.patch.actions[0]!)).toEqual(['type', 'hook', 'code']);
  });

  it('rejects non-objects, unknown benchmarks and bad action lists', async () => {
    expect(await reason('[1]')).toBe('patch not_object: patch must be a JSON object');
    expect(await reason({ actions: [HOOK] })).toBe("benchmark unsupported_benchmark: unsupported benchmark: ''");
    expect(await reason({ benchmark: 'Household', actions: [HOOK] })).toBe("benchmark unsupported_benchmark: unsupported benchmark: 'household'");
    expect(await reason({ benchmark: true, actions: [HOOK] })).toBe("benchmark unsupported_benchmark: unsupported benchmark: 'true'");
    expect(await reason(base([]))).toBe('actions actions_empty: patch.actions must be a non-empty list');
    expect(await reason(base({} as unknown as unknown[]))).toBe('actions actions_empty: patch.actions must be a non-empty list');
    expect(await reason(base(Array(12).fill(HOOK)))).toBe('valid');
    expect(await reason(base(Array(13).fill(HOOK)))).toBe('actions too_many_actions: patch.actions has more than 12 actions');
  });

  it('falls back to the caller bench only when the patch has no truthy benchmark', async () => {
    expect(await verdict({ benchmark: '', actions: [HOOK] }, { bench: 'dbbench' })).toMatchObject({ patch: { benchmark: 'dbbench' } });
    expect(await verdict({ benchmark: 'ALFWorld', actions: [HOOK] }, { bench: 'alfworld' })).toMatchObject({ kind: 'valid', notes: [] });
  });

  it('quirk: the patch benchmark overrides the caller bench (strict rejects the mismatch)', async () => {
    const v = await verdict(base([HOOK], { benchmark: 'alfworld' }), { bench: 'webshop' });
    expect(v).toMatchObject({ kind: 'valid', patch: { benchmark: 'alfworld' }, notes: [{ kind: 'benchmark_override', field: 'benchmark' }] });
    expect(await reason(base([HOOK], { benchmark: 'alfworld' }), { bench: 'webshop', strict: true })).toMatch(/^benchmark benchmark_mismatch: /);
  });

  it("quirk: a non-string description is validated as Python str() of it", async () => {
    expect(await verdict(base([HOOK], { description: null }))).toMatchObject({ kind: 'valid', patch: { description: 'None' }, notes: [{ kind: 'description_coerced' }] });
    expect(await verdict(base([HOOK], { description: 1.0 }))).toMatchObject({ patch: { description: '1' } });
    expect(await verdict('{"benchmark": "webshop", "description": 1.0, "actions": [{"type": "add_code_hook", "hook": "on_init", "code": "x"}]}')).toMatchObject({
      patch: { description: '1.0' },
    });
    expect(await reason(base([HOOK], { description: { note: 'see task 3' } }))).toBe(
      'description forbidden_leakage: description appears to contain task-specific leakage',
    );
    expect(await reason(base([HOOK], { description: ['x'] }), { strict: true })).toMatch(/^description description_not_string: /);
  });

  it('a leaking description kills the whole patch', async () => {
    expect(await reason(base([HOOK], { description: 'fix task 3 failures' }))).toBe(
      'description forbidden_leakage: description appears to contain task-specific leakage',
    );
    expect(await reason(base([HOOK], { description: 'x'.repeat(901) }))).toBe('description text_too_long: description exceeds 900 chars');
  });
});

describe('add_code_hook', () => {
  it('checks hook name, code and the 8000 code point limit before compiling', async () => {
    expect(await reason(base([{ ...HOOK, hook: 'on_step' }]))).toBe("actions[0].hook unsupported_hook: unsupported code hook: 'on_step'");
    expect(await reason(base([{ ...HOOK, hook: null }]))).toBe("actions[0].hook unsupported_hook: unsupported code hook: ''");
    expect(await reason(base([{ ...HOOK, code: ' \n ' }]))).toBe('actions[0].code code_empty: code hook must include non-empty code');
    expect(await reason(base([{ ...HOOK, code: 5 }]))).toBe('actions[0].code code_empty: code hook must include non-empty code');
    expect(await reason(base([{ ...HOOK, code: '😀'.repeat(8000) }]))).toBe('valid');
    expect(await reason(base([{ ...HOOK, code: '😀'.repeat(8001) }]))).toBe('actions[0].code code_too_long: code hook exceeds 8000 chars');
  });

  it('does not apply the leakage patterns to code', async () => {
    expect(await reason(base([{ ...HOOK, code: "# task 3 B0ABCDEFGH\ndef hook(ctx, nb):\n    return None" }]))).toBe('valid');
  });

  it('passes each hook and the resolved benchmark to the compiler, in order, stopping at the first failure', async () => {
    const calls: string[] = [];
    const compiler: HookCompiler = async (source, rules) => {
      calls.push(`${rules.numberedInstances ? 'numbered-instances' : 'plain'}:${source}`);
      return source === 'bad' ? { ok: false, reason: 'hook uses forbidden syntax: Import' } : { ok: true };
    };
    const v = await verdict(
      { benchmark: 'alfworld', actions: [{ ...HOOK, code: 'good' }, { ...HOOK, code: 'bad' }, { type: 'add_or_edit_skill', skill_id: 'x', text: '' }] },
      { compiler, bench: 'webshop' },
    );
    // The patch's own benchmark (alfworld) wins over the caller's: its compile rule applies.
    expect(calls).toEqual(['numbered-instances:good', 'numbered-instances:bad']);
    expect(v).toMatchObject({ kind: 'invalid', rejection: { rule: 'hook_compile', field: 'actions[1].code', stage: 'normalize' } });
    expect(v.kind === 'invalid' && formatOriginalRepr(v.rejection)).toBe("PatchValidationError('hook uses forbidden syntax: Import')");
  });

  it('reports a compiler crash the way the original reports any non-HookCompileError', async () => {
    const crashing: HookCompiler = async () => {
      throw new Error('worker died');
    };
    expect(await reason(base([HOOK]), { compiler: crashing })).toBe(
      'actions[0].code hook_compiler_error: code hook failed sandbox validation: worker died',
    );
  });

  it('quirk: duplicate hooks are accepted (strict rejects them)', async () => {
    const v = await verdict(base([HOOK, HOOK]));
    expect(v).toMatchObject({ kind: 'valid', notes: [{ kind: 'duplicate_hook', field: 'actions[1].hook' }] });
    expect(await reason(base([HOOK, HOOK]), { strict: true })).toMatch(/^actions\[1\]\.hook duplicate_hook: /);
  });

  it('notes (never rejects) total code over the 9000-char prompt guidance', async () => {
    const big = { ...HOOK, code: 'x'.repeat(5000) };
    expect(await verdict(base([big, { ...big, hook: 'on_post_step' }]), { strict: true })).toMatchObject({
      kind: 'valid',
      notes: [{ kind: 'total_code_over_guidance' }],
    });
  });
});

describe('actions', () => {
  it('rejects non-objects and unknown types, with Python TypeError for unhashable types', async () => {
    expect(await reason(base(['x']))).toBe('actions[0] action_not_object: action 0 must be an object');
    expect(await reason(base([HOOK, { type: 'add_hook' }]))).toBe("actions[1].type unsupported_action_type: action 1 has unsupported type: 'add_hook'");
    expect(await reason(base([{}]))).toBe('actions[0].type unsupported_action_type: action 0 has unsupported type: None');
    const v = await verdict(base([{ type: ['add_code_hook'] }]));
    expect(v.kind === 'invalid' && formatOriginalRepr(v.rejection)).toBe('TypeError("unhashable type: \'list\'")');
  });

  it('code-hook-only rejects legacy actions after normalization', async () => {
    const skill = { type: 'add_or_edit_skill', skill_id: 'generic_search', task_types: ['*'], keywords: ['search'], text: 'Inspect constraints before buying.' };
    expect(await reason(base([HOOK, skill]))).toBe('valid');
    const v = await verdict(base([HOOK, skill]), { codeHookOnly: true });
    expect(v).toMatchObject({ kind: 'invalid', rejection: { rule: 'code_hook_only', stage: 'code_hook_only', field: 'actions[1].type' } });
    expect(v.kind === 'invalid' && formatOriginalRepr(v.rejection)).toBe(
      `PatchValidationError("action 1 type 'add_or_edit_skill' is not allowed in code-hook-only protocol")`,
    );
    // normalization errors come first
    expect(await reason(base([{ ...skill, text: '' }]), { codeHookOnly: true })).toBe('actions[0].text text_empty: skill.text cannot be empty');
  });
});

describe('legacy actions', () => {
  const setConfig = (target: unknown, value: unknown, bench: Benchmark = 'webshop') => ({ benchmark: bench, actions: [{ type: 'set_config', target, value }] });

  it('set_config: only WebShop price_tolerance, strictly typed and in range', async () => {
    expect(await verdict(setConfig('webshop.price_tolerance', 0))).toMatchObject({ patch: { actions: [{ type: 'set_config', target: 'price_tolerance', value: 0 }] } });
    expect(await reason({ benchmark: 'webshop', actions: [{ type: 'set_config', field: 'config.price_tolerance', value: 0.5 }] })).toBe('valid');
    expect(await reason(setConfig('alfworld.price_tolerance', 0.1))).toBe(
      "actions[0].target config_target_prefix: config target prefix 'alfworld' does not match webshop",
    );
    expect(await reason(setConfig('h2_enabled', true))).toBe(
      "actions[0].target module_config_target: 'h2' cannot be changed by a Harness-R1 patch; patches edit only the overlay substrate, not built-in harness modules",
    );
    expect(await reason(setConfig('h4_warn_threshold', 3))).toMatch(/unexposed_config_target: 'h4_warn_threshold' is not an exposed config target for webshop;/);
    expect(await reason(setConfig(' nope ', 3))).toBe("actions[0].target unsupported_config_target: unsupported config target for webshop: ' nope '");
    expect(await reason(setConfig('price_tolerance', 0.1, 'dbbench'))).toBe(
      "actions[0].target unsupported_config_target: unsupported config target for dbbench: 'price_tolerance'",
    );
    expect(await reason(setConfig('price_tolerance', true))).toBe('actions[0].value config_value_type: price_tolerance expects number');
    expect(await reason(setConfig('price_tolerance', '0.1'))).toBe('actions[0].value config_value_type: price_tolerance expects number');
    expect(await reason(setConfig('price_tolerance', 0.6))).toBe('actions[0].value config_value_range: price_tolerance above maximum 0.5');
    expect(await reason(setConfig('price_tolerance', -1))).toBe('actions[0].value config_value_range: price_tolerance below minimum 0.0');
    expect(await reason('{"benchmark": "webshop", "actions": [{"type": "set_config", "target": "price_tolerance", "value": -Infinity}]}')).toMatch(/below minimum/);
  });

  it('set_config: NaN passes the range check (strict rejects it)', async () => {
    const nan = '{"benchmark": "webshop", "actions": [{"type": "set_config", "target": "price_tolerance", "value": NaN}]}';
    expect(await verdict(nan)).toMatchObject({ kind: 'valid', notes: [{ kind: 'non_finite_number' }] });
    expect(await reason(nan, { strict: true })).toMatch(/^actions\[0\]\.value non_finite_number: /);
  });

  it('edit_tool_hint: per-benchmark tools and operations', async () => {
    const hint = (tool: unknown, operation?: unknown) => ({ benchmark: 'dbbench', actions: [{ type: 'edit_tool_hint', tool, operation, text: ' Check  columns first. ' }] });
    expect(await verdict(hint('execute_sql'))).toMatchObject({ patch: { actions: [{ tool: 'execute_sql', operation: 'append', text: 'Check columns first.' }] } });
    expect(await reason(hint('search_action'))).toBe("actions[0].tool unsupported_tool: unsupported tool for dbbench: 'search_action'");
    expect(await reason(hint('commit_final_answer', 'insert'))).toBe("actions[0].operation unsupported_tool_operation: unsupported edit_tool_hint operation: 'insert'");
  });

  it('add_or_edit_skill: ids, token lists and text', async () => {
    const skill = (extra: Record<string, unknown>) => ({ benchmark: 'alfworld', actions: [{ type: 'add_or_edit_skill', skill_id: 'find.target', text: 'Look first.', ...extra }] });
    expect(await verdict(skill({ task_types: '', keywords: null }))).toMatchObject({ patch: { actions: [{ task_types: ['*'], keywords: [] }] } });
    expect(await verdict(skill({ skill_id: 7, task_types: ['Pick_And_Place'], keywords: ['Clean Up'] }))).toMatchObject({
      patch: { actions: [{ skill_id: '7', task_types: ['pick_and_place'], keywords: ['clean_up'] }] },
    });
    expect(await reason(skill({ skill_id: 'bad id' }))).toBe("actions[0].skill_id invalid_id: invalid skill_id: 'bad id'");
    expect(await reason(skill({ task_types: 'x' }))).toBe('actions[0].task_types invalid_list: skill.task_types must be a list of <=16 strings');
    expect(await reason(skill({ keywords: Array(33).fill('k') }))).toBe('actions[0].keywords invalid_list: skill.keywords must be a list of <=32 strings');
    expect(await reason(skill({ keywords: ['ok', 3] }))).toBe('actions[0].keywords[1] invalid_token: keyword must be a string');
    expect(await reason(skill({ text: 'go to alfworld 12' }))).toBe('actions[0].text forbidden_leakage: skill.text appears to contain task-specific leakage');
  });

  const rule = (bench: Benchmark, type: string, extra: Record<string, unknown>) => ({
    benchmark: bench,
    actions: [{ type, rule_id: 'r1', condition: { pred: bench === 'dbbench' ? 'no_sql_yet' : 'action_not_admissible' }, effect: { kind: 'inject_hint', message: 'm' }, ...extra }],
  });

  it('rules: triggers and effect kinds per benchmark', async () => {
    expect(await reason(rule('webshop', 'add_recovery_rule', { trigger: 'budget_check' }))).toBe('valid');
    expect(await reason(rule('alfworld', 'add_recovery_rule', { trigger: 'budget_check' }))).toBe(
      "actions[0].trigger unsupported_trigger: unsupported recovery trigger: 'budget_check'",
    );
    expect(await reason(rule('webshop', 'add_guard_rule', {}))).toBe(
      "actions[0].effect.kind effect_kind_not_allowed: effect kind 'inject_hint' is not supported for webshop guard rules",
    );
    expect(await reason(rule('dbbench', 'add_recovery_rule', { effect: { kind: 'block_and_prompt', message: 'stop' } }))).toBe('valid');
    expect(await reason(rule('webshop', 'add_guard_rule', { effect: [] }))).toBe("actions[0].effect.kind unsupported_effect_kind: unsupported effect kind: ''");
    expect(await reason(rule('webshop', 'add_guard_rule', { effect: 'block' }))).toBe('actions[0].effect effect_not_object: rule.effect must be an object');
    expect(await reason(rule('webshop', 'add_guard_rule', { effect: { kind: 'force_action', action: 'click[buy now]', message: 7 } }))).toBe(
      'actions[0].effect.message text_not_string: effect.message must be a string',
    );
  });

  it('rules: ALFWorld force/rewrite actions may not name numbered instances', async () => {
    const force = (action: string) => rule('alfworld', 'add_guard_rule', { effect: { kind: 'rewrite_action', action } });
    expect(await reason(force('look'))).toBe('valid');
    expect(await reason(force('go to  Sinkbasin 1'))).toMatch(/^actions\[0\]\.effect\.action alfworld_numbered_instance: ALFWorld force\/rewrite actions may not contain/);
    expect(await reason({ ...force('take egg 2'), benchmark: 'webshop' })).toBe('valid');
  });

  it('conditions: shape, operators, paths, aliases and depth 0–8', async () => {
    const cond = (condition: unknown, bench: Benchmark = 'webshop') => rule(bench, 'add_recovery_rule', { condition });
    expect(await verdict(cond({ gt: ['state.budget', 50] }))).toMatchObject({ patch: { actions: [{ condition: { gt: ['state.price_max', 50] } }] } });
    expect(await reason(cond({ eq: ['state.price', 1] }))).toBe(
      "actions[0].condition.eq[0] unsupported_condition_path: unsupported condition path for webshop: 'state.price'",
    );
    expect(await reason(cond({ eq: ['world.inventory', 1] }, 'alfworld'))).toBe('valid');
    expect(await reason(cond({ all: [] }))).toBe('actions[0].condition.all condition_operands: condition.all must be a non-empty list');
    expect(await reason(cond({ eq: [1] }))).toBe('actions[0].condition.eq condition_operands: condition.eq must be a two-item list');
    expect(await reason(cond({ pred: 'no_sql_yet' }))).toBe("actions[0].condition.pred unsupported_predicate: unsupported predicate for webshop: 'no_sql_yet'");
    expect(await reason(cond({ matches: [1, 2] }))).toBe("actions[0].condition unsupported_condition_operator: unsupported condition operator: 'matches'");
    expect(await reason(cond({ eq: [1, 1], ne: [1, 2] }))).toBe('actions[0].condition condition_shape: condition must be an object with exactly one operator');
    const nest = (depth: number): unknown => (depth === 0 ? { pred: 'buy_now_available' } : { not: nest(depth - 1) });
    expect(await reason(cond(nest(8)))).toBe('valid');
    expect(await reason(cond(nest(9)))).toMatch(/condition_too_deep: condition nesting is too deep$/);
  });

  it('quirk: predicates.* operands are not validated (strict rejects unknown ones)', async () => {
    const cond = rule('webshop', 'add_recovery_rule', { condition: { eq: ['predicates.no_such', true] } });
    expect(await verdict(cond)).toMatchObject({ kind: 'valid', notes: [{ kind: 'unvalidated_predicate_operand', field: 'actions[0].condition.eq[0]' }] });
    expect(await reason(cond, { strict: true })).toMatch(/^actions\[0\]\.condition\.eq\[0\] unsupported_predicate: /);
  });
});

describe('runtime no-op check', () => {
  const recovery = (bench: string, trigger: string, kind: string) => ({
    benchmark: bench,
    actions: [HOOK, { type: 'add_recovery_rule', rule_id: 'r', trigger, condition: { pred: 'no_sql_yet' }, effect: { kind, message: 'm' } }],
  });

  it('WebShop: budget_check recovery rules are never executed', async () => {
    const webshop = { ...recovery('webshop', 'budget_check', 'inject_hint'), actions: [{ type: 'add_recovery_rule', rule_id: 'r', trigger: 'budget_check', condition: { pred: 'buy_now_available' }, effect: { kind: 'inject_hint', message: 'm' } }] };
    expect(await verdict(webshop)).toMatchObject({ kind: 'valid', notes: [{ kind: 'rule_never_evaluated' }] });
    const v = await verdict(webshop, { rejectRuntimeNoop: true });
    expect(v).toMatchObject({ kind: 'invalid', rejection: { rule: 'runtime_noop', stage: 'runtime_noop', exception: null, field: 'actions[0].trigger' } });
    expect(v.kind === 'invalid' && formatOriginalRepr(v.rejection)).toBe(
      "action 0 recovery trigger 'budget_check' is not executed by WebShop overlay recovery",
    );
  });

  it('DBBench: any non-code action is inactive', async () => {
    expect(await reason(recovery('dbbench', 'post_step', 'inject_hint'), { rejectRuntimeNoop: true })).toBe(
      "actions[1].type runtime_noop: action 1 'add_recovery_rule' is not active in DBBench code-hook RL",
    );
  });

  it("uses the caller's runtime, so the benchmark override is caught", async () => {
    const dbbenchPatch = recovery('dbbench', 'post_step', 'block_and_prompt');
    expect(await reason(dbbenchPatch, { bench: 'webshop' })).toBe('valid');
    expect(await reason(dbbenchPatch, { bench: 'webshop', rejectRuntimeNoop: true })).toBe(
      "actions[1].effect.kind runtime_noop: action 1 recovery effect 'block_and_prompt' is not executed by WebShop overlay recovery",
    );
  });

  it('strict rejects legacy rules the runtime never evaluates', async () => {
    expect(await reason(recovery('dbbench', 'post_step', 'inject_hint'), { strict: true })).toMatch(/^actions\[1\]\.type rule_never_evaluated: /);
  });
});

describe('validatePatch and validateEngineerResponse', () => {
  it('accepts plain JS values (integral numbers count as ints)', async () => {
    expect(await validatePatch({ benchmark: 'webshop', description: 1, actions: [HOOK] }, { benchmarks: BUILTIN_PATCH_RULES, compiler: acceptAll })).toMatchObject({
      patch: { description: '1' },
    });
  });

  it('throws ConfigError only for an unknown caller bench', async () => {
    await expect(validatePatch({}, { benchmarks: BUILTIN_PATCH_RULES, compiler: acceptAll, bench: 'shop' as Benchmark })).rejects.toMatchObject({ code: 'config_error' });
  });

  it('extracts with the protocol, then validates', async () => {
    const response = `plan\n</think>\n<patch>\n${JSON.stringify(base([HOOK]))}\n</patch>`;
    expect(await validateEngineerResponse(response, { benchmarks: BUILTIN_PATCH_RULES, compiler: acceptAll, protocol: 'prefill_think_patch' })).toMatchObject({ kind: 'valid' });
    expect(await validateEngineerResponse(response, { benchmarks: BUILTIN_PATCH_RULES, compiler: acceptAll, protocol: 'full_think_patch' })).toMatchObject({
      rejection: { rule: 'missing_think_block', stage: 'extract', field: 'response' },
    });
    expect(await validateEngineerResponse(response, { benchmarks: BUILTIN_PATCH_RULES, compiler: acceptAll, protocol: 'yaml' })).toMatchObject({
      rejection: { rule: 'unsupported_protocol', message: "unsupported response protocol: 'yaml'" },
    });
  });

  it('reconstruction (synthetic): YAML in a malformed tag fails as actions_empty, like DeepSeek seed20260720 ALFWorld', async () => {
    const response = '<think>Keep {"stage": "find_target"} in nb.</think>\n<>\nbenchmark: alfworld\nactions:\n  - type: add_code_hook\n</>';
    const v = await validateEngineerResponse(response, { benchmarks: BUILTIN_PATCH_RULES, compiler: acceptAll, protocol: 'json_patch', bench: 'alfworld' });
    expect(v.kind === 'invalid' && formatOriginalRepr(v.rejection)).toBe("PatchValidationError('patch.actions must be a non-empty list')");
  });
});
