/**
 * The legacy rule condition DSL (§3.4): validation against each benchmark's ctx paths and predicate
 * names (§4). Quirks kept: `predicates.*` operands are not validated (strict checks them), nesting depth
 * 0–8 is allowed, and the shop's budget aliases map to `state.price_max`. Notes record the first quirk so
 * `strict` can turn it into a rejection.
 */
import {
  COMPARISON_OPS,
  type ComparisonOp,
  type Condition,
  type PatchNote,
} from './patch-types.js';
import { isPyDict, toJsValue, type JsonValue, type PyValue } from '../python/python-json.js';
import { pyRepr } from '../python/python-text.js';
import type { PatchRules } from './patch-rules.js';
import { accept, reject, type Step } from './rejection.js';

const CONDITION_OPS = new Set<string>(['all', 'any', 'not', 'pred', ...COMPARISON_OPS]);
export const MAX_CONDITION_DEPTH = 8;

export interface ConditionOptions {
  rules: PatchRules;
  /** Receives a note for each `predicates.<name>` operand that names no predicate (strict rejects it). */
  notes: PatchNote[];
}

/** `_normalize_condition(bench, cond, depth)`. `path` names the field for rejections. */
export function normalizeCondition(
  cond: PyValue | undefined,
  depth: number,
  path: string,
  options: ConditionOptions,
): Step<Condition> {
  if (depth > MAX_CONDITION_DEPTH) return reject('condition_too_deep', path, 'condition nesting is too deep');
  if (!isPyDict(cond) || cond.size !== 1) {
    return reject('condition_shape', path, 'condition must be an object with exactly one operator');
  }
  const [op, value] = cond.entries().next().value as [string, PyValue];
  const opPath = `${path}.${op}`;
  if (!CONDITION_OPS.has(op)) {
    return reject('unsupported_condition_operator', path, `unsupported condition operator: ${pyRepr(op)}`);
  }
  if (op === 'all' || op === 'any') {
    if (!Array.isArray(value) || value.length === 0) {
      return reject('condition_operands', opPath, `condition.${op} must be a non-empty list`);
    }
    const children: Condition[] = [];
    for (const [i, child] of value.entries()) {
      const normalized = normalizeCondition(child, depth + 1, `${opPath}[${i}]`, options);
      if (!normalized.ok) return normalized;
      children.push(normalized.value);
    }
    return accept(op === 'all' ? { all: children } : { any: children });
  }
  if (op === 'not') {
    const child = normalizeCondition(value, depth + 1, opPath, options);
    return child.ok ? accept({ not: child.value }) : child;
  }
  if (op === 'pred') {
    if (typeof value !== 'string' || value === '') {
      return reject('condition_operands', opPath, 'condition.pred must be a predicate name');
    }
    if (!options.rules.legacy.conditionPredicates.includes(value)) {
      return reject('unsupported_predicate', opPath, `unsupported predicate for ${options.rules.name}: ${pyRepr(value)}`);
    }
    return accept({ pred: value });
  }
  if (!Array.isArray(value) || value.length !== 2) {
    return reject('condition_operands', opPath, `condition.${op} must be a two-item list`);
  }
  const operands: JsonValue[] = [];
  for (const [i, raw] of value.entries()) {
    const checked = checkOperand(raw, `${opPath}[${i}]`, options);
    if (!checked.ok) return checked;
    operands.push(toJsValue(checked.value));
  }
  const [left = null, right = null] = operands;
  return accept({ [op as ComparisonOp]: [left, right] } as Condition);
}

function checkOperand(raw: PyValue, path: string, options: ConditionOptions): Step<PyValue> {
  if (typeof raw !== 'string') return accept(raw);
  const { legacy, name: bench } = options.rules;
  const operand = (Object.hasOwn(legacy.conditionPathAliases, raw) ? legacy.conditionPathAliases[raw] : undefined) ?? raw;
  if (/^(?:action|state|task)\./.test(operand) && !legacy.conditionPaths.includes(operand)) {
    return reject('unsupported_condition_path', path, `unsupported condition path for ${bench}: ${pyRepr(operand)}`);
  }
  if (operand.startsWith('predicates.')) {
    const name = operand.slice('predicates.'.length);
    if (!legacy.conditionPredicates.includes(name)) {
      options.notes.push({
        kind: 'unvalidated_predicate_operand',
        field: path,
        message: `${pyRepr(operand)} is not a ${bench} predicate; the original does not validate predicates.* operands and it resolves to null at runtime`,
      });
    }
  }
  return accept(operand);
}
