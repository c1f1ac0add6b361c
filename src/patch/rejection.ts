/**
 * Building, printing and classifying patch rejections. `classifyOriginalError` maps a message recorded
 * by the original (`repr(exc)`, e.g. in `results.json` `validation_error`) to our reason class, so
 * verdicts can be compared class by class.
 */
import type { PatchRejection, PythonException, RejectionRule, RejectionStage } from './patch-types.js';
import { pyStringRepr } from '../python/python-text.js';

export type Step<T> = { ok: true; value: T } | { ok: false; rejection: PatchRejection };

export function accept<T>(value: T): Step<T> {
  return { ok: true, value };
}

/** A rejection as the original raises it: a `PatchValidationError` during normalization by default. */
export function reject(
  rule: RejectionRule,
  field: string,
  message: string,
  options: { stage?: RejectionStage; exception?: PythonException | null } = {},
): { ok: false; rejection: PatchRejection } {
  return {
    ok: false,
    rejection: {
      rule,
      field,
      message,
      stage: options.stage ?? 'normalize',
      exception: options.exception === undefined ? 'PatchValidationError' : options.exception,
    },
  };
}

/** One line for people: `actions[0].code: hook_compile: hook uses forbidden syntax: Import`. */
export function describeRejection(rejection: PatchRejection): string {
  return `${rejection.field}: ${rejection.rule}: ${rejection.message}`;
}

/**
 * What the original would record for this rejection: `repr(exc)` for exceptions
 * (`PatchValidationError('patch.actions must be a non-empty list')`), the bare reason string for the
 * runtime no-op check. Strict-only rejections have no original counterpart and print their message.
 */
export function formatOriginalRepr(rejection: PatchRejection): string {
  if (rejection.exception === null) return rejection.message;
  return `${rejection.exception}(${pyStringRepr(rejection.message)})`;
}

/**
 * The status the original's rewards and evaluators record when this rejection turns the patch into
 * "no patch" (§3.9).
 */
export function noPatchStatus(
  rejection: PatchRejection,
): 'invalid_patch_treated_as_no_patch' | 'runtime_noop_patch_treated_as_no_patch' {
  return rejection.stage === 'runtime_noop'
    ? 'runtime_noop_patch_treated_as_no_patch'
    : 'invalid_patch_treated_as_no_patch';
}

const MESSAGE_CLASSES: ReadonlyArray<readonly [RegExp, RejectionRule]> = [
  [/^no JSON object found in model output$/, 'no_json_object'],
  [/^missing complete <think>/, 'missing_think_block'],
  [/^missing complete <patch>/, 'missing_patch_block'],
  [/^<patch> block is empty$/, 'empty_patch_block'],
  [/^prefilled-think response must not start/, 'prefill_starts_with_think'],
  [/^unsupported response protocol: /, 'unsupported_protocol'],
  [/^Exceeds the limit \(\d+ digits\) for integer string conversion/, 'json_int_too_long'],
  [/^maximum recursion depth exceeded/, 'json_too_deep'],
  [/^patch must be a JSON object$/, 'not_object'],
  [/^unsupported benchmark: /, 'unsupported_benchmark'],
  [/^patch\.actions must be a non-empty list$/, 'actions_empty'],
  [/^patch\.actions has more than \d+ actions$/, 'too_many_actions'],
  [/^(?:task_type|keyword) must be a string$/, 'invalid_token'],
  [/^\S+ must be a string$/, 'text_not_string'],
  [/^\S+ cannot be empty$/, 'text_empty'],
  [/^\S+ exceeds \d+ chars$/, 'text_too_long'],
  [/^\S+ appears to contain task-specific leakage$/, 'forbidden_leakage'],
  [/^action \d+ must be an object$/, 'action_not_object'],
  [/^action \d+ has unsupported type: /, 'unsupported_action_type'],
  [/^unhashable type: /, 'unsupported_action_type'],
  [/^unsupported code hook: /, 'unsupported_hook'],
  [/^code hook must include non-empty code$/, 'code_empty'],
  [/^code hook exceeds \d+ chars$/, 'code_too_long'],
  [/^code hook failed sandbox validation: /, 'hook_compiler_error'],
  [/^config target prefix /, 'config_target_prefix'],
  [/^unsupported config target for /, 'unsupported_config_target'],
  [/ cannot be changed by a Harness-R1 patch/, 'module_config_target'],
  [/ is not an exposed config target for /, 'unexposed_config_target'],
  [/^\S+ expects (?:boolean|integer|number)$/, 'config_value_type'],
  [/^\S+ (?:below minimum|above maximum) /, 'config_value_range'],
  [/^int too large to convert to float$/, 'config_value_range'],
  [/^unsupported tool for /, 'unsupported_tool'],
  [/^unsupported edit_tool_hint operation: /, 'unsupported_tool_operation'],
  [/^invalid (?:skill_id|rule_id): /, 'invalid_id'],
  [/^skill\.(?:task_types|keywords) must be a list/, 'invalid_list'],
  [/^invalid (?:task_type|keyword): /, 'invalid_token'],
  [/^unsupported (?:guard|recovery) trigger: /, 'unsupported_trigger'],
  [/^condition nesting is too deep$/, 'condition_too_deep'],
  [/^condition must be an object with exactly one operator$/, 'condition_shape'],
  [/^unsupported condition operator: /, 'unsupported_condition_operator'],
  [/^condition\.\w+ must be a (?:non-empty list|two-item list|predicate name)$/, 'condition_operands'],
  [/^unsupported predicate for /, 'unsupported_predicate'],
  [/^unsupported condition path for /, 'unsupported_condition_path'],
  [/^rule\.effect must be an object$/, 'effect_not_object'],
  [/^unsupported effect kind: /, 'unsupported_effect_kind'],
  [/^effect kind .+ is not supported for /, 'effect_kind_not_allowed'],
  [/^ALFWorld force\/rewrite action/, 'alfworld_numbered_instance'],
  [/ is not allowed in code-hook-only protocol$/, 'code_hook_only'],
  [/ is not executed by \w+ (?:overlay guards|overlay recovery|code hooks)$/, 'runtime_noop'],
  [/ is not active in DBBench code-hook RL$/, 'runtime_noop'],
  // compile_hook (§5.1) messages, produced by the sandbox
  [
    /^(?:hook |helper |nested functions|decorators are|return annotations|duplicate (?:helper|argument)|argument annotations|try |try\/except|exception alias)/,
    'hook_compile',
  ],
];

/**
 * The reason class of an error the original recorded. Accepts `repr(exc)`
 * (`PatchValidationError('hook uses forbidden syntax: Import')`) or the bare message. Returns
 * `undefined` for messages it does not recognize.
 */
export function classifyOriginalError(recorded: string): RejectionRule | undefined {
  const parsed = parseExceptionRepr(recorded.trim());
  if (parsed.exception === 'JSONDecodeError') return 'json_syntax';
  for (const [pattern, rule] of MESSAGE_CLASSES) {
    if (pattern.test(parsed.message)) return rule;
  }
  return undefined;
}

function parseExceptionRepr(text: string): { exception: string | undefined; message: string } {
  const match = /^([A-Za-z_]\w*)\((['"])([\s\S]*)\2\)$/.exec(text);
  if (!match) return { exception: undefined, message: text };
  const [, exception, , body = ''] = match;
  const message = body.replace(/\\(['"\\])/g, '$1').replace(/\\n/g, '\n').replace(/\\t/g, '\t');
  return { exception, message };
}
