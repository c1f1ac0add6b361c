/**
 * The whole validation pipeline of the original, as one call returning a `PatchVerdict`:
 * (extract →) `normalize_patch` (compiling each code hook) → optional `require_code_hook_only_patch`
 * → optional runtime no-op check. Quirks are reproduced by default and reported as notes; `strict`
 * turns the listed notes into rejections, but only after every original check has passed, so a
 * rejection the original would make is always reported as the original's reason.
 */
import { ConfigError } from '../episode/errors.js';
import { extractPatchJson, isResponseProtocol, RESPONSE_PROTOCOLS } from './extract-patch-json.js';
import { normalizePatch, requireCodeHookOnly } from './normalize-patch.js';
import {
  TOTAL_CODE_GUIDANCE_CHARS,
  type Benchmark,
  type HarnessPatch,
  type HookCompiler,
  type PatchNote,
  type PatchVerdict,
  type RejectionRule,
} from './patch-types.js';
import { fromJsValue, isPyDict, type PyValue } from '../python/python-json.js';
import { pyLen, pyRepr } from '../python/python-text.js';
import { reject, type Step } from './rejection.js';
import { findNeverEvaluatedRules, rejectRuntimeNoop } from './runtime-noop.js';
import type { PatchRules, PatchRulesLookup } from './patch-rules.js';

export interface ValidatePatchOptions {
  /**
   * The benchmark of the caller (the reward or evaluator). The patch's own truthy `benchmark` wins
   * (quirk); this one is the fallback, and it selects the runtime no-op rules.
   */
  bench?: Benchmark;
  /** The benchmarks a patch may name, with their validation rules (the registry's lookup). */
  benchmarks: PatchRulesLookup;
  /** Compiles each add_code_hook (the sandbox's `compile_hook`). */
  compiler: HookCompiler;
  /** `require_code_hook_only_patch`: reject any legacy DSL action. */
  codeHookOnly?: boolean;
  /** `harness_r1_reject_runtime_noop_patch` (true in the reference RL config). */
  rejectRuntimeNoop?: boolean;
  /**
   * Tighten the original's quirks: reject a benchmark that differs from `bench`, duplicate hooks, a
   * non-string description, `predicates.*` operands naming no predicate, legacy rules the runtime never
   * evaluates, and a non-finite set_config value.
   */
  strict?: boolean;
}

const STRICT_RULES: Partial<Record<PatchNote['kind'], RejectionRule>> = {
  benchmark_override: 'benchmark_mismatch',
  duplicate_hook: 'duplicate_hook',
  description_coerced: 'description_not_string',
  unvalidated_predicate_operand: 'unsupported_predicate',
  rule_never_evaluated: 'rule_never_evaluated',
  non_finite_number: 'non_finite_number',
};

function checkBench(bench: string | undefined, benchmarks: PatchRulesLookup): void {
  if (bench !== undefined && !benchmarks(bench)) {
    throw new ConfigError({ message: `Unknown benchmark ${JSON.stringify(bench)}.`, field: 'bench' });
  }
}

/**
 * Validates an already-parsed patch. `raw` is a `PyValue` (from the Python-compatible decoder) or a
 * plain JS value (integral numbers are then taken as ints). Throws only `ConfigError` for an unknown
 * `bench`; every rejection is a value.
 */
export async function validatePatch(raw: unknown, options: ValidatePatchOptions): Promise<PatchVerdict> {
  checkBench(options.bench, options.benchmarks);
  const value: PyValue = isPyDict(raw) ? raw : fromJsValue(raw);
  const notes: PatchNote[] = [];
  const normalized = await normalizePatch(value, { bench: options.bench, benchmarks: options.benchmarks, compiler: options.compiler, notes });
  const checked = normalized.ok ? runProtocolChecks(normalized.value, options, notes) : normalized;
  if (!checked.ok) return { kind: 'invalid', rejection: checked.rejection, notes };
  if (options.strict) {
    for (const note of notes) {
      const rule = STRICT_RULES[note.kind];
      if (rule === undefined) continue;
      const strictRejection = reject(rule, note.field, note.message, { stage: 'strict', exception: null });
      return { kind: 'invalid', rejection: strictRejection.rejection, notes };
    }
  }
  return { kind: 'valid', patch: checked.value, notes };
}

function runProtocolChecks(patch: HarnessPatch, options: ValidatePatchOptions, notes: PatchNote[]): Step<HarnessPatch> {
  if (options.codeHookOnly) {
    const codeOnly = requireCodeHookOnly(patch);
    if (!codeOnly.ok) return codeOnly;
  }
  const runtimeBench = options.benchmarks(options.bench ?? patch.benchmark) as PatchRules;
  if (options.rejectRuntimeNoop) {
    const noop = rejectRuntimeNoop(patch, runtimeBench);
    if (!noop.ok) return noop;
  }
  notes.push(...collectPatchNotes(patch, runtimeBench));
  return { ok: true, value: patch };
}

/** Notes about a normalized patch: duplicate hooks, rules never evaluated, total code over guidance. */
function collectPatchNotes(patch: HarnessPatch, runtimeBench: PatchRules): PatchNote[] {
  const notes: PatchNote[] = [];
  const seen = new Set<string>();
  let totalCode = 0;
  for (const [idx, action] of patch.actions.entries()) {
    if (action.type !== 'add_code_hook') continue;
    totalCode += pyLen(action.code);
    if (seen.has(action.hook)) {
      notes.push({
        kind: 'duplicate_hook',
        field: `actions[${idx}].hook`,
        message: `hook ${pyRepr(action.hook)} appears more than once; the original accepts duplicates and runs all of them in order`,
      });
    }
    seen.add(action.hook);
  }
  for (const rule of findNeverEvaluatedRules(patch, runtimeBench)) {
    notes.push({ kind: 'rule_never_evaluated', field: rule.field, message: rule.message });
  }
  if (totalCode > TOTAL_CODE_GUIDANCE_CHARS) {
    notes.push({
      kind: 'total_code_over_guidance',
      field: 'actions',
      message: `hooks total ${totalCode} chars, over the prompt's ${TOTAL_CODE_GUIDANCE_CHARS} guidance (not enforced by the original)`,
    });
  }
  return notes;
}

export interface ValidateResponseOptions extends ValidatePatchOptions {
  /** `full_think_patch`, `prefill_think_patch`, `json_patch` or a relaxed eval variant. */
  protocol: string;
}

/** Extracts the patch from an engineer response with `protocol`, then validates it. */
export async function validateEngineerResponse(response: string, options: ValidateResponseOptions): Promise<PatchVerdict> {
  checkBench(options.bench, options.benchmarks);
  if (!isResponseProtocol(options.protocol)) {
    const rejection = reject('unsupported_protocol', 'protocol', `unsupported response protocol: ${pyRepr(options.protocol)}`, {
      stage: 'extract',
    });
    return { kind: 'invalid', rejection: rejection.rejection, notes: [] };
  }
  const extracted = extractPatchJson(response, options.protocol);
  if (!extracted.ok) return { kind: 'invalid', rejection: extracted.rejection, notes: [] };
  return validatePatch(extracted.value, options);
}

export { RESPONSE_PROTOCOLS };
