/**
 * The legacy DSL actions (§3.3), accepted by the original's `normalize_patch` and rejected only under
 * the code-hook-only protocol: set_config, edit_tool_hint, add_or_edit_skill, add_guard_rule and
 * add_recovery_rule. Every normalizer follows the original's check order, so the first failing check is
 * the one reported.
 */
import { cleanKeyword, cleanText, cleanToken, namesNumberedInstanceAction } from './clean-text.js';
import { MODULE_FLAGS, type ConfigFieldSpec } from './patch-rules.js';
import { normalizeCondition, type ConditionOptions } from './conditions.js';
import {
  EFFECT_KINDS,
  type EditToolHintAction,
  type EffectKind,
  type GuardRuleAction,
  type RecoveryRuleAction,
  type RuleEffect,
  type SetConfigAction,
  type SkillAction,
  type ToolHintOperation,
} from './patch-types.js';
import { isPyDict, pyGet, type PyDict, type PyValue } from '../python/python-json.js';
import { pyFloatRepr, pyRepr, pyStr, pyStrip, pyTruthy } from '../python/python-text.js';
import { accept, reject, type Step } from './rejection.js';

const TARGET_ALIASES: Readonly<Record<string, string>> = { h2_enabled: 'h2', h3_enabled: 'h3', h4_enabled: 'h4', h5_enabled: 'h5' };
const ID_RE = /^[a-zA-Z0-9_.:-]{1,80}$/;

export interface LegacyContext extends ConditionOptions {
  /** `actions[i]`, the prefix of every rejected field. */
  path: string;
}

function get(action: PyDict, key: string, fallback: PyValue = null): PyValue {
  return pyGet(action, key, fallback);
}

/** `a or b or ""` on two dict lookups. */
function firstTruthy(action: PyDict, ...keys: string[]): PyValue {
  for (const key of keys) {
    const value = get(action, key);
    if (pyTruthy(value)) return value;
  }
  return '';
}

function boundText(spec: ConfigFieldSpec, bound: number): string {
  return spec.type === 'float' ? pyFloatRepr(bound) : String(bound);
}

/** `_normalize_set_config` with `_field_from_target`. */
export function normalizeSetConfig(action: PyDict, ctx: LegacyContext): Step<SetConfigAction> {
  const { rules, path } = ctx;
  const bench = rules.name;
  const configFields = rules.legacy.configFields;
  const targetKey = pyTruthy(get(action, 'target')) ? 'target' : 'field';
  const target = pyStr(firstTruthy(action, 'target', 'field'));
  const targetPath = `${path}.${targetKey}`;
  let field = pyStrip(target);
  const dot = field.indexOf('.');
  if (dot >= 0) {
    const prefix = field.slice(0, dot);
    field = field.slice(dot + 1);
    if (prefix !== bench && prefix !== 'harness' && prefix !== 'config') {
      return reject('config_target_prefix', targetPath, `config target prefix ${pyRepr(prefix)} does not match ${bench}`);
    }
  }
  field = TARGET_ALIASES[field] ?? field;
  const spec = Object.hasOwn(configFields, field) ? configFields[field] : undefined;
  if (spec === undefined) {
    return reject('unsupported_config_target', targetPath, `unsupported config target for ${bench}: ${pyRepr(target)}`);
  }
  if (Object.hasOwn(MODULE_FLAGS, field)) {
    return reject(
      'module_config_target',
      targetPath,
      `${pyRepr(field)} cannot be changed by a Harness-R1 patch; patches edit only the overlay substrate, not built-in harness modules`,
    );
  }
  if (!rules.legacy.promptConfigFields.includes(field)) {
    return reject(
      'unexposed_config_target',
      targetPath,
      `${pyRepr(field)} is not an exposed config target for ${bench}; patches may only set config fields listed in the Harness-R1 prompt`,
    );
  }
  const raw = get(action, 'value');
  const valuePath = `${path}.value`;
  let value: boolean | number;
  if (spec.type === 'bool') {
    if (typeof raw !== 'boolean') return reject('config_value_type', valuePath, `${field} expects boolean`);
    value = raw;
  } else if (spec.type === 'int') {
    if (typeof raw !== 'bigint') return reject('config_value_type', valuePath, `${field} expects integer`);
    value = Number(raw);
  } else {
    if (typeof raw !== 'bigint' && typeof raw !== 'number') {
      return reject('config_value_type', valuePath, `${field} expects number`);
    }
    value = Number(raw);
    if (typeof raw === 'bigint' && !Number.isFinite(value)) {
      return reject('config_value_range', valuePath, 'int too large to convert to float', { exception: 'OverflowError' });
    }
  }
  if (typeof value === 'number') {
    if (spec.min !== undefined && value < spec.min) {
      return reject('config_value_range', valuePath, `${field} below minimum ${boundText(spec, spec.min)}`);
    }
    if (spec.max !== undefined && value > spec.max) {
      return reject('config_value_range', valuePath, `${field} above maximum ${boundText(spec, spec.max)}`);
    }
    if (!Number.isFinite(value)) {
      const message = `${field} is ${pyFloatRepr(value)}; the original's range check lets NaN through`;
      ctx.notes.push({ kind: 'non_finite_number', field: valuePath, message });
    }
  }
  return accept({ type: 'set_config', target: field, value });
}

/** `_normalize_tool_hint`. */
export function normalizeToolHint(action: PyDict, ctx: LegacyContext): Step<EditToolHintAction> {
  const { rules, path } = ctx;
  const bench = rules.name;
  const tool = pyStrip(pyStr(firstTruthy(action, 'tool')));
  if (!rules.legacy.tools.includes(tool)) {
    return reject('unsupported_tool', `${path}.tool`, `unsupported tool for ${bench}: ${pyRepr(tool)}`);
  }
  const operationValue = get(action, 'operation');
  const operation = pyStrip(pyTruthy(operationValue) ? pyStr(operationValue) : 'append');
  if (operation !== 'append' && operation !== 'prepend' && operation !== 'replace') {
    return reject(
      'unsupported_tool_operation',
      `${path}.operation`,
      `unsupported edit_tool_hint operation: ${pyRepr(operation)}`,
    );
  }
  const text = cleanText(get(action, 'text', ''), 'edit_tool_hint.text', `${path}.text`);
  if (!text.ok) return text;
  return accept({ type: 'edit_tool_hint', tool, operation: operation as ToolHintOperation, text: text.value });
}

function normalizeId(action: PyDict, key: 'skill_id' | 'rule_id', path: string): Step<string> {
  const usedKey = pyTruthy(get(action, key)) ? key : 'id';
  const id = pyStrip(pyStr(firstTruthy(action, key, 'id')));
  if (!ID_RE.test(id)) return reject('invalid_id', `${path}.${usedKey}`, `invalid ${key}: ${pyRepr(id)}`);
  return accept(id);
}

/** `_normalize_skill`. */
export function normalizeSkill(action: PyDict, ctx: LegacyContext): Step<SkillAction> {
  const { path } = ctx;
  const skillId = normalizeId(action, 'skill_id', path);
  if (!skillId.ok) return skillId;
  const rawTaskTypes = get(action, 'task_types');
  const taskTypes: PyValue = pyTruthy(rawTaskTypes) ? rawTaskTypes : ['*'];
  const rawKeywords = get(action, 'keywords');
  const keywords: PyValue = pyTruthy(rawKeywords) ? rawKeywords : [];
  if (!Array.isArray(taskTypes) || taskTypes.length > 16) {
    return reject('invalid_list', `${path}.task_types`, 'skill.task_types must be a list of <=16 strings');
  }
  if (!Array.isArray(keywords) || keywords.length > 32) {
    return reject('invalid_list', `${path}.keywords`, 'skill.keywords must be a list of <=32 strings');
  }
  const cleanTaskTypes: string[] = [];
  for (const [i, item] of taskTypes.entries()) {
    const token = cleanToken(item, 'task_type', `${path}.task_types[${i}]`);
    if (!token.ok) return token;
    cleanTaskTypes.push(token.value);
  }
  const cleanKeywords: string[] = [];
  for (const [i, item] of keywords.entries()) {
    const token = cleanKeyword(item, `${path}.keywords[${i}]`);
    if (!token.ok) return token;
    cleanKeywords.push(token.value);
  }
  const text = cleanText(get(action, 'text', ''), 'skill.text', `${path}.text`);
  if (!text.ok) return text;
  return accept({
    type: 'add_or_edit_skill',
    skill_id: skillId.value,
    task_types: cleanTaskTypes,
    keywords: cleanKeywords,
    text: text.value,
  });
}

/** `_normalize_rule` for add_guard_rule (`kind = 'guard'`) and add_recovery_rule. */
export function normalizeRule(
  action: PyDict,
  kind: 'guard' | 'recovery',
  ctx: LegacyContext,
): Step<GuardRuleAction | RecoveryRuleAction> {
  const { rules, path } = ctx;
  const ruleId = normalizeId(action, 'rule_id', path);
  if (!ruleId.ok) return ruleId;
  const rawTrigger = get(action, 'trigger');
  const trigger = pyStrip(pyTruthy(rawTrigger) ? pyStr(rawTrigger) : kind === 'guard' ? 'before_action' : 'post_step');
  if (!rules.legacy.triggers[kind].includes(trigger)) {
    return reject('unsupported_trigger', `${path}.trigger`, `unsupported ${kind} trigger: ${pyRepr(trigger)}`);
  }
  const condition = normalizeCondition(get(action, 'condition'), 0, `${path}.condition`, ctx);
  if (!condition.ok) return condition;
  const rawEffect = get(action, 'effect');
  const effect = normalizeEffect(pyTruthy(rawEffect) ? rawEffect : new Map(), kind, ctx);
  if (!effect.ok) return effect;
  if (kind === 'guard') {
    return accept({
      type: 'add_guard_rule',
      rule_id: ruleId.value,
      trigger: 'before_action',
      condition: condition.value,
      effect: effect.value,
    });
  }
  return accept({
    type: 'add_recovery_rule',
    rule_id: ruleId.value,
    trigger: trigger as RecoveryRuleAction['trigger'],
    condition: condition.value,
    effect: effect.value,
  });
}

/** `_normalize_effect`. */
function normalizeEffect(effect: PyValue, ruleKind: 'guard' | 'recovery', ctx: LegacyContext): Step<RuleEffect> {
  const { rules } = ctx;
  const bench = rules.name;
  const path = `${ctx.path}.effect`;
  if (!isPyDict(effect)) return reject('effect_not_object', path, 'rule.effect must be an object');
  const rawKind = get(effect, 'kind');
  const kind = pyStrip(pyTruthy(rawKind) ? pyStr(rawKind) : '');
  if (!(EFFECT_KINDS as readonly string[]).includes(kind)) {
    return reject('unsupported_effect_kind', `${path}.kind`, `unsupported effect kind: ${pyRepr(kind)}`);
  }
  if (!rules.legacy.effects[ruleKind].includes(kind as EffectKind)) {
    return reject(
      'effect_kind_not_allowed',
      `${path}.kind`,
      `effect kind ${pyRepr(kind)} is not supported for ${bench} ${ruleKind} rules`,
    );
  }
  const out: RuleEffect = { kind: kind as EffectKind };
  if (kind === 'block_and_prompt' || kind === 'inject_hint') {
    const message = cleanText(get(effect, 'message', ''), 'effect.message', `${path}.message`);
    if (!message.ok) return message;
    out.message = message.value;
  } else {
    const actionText = cleanText(get(effect, 'action', ''), 'effect.action', `${path}.action`);
    if (!actionText.ok) return actionText;
    out.action = actionText.value;
    if (rules.numberedInstances && namesNumberedInstanceAction(actionText.value)) {
      return reject(
        'alfworld_numbered_instance',
        `${path}.action`,
        "ALFWorld force/rewrite actions may not contain numbered object/location instances such as 'sinkbasin 1' or 'egg 2'; use inject_hint or a broad guard instead",
      );
    }
    if (pyTruthy(get(effect, 'message'))) {
      const message = cleanText(get(effect, 'message', ''), 'effect.message', `${path}.message`, false);
      if (!message.ok) return message;
      out.message = message.value;
    }
  }
  return accept(out);
}
