/**
 * The legacy rule condition DSL (§3.4): validation against each benchmark's ctx paths and predicate
 * names (§4). Quirks kept: `predicates.*` operands are not validated (strict checks them), nesting depth
 * 0–8 is allowed, and WebShop budget aliases map to `state.price_max`. Notes record the first quirk so
 * `strict` can turn it into a rejection.
 */
import {
  COMPARISON_OPS,
  type Benchmark,
  type ComparisonOp,
  type Condition,
  type PatchNote,
} from './patch-types.js';
import { isPyDict, toJsValue, type JsonValue, type PyValue } from '../python/python-json.js';
import { pyRepr } from '../python/python-text.js';
import { accept, reject, type Step } from './rejection.js';

export const CONDITION_PATHS: Readonly<Record<Benchmark, readonly string[]>> = {
  webshop: [
    'action.tool',
    'action.value',
    'action.value_normalized',
    'action.final_action',
    'state.page_type',
    'state.has_search_bar',
    'state.clickables',
    'state.buy_now_available',
    'state.back_to_search_count',
    'state.duplicate_search_count',
    'state.product_stall_turns',
    'state.same_click_count',
    'state.remaining_steps',
    'state.current_price',
    'state.price_max',
    'task.task_type',
    'task.required_color',
    'task.required_size',
    'task.required_material',
  ],
  alfworld: [
    'action.raw',
    'action.normalized',
    'action.final_action',
    'action.in_admissible',
    'state.nothing_happens_count',
    'state.repeated_observation_count',
    'state.repeated_action_count',
    'state.invalid_action_count',
    'state.remaining_steps',
    'task.task_type',
    'task.target_type',
    'task.destination_type',
  ],
  dbbench: [
    'action.tool',
    'action.query',
    'action.answers',
    'action.h2_action',
    'action.h2_blocked_reason',
    'action.commit_gate_action',
    'action.commit_gate_reason',
    'state.sql_count',
    'state.last_sql',
    'state.last_result',
    'state.last_error_kind',
    'state.last_error_text',
    'state.last_result_was_error',
    'state.error_streak',
    'state.empty_streak',
    'state.text_only_streak',
    'state.loop_streak',
    'state.mutation_attempted',
    'state.candidate_answer',
    'state.candidate_answer_shape',
    'state.candidate_implausible',
    'state.remaining_rounds',
    'task.task_type',
    'task.answer_shape',
    'task.target_table',
  ],
};

export const CONDITION_PATH_ALIASES: Readonly<Record<Benchmark, Readonly<Record<string, string>>>> = {
  webshop: {
    'state.parsed_budget_constraint': 'state.price_max',
    'state.budget': 'state.price_max',
    'state.budget_max': 'state.price_max',
    'state.max_price': 'state.price_max',
  },
  alfworld: {},
  dbbench: {},
};

export const CONDITION_PREDICATES: Readonly<Record<Benchmark, readonly string[]>> = {
  webshop: [
    'required_options_unselected',
    'product_price_over_budget',
    'same_click_repeated',
    'duplicate_search_repeated',
    'search_loop_detected',
    'product_page_stalled',
    'buy_now_available',
    'search_not_available',
    'action_not_admissible',
  ],
  alfworld: [
    'action_not_admissible',
    'nothing_happens_repeated',
    'same_observation_repeated',
    'same_action_repeated',
    'remaining_steps_low',
  ],
  dbbench: [
    'execute_sql',
    'commit_final_answer',
    'no_sql_yet',
    'commit_before_sql',
    'commit_empty_answer',
    'mutation_task',
    'mutation_not_attempted',
    'last_result_error',
    'last_result_empty',
    'unknown_column_error',
    'syntax_error',
    'repeated_sql',
    'candidate_answer_available',
    'remaining_rounds_low',
    'text_only_loop',
  ],
};

const CONDITION_OPS = new Set<string>(['all', 'any', 'not', 'pred', ...COMPARISON_OPS]);
export const MAX_CONDITION_DEPTH = 8;

export interface ConditionOptions {
  bench: Benchmark;
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
    if (!CONDITION_PREDICATES[options.bench].includes(value)) {
      return reject('unsupported_predicate', opPath, `unsupported predicate for ${options.bench}: ${pyRepr(value)}`);
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
  const { bench } = options;
  const operand = CONDITION_PATH_ALIASES[bench][raw] ?? raw;
  if (/^(?:action|state|task)\./.test(operand) && !CONDITION_PATHS[bench].includes(operand)) {
    return reject('unsupported_condition_path', path, `unsupported condition path for ${bench}: ${pyRepr(operand)}`);
  }
  if (operand.startsWith('predicates.')) {
    const name = operand.slice('predicates.'.length);
    if (!CONDITION_PREDICATES[bench].includes(name)) {
      options.notes.push({
        kind: 'unvalidated_predicate_operand',
        field: path,
        message: `${pyRepr(operand)} is not a ${bench} predicate; the original does not validate predicates.* operands and it resolves to null at runtime`,
      });
    }
  }
  return accept(operand);
}
