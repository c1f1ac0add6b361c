import { describe, expect, it } from 'vitest';

import { WEBSHOP_PATCH_RULES } from '../benchmarks/webshop/patch-rules.js';
import { BUILTIN_PATCH_RULES } from '../testing/builtin-patch-rules.js';
import { pyJsonLoads } from '../python/python-json.js';
import { normalizePatch } from './normalize-patch.js';
import { patchRulesLookup, type PatchRules, type PatchRulesLookup } from './patch-rules.js';
import type { HookCompiler, PatchNote } from './patch-types.js';

// The legacy DSL actions of protocol.md §3.3 one field at a time: the whole normalized action when a
// patch passes, the exact field and message when it does not, and the limits at and one past the bound.

const acceptAll: HookCompiler = async () => ({ ok: true });

async function normalize(bench: string, actions: unknown[], benchmarks: PatchRulesLookup = BUILTIN_PATCH_RULES, notes: PatchNote[] = []) {
  const parsed = pyJsonLoads(JSON.stringify({ benchmark: bench, actions }));
  if (!parsed.ok) throw new Error('test patch is not JSON');
  return normalizePatch(parsed.value, { benchmarks, compiler: acceptAll, notes });
}

/** The first action after normalization, or `field: message` of the rejection. */
async function one(bench: string, action: Record<string, unknown>, benchmarks?: PatchRulesLookup): Promise<unknown> {
  const result = await normalize(bench, [action], benchmarks);
  return result.ok ? result.value.actions[0] : `${result.rejection.field}: ${result.rejection.message}`;
}

/** Like `one`, for a Python JSON text of the action (NaN, huge ints). */
async function oneText(bench: string, actionJson: string, notes: PatchNote[] = []): Promise<unknown> {
  const parsed = pyJsonLoads(`{"benchmark": "${bench}", "actions": [${actionJson}]}`);
  if (!parsed.ok) throw new Error('test patch is not JSON');
  const result = await normalizePatch(parsed.value, { benchmarks: BUILTIN_PATCH_RULES, compiler: acceptAll, notes });
  return result.ok ? result.value.actions[0] : `${result.rejection.field}: ${result.rejection.message} (${result.rejection.exception})`;
}

const setConfig = (extra: Record<string, unknown>) => ({ type: 'set_config', ...extra });

describe('set_config', () => {
  it.each<[Record<string, unknown>, unknown]>([
    [{ target: 'price_tolerance', value: 0.5 }, { type: 'set_config', target: 'price_tolerance', value: 0.5 }],
    [{ target: 'price_tolerance', value: 0 }, { type: 'set_config', target: 'price_tolerance', value: 0 }],
    [{ target: ' webshop.price_tolerance ', value: 0.25 }, { type: 'set_config', target: 'price_tolerance', value: 0.25 }],
    [{ target: 'harness.price_tolerance', value: 0.1 }, { type: 'set_config', target: 'price_tolerance', value: 0.1 }],
    [{ target: 'config.price_tolerance', value: 0.1 }, { type: 'set_config', target: 'price_tolerance', value: 0.1 }],
    [{ field: 'price_tolerance', value: 0.2 }, { type: 'set_config', target: 'price_tolerance', value: 0.2 }],
    [{ target: '', field: 'price_tolerance', value: 0.2 }, { type: 'set_config', target: 'price_tolerance', value: 0.2 }],
    [{ target: 'price_tolerance', value: 0.51 }, 'actions[0].value: price_tolerance above maximum 0.5'],
    [{ target: 'price_tolerance', value: -0.01 }, 'actions[0].value: price_tolerance below minimum 0.0'],
    [{ target: 'price_tolerance', value: true }, 'actions[0].value: price_tolerance expects number'],
    [{ target: 'price_tolerance', value: '0.1' }, 'actions[0].value: price_tolerance expects number'],
    [{ target: 'price_tolerance' }, 'actions[0].value: price_tolerance expects number'],
    [{ target: 'alfworld.price_tolerance', value: 0.1 }, "actions[0].target: config target prefix 'alfworld' does not match webshop"],
    [{ target: '.price_tolerance', value: 0.1 }, "actions[0].target: config target prefix '' does not match webshop"],
    [{ target: 'config.webshop.price_tolerance', value: 0.1 }, "actions[0].target: unsupported config target for webshop: 'config.webshop.price_tolerance'"],
    [{ target: 'webshop.', value: 0.1 }, "actions[0].target: unsupported config target for webshop: 'webshop.'"],
    [{ target: 'nope', value: 1 }, "actions[0].target: unsupported config target for webshop: 'nope'"],
    [{ field: 'nope', value: 1 }, "actions[0].field: unsupported config target for webshop: 'nope'"],
    [{ value: 1 }, "actions[0].field: unsupported config target for webshop: ''"],
    [{ target: 'toString', value: 1 }, "actions[0].target: unsupported config target for webshop: 'toString'"],
    [{ target: 'h2_enabled', value: true }, "actions[0].target: 'h2' cannot be changed by a Harness-R1 patch; patches edit only the overlay substrate, not built-in harness modules"],
    [{ target: 'h3_enabled', value: true }, "actions[0].target: 'h3' cannot be changed by a Harness-R1 patch; patches edit only the overlay substrate, not built-in harness modules"],
    [{ target: 'h4_enabled', value: true }, "actions[0].target: 'h4' cannot be changed by a Harness-R1 patch; patches edit only the overlay substrate, not built-in harness modules"],
    [{ target: 'h6_enabled', value: true }, "actions[0].target: unsupported config target for webshop: 'h6_enabled'"],
    [{ target: 'h5_enabled', value: true }, "actions[0].target: 'h5' cannot be changed by a Harness-R1 patch; patches edit only the overlay substrate, not built-in harness modules"],
    [{ target: 'harness.enabled', value: true }, "actions[0].target: 'enabled' cannot be changed by a Harness-R1 patch; patches edit only the overlay substrate, not built-in harness modules"],
    [{ target: 'h4_warn_threshold', value: 3 }, "actions[0].target: 'h4_warn_threshold' is not an exposed config target for webshop; patches may only set config fields listed in the Harness-R1 prompt"],
  ])('webshop %j → %j', async (extra, expected) => {
    expect(await one('webshop', setConfig(extra))).toEqual(expected);
  });

  it('is always invalid for ALFWorld and DBBench, which expose no field', async () => {
    expect(await one('alfworld', setConfig({ target: 'price_tolerance', value: 0.1 }))).toBe("actions[0].target: unsupported config target for alfworld: 'price_tolerance'");
    expect(await one('alfworld', setConfig({ target: 'h3_max_words', value: 10 }))).toBe("actions[0].target: 'h3_max_words' is not an exposed config target for alfworld; patches may only set config fields listed in the Harness-R1 prompt");
    expect(await one('dbbench', setConfig({ target: 'dbbench.h2', value: false }))).toBe("actions[0].target: 'h2' cannot be changed by a Harness-R1 patch; patches edit only the overlay substrate, not built-in harness modules");
  });

  it('a huge int is an OverflowError as float() raises it; NaN passes the range check with a note', async () => {
    expect(await oneText('webshop', `{"type": "set_config", "target": "price_tolerance", "value": 1${'0'.repeat(400)}}`)).toBe('actions[0].value: int too large to convert to float (OverflowError)');
    const notes: PatchNote[] = [];
    expect(await oneText('webshop', '{"type": "set_config", "target": "price_tolerance", "value": NaN}', notes)).toEqual({ type: 'set_config', target: 'price_tolerance', value: NaN });
    expect(notes).toEqual([{ kind: 'non_finite_number', field: 'actions[0].value', message: "price_tolerance is nan; the original's range check lets NaN through" }]);
    const none: PatchNote[] = [];
    await oneText('webshop', '{"type": "set_config", "target": "price_tolerance", "value": 0.5}', none);
    expect(none).toEqual([]);
  });

  // No built-in benchmark exposes an int or bool field; the typing rules still hold for one that does.
  const exposing: PatchRules = {
    ...WEBSHOP_PATCH_RULES,
    legacy: {
      ...WEBSHOP_PATCH_RULES.legacy,
      configFields: { ...WEBSHOP_PATCH_RULES.legacy.configFields, flag: { type: 'bool' } },
      promptConfigFields: ['price_tolerance', 'h4_warn_threshold', 'flag'],
    },
  };
  const lookup = patchRulesLookup([exposing]);
  it.each<[Record<string, unknown>, unknown]>([
    [{ target: 'h4_warn_threshold', value: 1 }, { type: 'set_config', target: 'h4_warn_threshold', value: 1 }],
    [{ target: 'h4_warn_threshold', value: 20 }, { type: 'set_config', target: 'h4_warn_threshold', value: 20 }],
    [{ target: 'h4_warn_threshold', value: 0 }, 'actions[0].value: h4_warn_threshold below minimum 1'],
    [{ target: 'h4_warn_threshold', value: 21 }, 'actions[0].value: h4_warn_threshold above maximum 20'],
    [{ target: 'h4_warn_threshold', value: 2.5 }, 'actions[0].value: h4_warn_threshold expects integer'],
    [{ target: 'h4_warn_threshold', value: true }, 'actions[0].value: h4_warn_threshold expects integer'],
    [{ target: 'flag', value: false }, { type: 'set_config', target: 'flag', value: false }],
    [{ target: 'flag', value: 1 }, 'actions[0].value: flag expects boolean'],
  ])('an exposed int or bool field %j → %j', async (extra, expected) => {
    expect(await one('webshop', setConfig(extra), lookup)).toEqual(expected);
  });

  it('a value of the wrong type or out of range is rejected with its rule', async () => {
    for (const [target, value, rule] of [['flag', 1, 'config_value_type'], ['h4_warn_threshold', 2.5, 'config_value_type'], ['h4_warn_threshold', 0, 'config_value_range'], ['price_tolerance', 'x', 'config_value_type']] as const) {
      expect(await normalize('webshop', [setConfig({ target, value })], lookup)).toMatchObject({ ok: false, rejection: { rule, field: 'actions[0].value', stage: 'normalize', exception: 'PatchValidationError' } });
    }
    const huge = pyJsonLoads(`{"benchmark": "webshop", "actions": [{"type": "set_config", "target": "price_tolerance", "value": 1${'0'.repeat(400)}}]}`);
    if (!huge.ok) throw new Error('test patch is not JSON');
    expect(await normalizePatch(huge.value, { benchmarks: BUILTIN_PATCH_RULES, compiler: acceptAll })).toEqual({
      ok: false,
      rejection: { rule: 'config_value_range', field: 'actions[0].value', message: 'int too large to convert to float', stage: 'normalize', exception: 'OverflowError' },
    });
  });

  it('notes nothing for a finite number or a bool', async () => {
    for (const value of [false, 3, 0.5]) {
      const notes: PatchNote[] = [];
      const target = typeof value === 'boolean' ? 'flag' : value === 3 ? 'h4_warn_threshold' : 'price_tolerance';
      expect(await normalize('webshop', [setConfig({ target, value })], lookup, notes)).toMatchObject({ ok: true });
      expect(notes).toEqual([]);
    }
  });
});

describe('edit_tool_hint', () => {
  const hint = (extra: Record<string, unknown>) => ({ type: 'edit_tool_hint', tool: 'search_action', text: '  quote   the  options ', ...extra });
  it.each<[string, Record<string, unknown>, unknown]>([
    ['webshop', {}, { type: 'edit_tool_hint', tool: 'search_action', operation: 'append', text: 'quote the options' }],
    ['webshop', { tool: ' click_action ', operation: ' prepend ', junk: 1 }, { type: 'edit_tool_hint', tool: 'click_action', operation: 'prepend', text: 'quote the options' }],
    ['webshop', { operation: 'replace' }, { type: 'edit_tool_hint', tool: 'search_action', operation: 'replace', text: 'quote the options' }],
    ['webshop', { operation: '' }, { type: 'edit_tool_hint', tool: 'search_action', operation: 'append', text: 'quote the options' }],
    ['alfworld', { tool: 'take_action' }, { type: 'edit_tool_hint', tool: 'take_action', operation: 'append', text: 'quote the options' }],
    ['dbbench', { tool: 'commit_final_answer' }, { type: 'edit_tool_hint', tool: 'commit_final_answer', operation: 'append', text: 'quote the options' }],
    ['webshop', { operation: 'delete' }, "actions[0].operation: unsupported edit_tool_hint operation: 'delete'"],
    ['webshop', { tool: 'take_action' }, "actions[0].tool: unsupported tool for webshop: 'take_action'"],
    ['dbbench', { tool: 'search_action' }, "actions[0].tool: unsupported tool for dbbench: 'search_action'"],
    ['webshop', { tool: null }, "actions[0].tool: unsupported tool for webshop: ''"],
    ['webshop', { text: undefined }, 'actions[0].text: edit_tool_hint.text cannot be empty'],
    ['webshop', { text: ' \n ' }, 'actions[0].text: edit_tool_hint.text cannot be empty'],
    ['webshop', { text: 3 }, 'actions[0].text: edit_tool_hint.text must be a string'],
    ['webshop', { text: 'see task 3' }, 'actions[0].text: edit_tool_hint.text appears to contain task-specific leakage'],
    ['webshop', { text: 'x'.repeat(901) }, 'actions[0].text: edit_tool_hint.text exceeds 900 chars'],
  ])('%s %j → %j', async (bench, extra, expected) => {
    expect(await one(bench, hint(extra))).toEqual(expected);
  });
});

describe('add_or_edit_skill', () => {
  const skill = (extra: Record<string, unknown>) => ({ type: 'add_or_edit_skill', skill_id: 'pick', text: ' pick  the cheapest ', ...extra });
  const out = (extra: Record<string, unknown> = {}) => ({ type: 'add_or_edit_skill', skill_id: 'pick', task_types: ['*'], keywords: [], text: 'pick the cheapest', ...extra });
  it.each<[Record<string, unknown>, unknown]>([
    [{}, out()],
    [{ skill_id: ' a.b:c-d_9 ' }, out({ skill_id: 'a.b:c-d_9' })],
    [{ skill_id: '', id: 'other' }, out({ skill_id: 'other' })],
    [{ skill_id: 'x'.repeat(80) }, out({ skill_id: 'x'.repeat(80) })],
    [{ skill_id: 'x'.repeat(81) }, `actions[0].skill_id: invalid skill_id: '${'x'.repeat(81)}'`],
    [{ skill_id: 'a b' }, "actions[0].skill_id: invalid skill_id: 'a b'"],
    [{ skill_id: null, id: 'a/b' }, "actions[0].id: invalid skill_id: 'a/b'"],
    [{ skill_id: null }, "actions[0].id: invalid skill_id: ''"],
    [{ task_types: [' Search ', '*', 'a.b:c-d_9'] }, out({ task_types: ['search', '*', 'a.b:c-d_9'] })],
    [{ task_types: [] }, out()],
    [{ task_types: Array(16).fill('t') }, out({ task_types: Array(16).fill('t') })],
    [{ task_types: Array(17).fill('t') }, 'actions[0].task_types: skill.task_types must be a list of <=16 strings'],
    [{ task_types: 'search' }, 'actions[0].task_types: skill.task_types must be a list of <=16 strings'],
    [{ task_types: ['x'.repeat(64)] }, out({ task_types: ['x'.repeat(64)] })],
    [{ task_types: ['ok', 'x'.repeat(65)] }, `actions[0].task_types[1]: invalid task_type: '${'x'.repeat(65)}'`],
    [{ task_types: ['bad type'] }, "actions[0].task_types[0]: invalid task_type: 'bad type'"],
    [{ task_types: [''] }, "actions[0].task_types[0]: invalid task_type: ''"],
    [{ task_types: [3] }, 'actions[0].task_types[0]: task_type must be a string'],
    [{ keywords: [' Buy  Now ', 'color'] }, out({ keywords: ['buy_now', 'color'] })],
    [{ keywords: Array(32).fill('k') }, out({ keywords: Array(32).fill('k') })],
    [{ keywords: Array(33).fill('k') }, 'actions[0].keywords: skill.keywords must be a list of <=32 strings'],
    [{ keywords: { a: 1 } }, 'actions[0].keywords: skill.keywords must be a list of <=32 strings'],
    [{ keywords: ['ok', 'a/b'] }, "actions[0].keywords[1]: invalid keyword: 'a/b'"],
    [{ keywords: ['*'] }, out({ keywords: ['*'] })],
    [{ keywords: [null] }, 'actions[0].keywords[0]: keyword must be a string'],
    [{ text: undefined }, 'actions[0].text: skill.text cannot be empty'],
    [{ text: 'B0ABCDEFGH is the one' }, 'actions[0].text: skill.text appears to contain task-specific leakage'],
  ])('%j → %j', async (extra, expected) => {
    expect(await one('webshop', skill(extra))).toEqual(expected);
  });
});

describe('add_guard_rule and add_recovery_rule', () => {
  const guard = (extra: Record<string, unknown>) => ({ type: 'add_guard_rule', rule_id: 'g', condition: { pred: 'buy_now_available' }, effect: { kind: 'block_and_prompt', message: ' pick  options ' }, ...extra });
  const recovery = (extra: Record<string, unknown>) => ({ type: 'add_recovery_rule', rule_id: 'r', condition: { pred: 'buy_now_available' }, effect: { kind: 'inject_hint', message: 'm' }, ...extra });
  it.each<[string, Record<string, unknown>, unknown]>([
    ['webshop', guard({}), { type: 'add_guard_rule', rule_id: 'g', trigger: 'before_action', condition: { pred: 'buy_now_available' }, effect: { kind: 'block_and_prompt', message: 'pick options' } }],
    ['webshop', guard({ rule_id: '', id: 'x:1', trigger: ' before_action ' }), { type: 'add_guard_rule', rule_id: 'x:1', trigger: 'before_action', condition: { pred: 'buy_now_available' }, effect: { kind: 'block_and_prompt', message: 'pick options' } }],
    ['webshop', guard({ trigger: 'post_step' }), "actions[0].trigger: unsupported guard trigger: 'post_step'"],
    ['webshop', guard({ rule_id: 'a b' }), "actions[0].rule_id: invalid rule_id: 'a b'"],
    ['webshop', guard({ rule_id: undefined, id: '' }), "actions[0].id: invalid rule_id: ''"],
    ['webshop', guard({ effect: { kind: 'inject_hint', message: 'm' } }), "actions[0].effect.kind: effect kind 'inject_hint' is not supported for webshop guard rules"],
    ['webshop', guard({ effect: { kind: 'explode' } }), "actions[0].effect.kind: unsupported effect kind: 'explode'"],
    ['webshop', guard({ effect: undefined }), "actions[0].effect.kind: unsupported effect kind: ''"],
    ['webshop', guard({ effect: {} }), "actions[0].effect.kind: unsupported effect kind: ''"],
    ['webshop', guard({ effect: 'block' }), 'actions[0].effect: rule.effect must be an object'],
    ['webshop', guard({ effect: [1] }), 'actions[0].effect: rule.effect must be an object'],
    ['webshop', guard({ effect: { kind: 'block_and_prompt' } }), 'actions[0].effect.message: effect.message cannot be empty'],
    ['webshop', guard({ effect: { kind: ' force_action ', action: ' click  buy ' } }), { type: 'add_guard_rule', rule_id: 'g', trigger: 'before_action', condition: { pred: 'buy_now_available' }, effect: { kind: 'force_action', action: 'click buy' } }],
    ['webshop', guard({ effect: { kind: 'rewrite_action', action: 'click item 2', message: ' why  not ' } }), { type: 'add_guard_rule', rule_id: 'g', trigger: 'before_action', condition: { pred: 'buy_now_available' }, effect: { kind: 'rewrite_action', action: 'click item 2', message: 'why not' } }],
    ['webshop', guard({ effect: { kind: 'rewrite_action', action: 'a', message: '' } }), { type: 'add_guard_rule', rule_id: 'g', trigger: 'before_action', condition: { pred: 'buy_now_available' }, effect: { kind: 'rewrite_action', action: 'a' } }],
    // A truthy message is cleaned with required=False, so whitespace alone gives an empty message.
    ['webshop', guard({ effect: { kind: 'force_action', action: 'a', message: ' \n ' } }), { type: 'add_guard_rule', rule_id: 'g', trigger: 'before_action', condition: { pred: 'buy_now_available' }, effect: { kind: 'force_action', action: 'a', message: '' } }],
    ['webshop', guard({ effect: { kind: 'rewrite_action', action: 'a', message: 3 } }), 'actions[0].effect.message: effect.message must be a string'],
    ['webshop', guard({ effect: { kind: 'rewrite_action', action: 'a', message: 'task 3' } }), 'actions[0].effect.message: effect.message appears to contain task-specific leakage'],
    ['webshop', guard({ effect: { kind: 'force_action' } }), 'actions[0].effect.action: effect.action cannot be empty'],
    ['webshop', guard({ effect: { kind: 'force_action', action: 'sample 12' } }), 'actions[0].effect.action: effect.action appears to contain task-specific leakage'],
    ['webshop', guard({ condition: { pred: 'nope' } }), "actions[0].condition.pred: unsupported predicate for webshop: 'nope'"],
    ['alfworld', guard({ condition: { pred: 'action_not_admissible' }, effect: { kind: 'force_action', action: 'go to sinkbasin 1' } }), "actions[0].effect.action: ALFWorld force/rewrite actions may not contain numbered object/location instances such as 'sinkbasin 1' or 'egg 2'; use inject_hint or a broad guard instead"],
    ['alfworld', guard({ condition: { pred: 'action_not_admissible' }, effect: { kind: 'rewrite_action', action: 'Go  To   the sinkbasin' } }), { type: 'add_guard_rule', rule_id: 'g', trigger: 'before_action', condition: { pred: 'action_not_admissible' }, effect: { kind: 'rewrite_action', action: 'Go To the sinkbasin' } }],
    ['webshop', recovery({}), { type: 'add_recovery_rule', rule_id: 'r', trigger: 'post_step', condition: { pred: 'buy_now_available' }, effect: { kind: 'inject_hint', message: 'm' } }],
    ['webshop', recovery({ trigger: 'budget_check' }), { type: 'add_recovery_rule', rule_id: 'r', trigger: 'budget_check', condition: { pred: 'buy_now_available' }, effect: { kind: 'inject_hint', message: 'm' } }],
    ['alfworld', recovery({ trigger: 'budget_check', condition: { pred: 'action_not_admissible' } }), "actions[0].trigger: unsupported recovery trigger: 'budget_check'"],
    ['webshop', recovery({ trigger: 'before_action' }), "actions[0].trigger: unsupported recovery trigger: 'before_action'"],
    ['webshop', recovery({ effect: { kind: 'block_and_prompt', message: 'm' } }), "actions[0].effect.kind: effect kind 'block_and_prompt' is not supported for webshop recovery rules"],
    ['alfworld', recovery({ condition: { pred: 'action_not_admissible' }, effect: { kind: 'rewrite_action', action: 'look' } }), "actions[0].effect.kind: effect kind 'rewrite_action' is not supported for alfworld recovery rules"],
    ['webshop', recovery({ effect: { kind: 'inject_hint', message: 'x'.repeat(900) } }), { type: 'add_recovery_rule', rule_id: 'r', trigger: 'post_step', condition: { pred: 'buy_now_available' }, effect: { kind: 'inject_hint', message: 'x'.repeat(900) } }],
    ['webshop', recovery({ effect: { kind: 'inject_hint', message: 'x'.repeat(901) } }), 'actions[0].effect.message: effect.message exceeds 900 chars'],
  ])('%s %j → %j', async (bench, action, expected) => {
    expect(await one(bench, action)).toEqual(expected);
  });

  it('DBBench recovery rules take all four effect kinds', async () => {
    for (const effect of [{ kind: 'block_and_prompt', message: 'm' }, { kind: 'inject_hint', message: 'm' }, { kind: 'force_action', action: 'a' }, { kind: 'rewrite_action', action: 'a' }]) {
      const pred = BUILTIN_PATCH_RULES('dbbench')!.legacy.conditionPredicates[0]!;
      expect(await one('dbbench', recovery({ condition: { pred }, effect }))).toEqual({ type: 'add_recovery_rule', rule_id: 'r', trigger: 'post_step', condition: { pred }, effect });
    }
  });
});
