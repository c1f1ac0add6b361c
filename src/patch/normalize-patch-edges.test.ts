import { describe, expect, it } from 'vitest';

import { BUILTIN_PATCH_RULES } from '../testing/builtin-patch-rules.js';
import { pyJsonLoads } from '../python/python-json.js';
import { normalizePatch, requireCodeHookOnly } from './normalize-patch.js';
import type { HarnessPatch, HookCompiler, PatchNote, PatchRejection } from './patch-types.js';
import type { Benchmark } from './patch-types.js';

// normalize_patch (protocol.md §3.1, §3.2, §3.4) as whole results: the normalized patch, or the whole
// rejection (rule, field, message, stage, exception), with the limits at and one past the bound.

const acceptAll: HookCompiler = async () => ({ ok: true });
const CODE = 'def hook(ctx, nb):\n    return None\n';
const HOOK = { type: 'add_code_hook', hook: 'on_init', code: CODE };

async function run(patch: unknown, extra: { bench?: Benchmark; compiler?: HookCompiler; notes?: PatchNote[] } = {}) {
  const parsed = pyJsonLoads(typeof patch === 'string' ? patch : JSON.stringify(patch));
  if (!parsed.ok) throw new Error('test patch is not JSON');
  return normalizePatch(parsed.value, { benchmarks: BUILTIN_PATCH_RULES, compiler: extra.compiler ?? acceptAll, bench: extra.bench, notes: extra.notes });
}

async function accepted(patch: unknown, extra: Parameters<typeof run>[1] = {}): Promise<HarnessPatch> {
  const result = await run(patch, extra);
  if (!result.ok) throw new Error(`rejected: ${result.rejection.message}`);
  return result.value;
}

async function rejected(patch: unknown, extra: Parameters<typeof run>[1] = {}): Promise<PatchRejection> {
  const result = await run(patch, extra);
  if (result.ok) throw new Error('accepted');
  return result.rejection;
}

const normalizeError = (rule: string, field: string, message: string, exception = 'PatchValidationError') => ({ rule, field, message, stage: 'normalize', exception });

describe('top level (§3.1)', () => {
  it('the output has the fixed schema version, the lower-cased benchmark, the cleaned description, and no other keys', async () => {
    const patch = await accepted({ schema_version: 'v0', benchmark: 'WebShop', description: '  fix   the\nsearch ', extra: 1, actions: [{ ...HOOK, junk: true }] });
    expect(patch).toEqual({ schema_version: 'harness-r1-patch-v1', benchmark: 'webshop', description: 'fix the search', actions: [HOOK] });
    expect(Object.keys(patch)).toEqual(['schema_version', 'benchmark', 'description', 'actions']);
  });

  it.each<[unknown, Benchmark | undefined, ReturnType<typeof normalizeError>]>([
    [[HOOK], undefined, normalizeError('not_object', 'patch', 'patch must be a JSON object')],
    ['"x"', undefined, normalizeError('not_object', 'patch', 'patch must be a JSON object')],
    [{ actions: [HOOK] }, undefined, normalizeError('unsupported_benchmark', 'benchmark', "unsupported benchmark: ''")],
    [{ benchmark: 'shop', actions: [HOOK] }, 'webshop', normalizeError('unsupported_benchmark', 'benchmark', "unsupported benchmark: 'shop'")],
    [{ benchmark: 'webshop' }, undefined, normalizeError('actions_empty', 'actions', 'patch.actions must be a non-empty list')],
    [{ benchmark: 'webshop', actions: [] }, undefined, normalizeError('actions_empty', 'actions', 'patch.actions must be a non-empty list')],
    [{ benchmark: 'webshop', actions: { 0: HOOK } }, undefined, normalizeError('actions_empty', 'actions', 'patch.actions must be a non-empty list')],
    [{ benchmark: 'webshop', actions: Array(13).fill(HOOK) }, undefined, normalizeError('too_many_actions', 'actions', 'patch.actions has more than 12 actions')],
    [{ benchmark: 'webshop', description: 'x'.repeat(901), actions: [HOOK] }, undefined, normalizeError('text_too_long', 'description', 'description exceeds 900 chars')],
    [{ benchmark: 'webshop', description: 'fix task 3 failures', actions: [HOOK] }, undefined, normalizeError('forbidden_leakage', 'description', 'description appears to contain task-specific leakage')],
    [{ benchmark: 'webshop', actions: [HOOK, 'hook'] }, undefined, normalizeError('action_not_object', 'actions[1]', 'action 1 must be an object')],
    [{ benchmark: 'webshop', actions: [{ type: 'nope' }] }, undefined, normalizeError('unsupported_action_type', 'actions[0].type', "action 0 has unsupported type: 'nope'")],
    [{ benchmark: 'webshop', actions: [{ code: CODE }] }, undefined, normalizeError('unsupported_action_type', 'actions[0].type', 'action 0 has unsupported type: None')],
    [{ benchmark: 'webshop', actions: [{ type: 'toString' }] }, undefined, normalizeError('unsupported_action_type', 'actions[0].type', "action 0 has unsupported type: 'toString'")],
    [{ benchmark: 'webshop', actions: [{ type: ['add_code_hook'] }] }, undefined, normalizeError('unsupported_action_type', 'actions[0].type', "unhashable type: 'list'", 'TypeError')],
    [{ benchmark: 'webshop', actions: [{ type: { a: 1 } }] }, undefined, normalizeError('unsupported_action_type', 'actions[0].type', "unhashable type: 'dict'", 'TypeError')],
  ])('%j (bench %s) is rejected as %j', async (patch, bench, expected) => {
    expect(await rejected(patch, { bench })).toEqual(expected);
  });

  it('takes 1 to 12 actions', async () => {
    expect((await accepted({ benchmark: 'webshop', actions: Array(12).fill(HOOK) })).actions).toHaveLength(12);
    expect((await accepted({ benchmark: 'webshop', actions: [HOOK] })).actions).toHaveLength(1);
  });

  it('takes a description of 900 chars after collapse, and an empty or missing one', async () => {
    expect((await accepted({ benchmark: 'webshop', description: 'x'.repeat(900), actions: [HOOK] })).description).toBe('x'.repeat(900));
    expect((await accepted({ benchmark: 'webshop', description: ` ${'x '.repeat(450)}`, actions: [HOOK] })).description).toBe(`${'x '.repeat(449)}x`);
    expect((await accepted({ benchmark: 'webshop', description: '', actions: [HOOK] })).description).toBe('');
    expect((await accepted({ benchmark: 'webshop', actions: [HOOK] })).description).toBe('');
  });

  it('validates str() of a non-string description, with a note', async () => {
    const notes: PatchNote[] = [];
    expect((await accepted('{"benchmark": "webshop", "description": 3, "actions": [{"type": "add_code_hook", "hook": "on_init", "code": "x"}]}', { notes })).description).toBe('3');
    expect(notes).toEqual([{ kind: 'description_coerced', field: 'description', message: 'description is 3, not a string; the original validates str() of it' }]);
    const none: PatchNote[] = [];
    await accepted({ benchmark: 'webshop', description: 'ok', actions: [HOOK] }, { notes: none });
    expect(none).toEqual([]);
  });

  it('the patch benchmark wins over the caller bench, with a note; a falsy one falls back to the caller', async () => {
    const notes: PatchNote[] = [];
    expect((await accepted({ benchmark: 'alfworld', actions: [HOOK] }, { bench: 'webshop', notes })).benchmark).toBe('alfworld');
    expect(notes).toEqual([{ kind: 'benchmark_override', field: 'benchmark', message: "patch benchmark 'alfworld' differs from the requested 'webshop'; the original keeps the patch's own value" }]);
    const none: PatchNote[] = [];
    expect((await accepted({ benchmark: '', actions: [HOOK] }, { bench: 'dbbench', notes: none })).benchmark).toBe('dbbench');
    expect((await accepted({ actions: [HOOK] }, { bench: 'alfworld', notes: none })).benchmark).toBe('alfworld');
    expect((await accepted({ benchmark: 'DBBench', actions: [HOOK] }, { bench: 'dbbench', notes: none })).benchmark).toBe('dbbench');
    expect((await accepted({ benchmark: 'webshop', actions: [HOOK] }, { notes: none })).benchmark).toBe('webshop');
    expect(none).toEqual([]);
  });

  it('stops at the first failing action, in order', async () => {
    expect(await rejected({ benchmark: 'webshop', actions: [HOOK, { type: 'add_code_hook', hook: 'x', code: CODE }, { type: 'nope' }] })).toEqual(
      normalizeError('unsupported_hook', 'actions[1].hook', "unsupported code hook: 'x'"),
    );
  });
});

describe('add_code_hook (§3.2)', () => {
  const withHook = (action: Record<string, unknown>) => ({ benchmark: 'webshop', actions: [{ type: 'add_code_hook', ...action }] });

  it('keeps the code verbatim and strips the hook name; every benchmark takes the four hooks', async () => {
    const code = '  def hook(ctx, nb):\n\n\treturn  None  \n';
    for (const benchmark of ['webshop', 'alfworld', 'dbbench']) {
      for (const hook of ['on_init', 'make_pre_hint', 'on_before_action', 'on_post_step']) {
        expect((await accepted({ benchmark, actions: [{ type: 'add_code_hook', hook: ` ${hook}\n`, code, extra: 1 }] })).actions).toEqual([{ type: 'add_code_hook', hook, code }]);
      }
    }
  });

  it.each<[Record<string, unknown>, ReturnType<typeof normalizeError>]>([
    [{ hook: 'On_Init', code: CODE }, normalizeError('unsupported_hook', 'actions[0].hook', "unsupported code hook: 'On_Init'")],
    [{ code: CODE }, normalizeError('unsupported_hook', 'actions[0].hook', "unsupported code hook: ''")],
    [{ hook: 'on_step', code: CODE }, normalizeError('unsupported_hook', 'actions[0].hook', "unsupported code hook: 'on_step'")],
    [{ hook: 'on_init' }, normalizeError('code_empty', 'actions[0].code', 'code hook must include non-empty code')],
    [{ hook: 'on_init', code: ' \n\t ' }, normalizeError('code_empty', 'actions[0].code', 'code hook must include non-empty code')],
    [{ hook: 'on_init', code: 5 }, normalizeError('code_empty', 'actions[0].code', 'code hook must include non-empty code')],
    [{ hook: 'on_init', code: 'x'.repeat(8001) }, normalizeError('code_too_long', 'actions[0].code', 'code hook exceeds 8000 chars')],
  ])('%j is rejected as %j', async (action, expected) => {
    expect(await rejected(withHook(action))).toEqual(expected);
  });

  it('takes code of exactly 8000 code points (astral characters count once)', async () => {
    expect((await accepted(withHook({ hook: 'on_init', code: 'x'.repeat(8000) }))).actions).toHaveLength(1);
    expect((await accepted(withHook({ hook: 'on_init', code: '😀'.repeat(8000) }))).actions).toHaveLength(1);
    expect(await rejected(withHook({ hook: 'on_init', code: '😀'.repeat(8001) }))).toMatchObject({ rule: 'code_too_long' });
  });

  it('compiles with the benchmark rules, and reports a compile failure or a compiler crash', async () => {
    const seen: unknown[] = [];
    const spy: HookCompiler = async (code, rules) => {
      seen.push([code, rules]);
      return { ok: true };
    };
    await accepted({ benchmark: 'alfworld', actions: [HOOK] }, { compiler: spy });
    await accepted({ benchmark: 'webshop', actions: [HOOK] }, { compiler: spy });
    expect(seen).toEqual([[CODE, { numberedInstances: true }], [CODE, { numberedInstances: false }]]);
    expect(await rejected({ benchmark: 'webshop', actions: [HOOK] }, { compiler: async () => ({ ok: false, reason: 'hook uses forbidden syntax: Import' }) })).toEqual(
      normalizeError('hook_compile', 'actions[0].code', 'hook uses forbidden syntax: Import'),
    );
    expect(await rejected({ benchmark: 'webshop', actions: [HOOK] }, { compiler: async () => { throw new Error('worker died'); } })).toEqual(
      normalizeError('hook_compiler_error', 'actions[0].code', 'code hook failed sandbox validation: worker died'),
    );
    expect(await rejected({ benchmark: 'webshop', actions: [HOOK] }, { compiler: async () => { throw 'gone'; } })).toEqual(
      normalizeError('hook_compiler_error', 'actions[0].code', 'code hook failed sandbox validation: gone'),
    );
  });
});

describe('requireCodeHookOnly (§3.3)', () => {
  it('passes a code-hook patch unchanged and names the first legacy action', async () => {
    const hooks = await accepted({ benchmark: 'webshop', actions: [HOOK, HOOK] });
    expect(requireCodeHookOnly(hooks)).toEqual({ ok: true, value: hooks });
    const mixed = await accepted({ benchmark: 'webshop', actions: [HOOK, { type: 'edit_tool_hint', tool: 'search_action', text: 't' }, { type: 'add_or_edit_skill', skill_id: 's', text: 't' }] });
    expect(requireCodeHookOnly(mixed)).toEqual({
      ok: false,
      rejection: { rule: 'code_hook_only', field: 'actions[1].type', message: "action 1 type 'edit_tool_hint' is not allowed in code-hook-only protocol", stage: 'code_hook_only', exception: 'PatchValidationError' },
    });
  });
});

describe('rejection rules of the text and legacy checks', () => {
  const act = (action: Record<string, unknown>, benchmark = 'webshop') => ({ benchmark, actions: [action] });
  const rule = (extra: Record<string, unknown>) => ({ type: 'add_guard_rule', rule_id: 'g', condition: { pred: 'buy_now_available' }, effect: { kind: 'block_and_prompt', message: 'm' }, ...extra });
  it.each<[string, unknown, string, string, string]>([
    ['text_not_string', act({ type: 'edit_tool_hint', tool: 'search_action', text: 1 }), 'actions[0].text', 'edit_tool_hint.text must be a string', 'webshop'],
    ['text_empty', act({ type: 'edit_tool_hint', tool: 'search_action', text: '' }), 'actions[0].text', 'edit_tool_hint.text cannot be empty', 'webshop'],
    ['config_target_prefix', act({ type: 'set_config', target: 'x.price_tolerance', value: 0.1 }), 'actions[0].target', "config target prefix 'x' does not match webshop", 'webshop'],
    ['unsupported_config_target', act({ type: 'set_config', target: 'x', value: 0.1 }), 'actions[0].target', "unsupported config target for webshop: 'x'", 'webshop'],
    ['module_config_target', act({ type: 'set_config', target: 'h3', value: true }), 'actions[0].target', "'h3' cannot be changed by a Harness-R1 patch; patches edit only the overlay substrate, not built-in harness modules", 'webshop'],
    ['unexposed_config_target', act({ type: 'set_config', target: 'h5_top_k', value: 1 }), 'actions[0].target', "'h5_top_k' is not an exposed config target for webshop; patches may only set config fields listed in the Harness-R1 prompt", 'webshop'],
    ['config_value_type', act({ type: 'set_config', target: 'price_tolerance', value: null }), 'actions[0].value', 'price_tolerance expects number', 'webshop'],
    ['config_value_range', act({ type: 'set_config', target: 'price_tolerance', value: 1 }), 'actions[0].value', 'price_tolerance above maximum 0.5', 'webshop'],
    ['unsupported_tool', act({ type: 'edit_tool_hint', tool: 'x', text: 't' }), 'actions[0].tool', "unsupported tool for webshop: 'x'", 'webshop'],
    ['unsupported_tool_operation', act({ type: 'edit_tool_hint', tool: 'search_action', operation: 'x', text: 't' }), 'actions[0].operation', "unsupported edit_tool_hint operation: 'x'", 'webshop'],
    ['invalid_id', act({ type: 'add_or_edit_skill', skill_id: '!', text: 't' }), 'actions[0].skill_id', "invalid skill_id: '!'", 'webshop'],
    ['invalid_list', act({ type: 'add_or_edit_skill', skill_id: 's', task_types: 'x', text: 't' }), 'actions[0].task_types', 'skill.task_types must be a list of <=16 strings', 'webshop'],
    ['invalid_list', act({ type: 'add_or_edit_skill', skill_id: 's', keywords: 'x', text: 't' }), 'actions[0].keywords', 'skill.keywords must be a list of <=32 strings', 'webshop'],
    ['invalid_token', act({ type: 'add_or_edit_skill', skill_id: 's', task_types: [1], text: 't' }), 'actions[0].task_types[0]', 'task_type must be a string', 'webshop'],
    ['invalid_token', act({ type: 'add_or_edit_skill', skill_id: 's', task_types: ['A B'], text: 't' }), 'actions[0].task_types[0]', "invalid task_type: 'A B'", 'webshop'],
    ['invalid_token', act({ type: 'add_or_edit_skill', skill_id: 's', keywords: [1], text: 't' }), 'actions[0].keywords[0]', 'keyword must be a string', 'webshop'],
    ['invalid_token', act({ type: 'add_or_edit_skill', skill_id: 's', keywords: ['a/b'], text: 't' }), 'actions[0].keywords[0]', "invalid keyword: 'a/b'", 'webshop'],
    ['unsupported_trigger', act(rule({ trigger: 'x' })), 'actions[0].trigger', "unsupported guard trigger: 'x'", 'webshop'],
    ['effect_not_object', act(rule({ effect: 'x' })), 'actions[0].effect', 'rule.effect must be an object', 'webshop'],
    ['unsupported_effect_kind', act(rule({ effect: { kind: 'x' } })), 'actions[0].effect.kind', "unsupported effect kind: 'x'", 'webshop'],
    ['effect_kind_not_allowed', act(rule({ effect: { kind: 'inject_hint', message: 'm' } })), 'actions[0].effect.kind', "effect kind 'inject_hint' is not supported for webshop guard rules", 'webshop'],
    ['alfworld_numbered_instance', act(rule({ condition: { pred: 'action_not_admissible' }, effect: { kind: 'force_action', action: 'take egg 2' } }), 'alfworld'), 'actions[0].effect.action', "ALFWorld force/rewrite actions may not contain numbered object/location instances such as 'sinkbasin 1' or 'egg 2'; use inject_hint or a broad guard instead", 'alfworld'],
    ['condition_too_deep', act(rule({ condition: nest(9) })), `actions[0].condition${'.not'.repeat(9)}`, 'condition nesting is too deep', 'webshop'],
    ['condition_shape', act(rule({ condition: {} })), 'actions[0].condition', 'condition must be an object with exactly one operator', 'webshop'],
    ['unsupported_condition_operator', act(rule({ condition: { xor: [] } })), 'actions[0].condition', "unsupported condition operator: 'xor'", 'webshop'],
    ['condition_operands', act(rule({ condition: { any: [] } })), 'actions[0].condition.any', 'condition.any must be a non-empty list', 'webshop'],
    ['condition_operands', act(rule({ condition: { pred: '' } })), 'actions[0].condition.pred', 'condition.pred must be a predicate name', 'webshop'],
    ['condition_operands', act(rule({ condition: { eq: [1] } })), 'actions[0].condition.eq', 'condition.eq must be a two-item list', 'webshop'],
    ['condition_too_deep', act(rule({ condition: { all: [nest(8)] } })), `actions[0].condition.all[0]${'.not'.repeat(8)}`, 'condition nesting is too deep', 'webshop'],
    ['unsupported_predicate', act(rule({ condition: { pred: 'x' } })), 'actions[0].condition.pred', "unsupported predicate for webshop: 'x'", 'webshop'],
    ['unsupported_condition_path', act(rule({ condition: { eq: ['task.x', 1] } })), 'actions[0].condition.eq[0]', "unsupported condition path for webshop: 'task.x'", 'webshop'],
  ])('%s: %j', async (ruleName, patch, field, message) => {
    expect(await rejected(patch)).toEqual(normalizeError(ruleName, field, message));
  });
});

/** `{not: {not: … {pred}}}` with the predicate at depth `depth`. */
function nest(depth: number, leaf: unknown = { pred: 'buy_now_available' }): unknown {
  let cond = leaf;
  for (let i = 0; i < depth; i++) cond = { not: cond };
  return cond;
}

describe('conditions (§3.4)', () => {
  const guard = (condition: unknown, benchmark = 'webshop') => ({ benchmark, actions: [{ type: 'add_guard_rule', rule_id: 'g', condition, effect: { kind: 'block_and_prompt', message: 'm' } }] });
  async function cond(condition: unknown, notes: PatchNote[] = []): Promise<unknown> {
    const result = await run(guard(condition), { notes });
    if (!result.ok) return `${result.rejection.field}: ${result.rejection.message}`;
    const action = result.value.actions[0]!;
    return action.type === 'add_guard_rule' ? action.condition : action;
  }

  it.each<[unknown, unknown]>([
    [nest(8), nest(8)],
    [nest(9), `actions[0].condition${'.not'.repeat(9)}: condition nesting is too deep`],
    [{ all: [nest(7)] }, { all: [nest(7)] }],
    [{ all: [nest(8)] }, `actions[0].condition.all[0]${'.not'.repeat(8)}: condition nesting is too deep`],
    [{ any: [{ pred: 'buy_now_available' }, { any: [nest(7)] }] }, `actions[0].condition.any[1].any[0]${'.not'.repeat(7)}: condition nesting is too deep`],
    [{ all: [{ pred: 'buy_now_available' }, { pred: 'same_click_repeated' }] }, { all: [{ pred: 'buy_now_available' }, { pred: 'same_click_repeated' }] }],
    [{ any: [{ pred: 'buy_now_available' }, { not: { pred: 'search_not_available' } }] }, { any: [{ pred: 'buy_now_available' }, { not: { pred: 'search_not_available' } }] }],
    [{ all: [{ pred: 'buy_now_available' }, { pred: 'nope' }] }, "actions[0].condition.all[1].pred: unsupported predicate for webshop: 'nope'"],
    [{ any: [{ pred: 'buy_now_available' }, {}] }, 'actions[0].condition.any[1]: condition must be an object with exactly one operator'],
    [{ not: { pred: 'nope' } }, "actions[0].condition.not.pred: unsupported predicate for webshop: 'nope'"],
    [{ all: [] }, 'actions[0].condition.all: condition.all must be a non-empty list'],
    [{ all: { pred: 'buy_now_available' } }, 'actions[0].condition.all: condition.all must be a non-empty list'],
    [{ any: 'buy_now_available' }, 'actions[0].condition.any: condition.any must be a non-empty list'],
    [null, 'actions[0].condition: condition must be an object with exactly one operator'],
    [[{ pred: 'buy_now_available' }], 'actions[0].condition: condition must be an object with exactly one operator'],
    [{ pred: 'buy_now_available', not: { pred: 'buy_now_available' } }, 'actions[0].condition: condition must be an object with exactly one operator'],
    [{ xor: [1, 2] }, "actions[0].condition: unsupported condition operator: 'xor'"],
    [{ toString: [1, 2] }, "actions[0].condition: unsupported condition operator: 'toString'"],
    [{ pred: '' }, 'actions[0].condition.pred: condition.pred must be a predicate name'],
    [{ pred: 3 }, 'actions[0].condition.pred: condition.pred must be a predicate name'],
    [{ pred: ['buy_now_available'] }, 'actions[0].condition.pred: condition.pred must be a predicate name'],
    [{ pred: 'Buy_Now_Available' }, "actions[0].condition.pred: unsupported predicate for webshop: 'Buy_Now_Available'"],
    [{ eq: ['state.budget', 10] }, { eq: ['state.price_max', 10] }],
    [{ lte: ['state.max_price', 'state.current_price'] }, { lte: ['state.price_max', 'state.current_price'] }],
    [{ ne: ['action.tool', 'click_action'] }, { ne: ['action.tool', 'click_action'] }],
    [{ contains: ['task.required_color', null] }, { contains: ['task.required_color', null] }],
    [{ gt: [1.5, true] }, { gt: [1.5, true] }],
    [{ startswith: ['toString', 'constructor'] }, { startswith: ['toString', 'constructor'] }],
    [{ endswith: ['Action.tool', 'actionx.y'] }, { endswith: ['Action.tool', 'actionx.y'] }],
    [{ eq: ['x state.nope', 'the task.x'] }, { eq: ['x state.nope', 'the task.x'] }],
    [{ eq: ['state.nope', 1] }, "actions[0].condition.eq[0]: unsupported condition path for webshop: 'state.nope'"],
    [{ eq: [1, 'action.nope'] }, "actions[0].condition.eq[1]: unsupported condition path for webshop: 'action.nope'"],
    [{ gte: ['task.', 1] }, "actions[0].condition.gte[0]: unsupported condition path for webshop: 'task.'"],
    [{ eq: [1] }, 'actions[0].condition.eq: condition.eq must be a two-item list'],
    [{ lt: [1, 2, 3] }, 'actions[0].condition.lt: condition.lt must be a two-item list'],
    [{ gt: 'x' }, 'actions[0].condition.gt: condition.gt must be a two-item list'],
  ])('%j → %j', async (condition, expected) => {
    expect(await cond(condition)).toEqual(expected);
  });

  it('notes a predicates.* operand that names no predicate (not validated, as in the original), and no other operand', async () => {
    const notes: PatchNote[] = [];
    expect(await cond({ eq: ['predicates.no_such', 'predicates.buy_now_available'] }, notes)).toEqual({ eq: ['predicates.no_such', 'predicates.buy_now_available'] });
    expect(notes).toEqual([{
      kind: 'unvalidated_predicate_operand',
      field: 'actions[0].condition.eq[0]',
      message: "'predicates.no_such' is not a webshop predicate; the original does not validate predicates.* operands and it resolves to null at runtime",
    }]);
    const none: PatchNote[] = [];
    await cond({ eq: ['state.page_type', 'xpredicates.no_such'] }, none);
    await cond({ eq: ['predicates.same_click_repeated', 1] }, none);
    expect(none).toEqual([]);
  });

  it('checks paths against the benchmark of the patch', async () => {
    expect(await run(guard({ eq: ['state.price_max', 1] }, 'alfworld'))).toMatchObject({ ok: false, rejection: { field: 'actions[0].condition.eq[0]', message: "unsupported condition path for alfworld: 'state.price_max'" } });
    // The budget aliases are WebShop's only.
    expect(await run(guard({ eq: ['state.budget', 1] }, 'alfworld'))).toMatchObject({ ok: false, rejection: { message: "unsupported condition path for alfworld: 'state.budget'" } });
  });
});
