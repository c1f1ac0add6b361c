/**
 * The normalized Harness-R1 patch (`harness-r1-patch-v1`) and the verdict of validating one.
 * Keys are snake_case because the patch format is the original release's external format.
 */
import type { JsonValue } from '../python/python-json.js';

export const PATCH_SCHEMA_VERSION = 'harness-r1-patch-v1';

/** The name of a benchmark as patches carry it (`benchmark`); the registry knows which names exist. */
export type Benchmark = string;

/** Hook names, in the prompt's preferred order. */
export const CODE_HOOK_NAMES = ['on_init', 'on_post_step', 'make_pre_hint', 'on_before_action'] as const;
export type CodeHookName = (typeof CODE_HOOK_NAMES)[number];

export const ACTION_TYPES = [
  'set_config',
  'edit_tool_hint',
  'add_or_edit_skill',
  'add_guard_rule',
  'add_recovery_rule',
  'add_code_hook',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** `patch.actions` length limit (inclusive). */
export const MAX_PATCH_ACTIONS = 12;
/** `CODE_HOOK_MAX_CHARS`: per-hook source limit, in code points. */
export const CODE_HOOK_MAX_CHARS = 8000;
/** `TEXT_MAX_CHARS`: limit for every cleaned text field, in code points, after whitespace collapse. */
export const TEXT_MAX_CHARS = 900;
/** Total code across hooks the prompt asks for. Guidance only; the original never enforces it. */
export const TOTAL_CODE_GUIDANCE_CHARS = 9000;

export interface CodeHookAction {
  type: 'add_code_hook';
  hook: CodeHookName;
  /** Python source, kept verbatim. */
  code: string;
}

export interface SetConfigAction {
  type: 'set_config';
  target: string;
  value: boolean | number;
}

export type ToolHintOperation = 'append' | 'prepend' | 'replace';

export interface EditToolHintAction {
  type: 'edit_tool_hint';
  tool: string;
  operation: ToolHintOperation;
  text: string;
}

export interface SkillAction {
  type: 'add_or_edit_skill';
  skill_id: string;
  task_types: string[];
  keywords: string[];
  text: string;
}

export const EFFECT_KINDS = ['block_and_prompt', 'inject_hint', 'force_action', 'rewrite_action'] as const;
export type EffectKind = (typeof EFFECT_KINDS)[number];

export interface RuleEffect {
  kind: EffectKind;
  message?: string;
  action?: string;
}

export const COMPARISON_OPS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'contains', 'startswith', 'endswith'] as const;
export type ComparisonOp = (typeof COMPARISON_OPS)[number];

/** A legacy rule condition: exactly one operator per object. */
export type Condition =
  | { all: Condition[] }
  | { any: Condition[] }
  | { not: Condition }
  | { pred: string }
  | ComparisonCondition;

/** `{ "eq": [left, right] }` and the other two-operand comparisons. */
export type ComparisonCondition = { [K in ComparisonOp]: { [P in K]: [JsonValue, JsonValue] } }[ComparisonOp];

export interface GuardRuleAction {
  type: 'add_guard_rule';
  rule_id: string;
  trigger: 'before_action';
  condition: Condition;
  effect: RuleEffect;
}

export interface RecoveryRuleAction {
  type: 'add_recovery_rule';
  rule_id: string;
  trigger: 'post_step' | 'budget_check';
  condition: Condition;
  effect: RuleEffect;
}

export type LegacyAction = SetConfigAction | EditToolHintAction | SkillAction | GuardRuleAction | RecoveryRuleAction;
export type PatchAction = CodeHookAction | LegacyAction;

export interface HarnessPatch {
  schema_version: typeof PATCH_SCHEMA_VERSION;
  benchmark: Benchmark;
  description: string;
  actions: PatchAction[];
}

/**
 * Compiles one hook's Python source for validation (the sandbox's `compile_hook`, §5.1). `reason` is the
 * compiler's message, which becomes the rejection message verbatim.
 */
/** What the sandbox's compile step needs to know about the benchmark a hook is for. */
export interface HookCompileRules {
  /** String literals must not name numbered instances (`compile_hook(..., 'alfworld')` in the original). */
  numberedInstances: boolean;
}

export type HookCompiler = (source: string, rules: HookCompileRules) => Promise<{ ok: true } | { ok: false; reason: string }>;

/** Where in the pipeline a patch was rejected. */
export type RejectionStage = 'extract' | 'normalize' | 'code_hook_only' | 'runtime_noop' | 'strict';

/**
 * The reason class. One per rule of the original validator (plus the `strict`-only ones), so two
 * implementations agree on a rejection when they agree on this value.
 */
export type RejectionRule =
  // extraction (§2.3) and JSON decoding
  | 'unsupported_protocol'
  | 'no_json_object'
  | 'missing_think_block'
  | 'missing_patch_block'
  | 'empty_patch_block'
  | 'prefill_starts_with_think'
  | 'json_syntax'
  | 'json_int_too_long'
  | 'json_too_deep'
  // top level (§3.1)
  | 'not_object'
  | 'unsupported_benchmark'
  | 'actions_empty'
  | 'too_many_actions'
  // text fields (§3.5)
  | 'text_not_string'
  | 'text_empty'
  | 'text_too_long'
  | 'forbidden_leakage'
  // actions
  | 'action_not_object'
  | 'unsupported_action_type'
  // add_code_hook (§3.2)
  | 'unsupported_hook'
  | 'code_empty'
  | 'code_too_long'
  | 'hook_compile'
  | 'hook_compiler_error'
  // legacy actions (§3.3, §3.4)
  | 'config_target_prefix'
  | 'unsupported_config_target'
  | 'module_config_target'
  | 'unexposed_config_target'
  | 'config_value_type'
  | 'config_value_range'
  | 'unsupported_tool'
  | 'unsupported_tool_operation'
  | 'invalid_id'
  | 'invalid_list'
  | 'invalid_token'
  | 'unsupported_trigger'
  | 'condition_too_deep'
  | 'condition_shape'
  | 'unsupported_condition_operator'
  | 'condition_operands'
  | 'unsupported_predicate'
  | 'unsupported_condition_path'
  | 'effect_not_object'
  | 'unsupported_effect_kind'
  | 'effect_kind_not_allowed'
  | 'alfworld_numbered_instance'
  // protocol options
  | 'code_hook_only'
  | 'runtime_noop'
  // strict-only tightenings
  | 'benchmark_mismatch'
  | 'duplicate_hook'
  | 'description_not_string'
  | 'rule_never_evaluated'
  | 'non_finite_number';

/** The Python exception the original raises for this rejection (what its `repr(exc)` would start with). */
export type PythonException =
  | 'PatchValidationError'
  | 'JSONDecodeError'
  | 'ValueError'
  | 'TypeError'
  | 'RecursionError'
  | 'OverflowError';

export interface PatchRejection {
  rule: RejectionRule;
  stage: RejectionStage;
  /** The offending field as a path: `description`, `actions[2].code`, `actions[0].effect.message`, `response`. */
  field: string;
  /** The original's message text where it has one (`hook uses forbidden syntax: Import`). */
  message: string;
  /** How the original surfaces it; null for the runtime no-op check (a status string) and strict-only rules. */
  exception: PythonException | null;
}

/** A quirk of the original that fired while accepting a patch (reported, not rejected, unless `strict`). */
export interface PatchNote {
  kind:
    | 'benchmark_override'
    | 'duplicate_hook'
    | 'description_coerced'
    | 'unvalidated_predicate_operand'
    | 'rule_never_evaluated'
    | 'total_code_over_guidance'
    | 'non_finite_number';
  field: string;
  message: string;
}

export type PatchVerdict =
  | { kind: 'valid'; patch: HarnessPatch; notes: PatchNote[] }
  | { kind: 'invalid'; rejection: PatchRejection; notes: PatchNote[] };
