/**
 * `normalize_patch(raw, bench)` (§3.1–§3.3) and `require_code_hook_only_patch`. Checks run in the
 * original's order (benchmark, actions, description, then each action in turn, compiling each code hook
 * as it is reached), so the first failure is the one the original would report.
 */
import { cleanText } from './clean-text.js';
import { normalizeRule, normalizeSetConfig, normalizeSkill, normalizeToolHint, type LegacyContext } from './legacy-actions.js';
import {
  ACTION_TYPES,
  CODE_HOOK_MAX_CHARS,
  CODE_HOOK_NAMES,
  MAX_PATCH_ACTIONS,
  PATCH_SCHEMA_VERSION,
  type Benchmark,
  type CodeHookAction,
  type CodeHookName,
  type HarnessPatch,
  type HookCompiler,
  type PatchAction,
  type PatchNote,
} from './patch-types.js';
import { isPyDict, pyGet, type PyDict, type PyValue } from '../python/python-json.js';
import { pyLen, pyLower, pyRepr, pyStr, pyStrip, pyTruthy } from '../python/python-text.js';
import { compileRulesOf, type PatchRules, type PatchRulesLookup } from './patch-rules.js';
import { accept, reject, type Step } from './rejection.js';

export interface NormalizeOptions {
  /** The caller's benchmark. Used only when the patch has no (truthy) `benchmark` of its own. */
  bench?: Benchmark;
  /** The benchmarks a patch may name, with the rules the validator applies to each. */
  benchmarks: PatchRulesLookup;
  /** Compiles each add_code_hook for validation (`compile_hook`, §5.1). */
  compiler: HookCompiler;
  /** Receives notes about quirks that fired (`validatePatch` turns them into rejections under `strict`). */
  notes?: PatchNote[];
}

/** `normalize_patch`. Async only because hook compilation is. */
export async function normalizePatch(raw: PyValue, options: NormalizeOptions): Promise<Step<HarnessPatch>> {
  const notes = options.notes ?? [];
  if (!isPyDict(raw)) return reject('not_object', 'patch', 'patch must be a JSON object');

  const ownBenchmark = pyGet(raw, 'benchmark');
  const benchmark = pyLower(pyStr(pyTruthy(ownBenchmark) ? ownBenchmark : (options.bench ?? '')));
  const rules = options.benchmarks(benchmark);
  if (!rules) {
    return reject('unsupported_benchmark', 'benchmark', `unsupported benchmark: ${pyRepr(benchmark)}`);
  }
  if (pyTruthy(ownBenchmark) && options.bench !== undefined && options.bench !== benchmark) {
    const message = `patch benchmark ${pyRepr(benchmark)} differs from the requested ${pyRepr(options.bench)}; the original keeps the patch's own value`;
    notes.push({ kind: 'benchmark_override', field: 'benchmark', message });
  }

  const actions = pyGet(raw, 'actions');
  if (!Array.isArray(actions) || actions.length === 0) {
    return reject('actions_empty', 'actions', 'patch.actions must be a non-empty list');
  }
  if (actions.length > MAX_PATCH_ACTIONS) {
    return reject('too_many_actions', 'actions', `patch.actions has more than ${MAX_PATCH_ACTIONS} actions`);
  }

  const rawDescription = pyGet(raw, 'description', '');
  if (typeof rawDescription !== 'string') {
    const message = `description is ${pyRepr(rawDescription)}, not a string; the original validates str() of it`;
    notes.push({ kind: 'description_coerced', field: 'description', message });
  }
  const description = cleanText(pyStr(rawDescription), 'description', 'description', false);
  if (!description.ok) return description;

  const normalized: PatchAction[] = [];
  for (const [idx, action] of actions.entries()) {
    const result = await normalizeAction(rules, action, idx, options.compiler, notes);
    if (!result.ok) return result;
    normalized.push(result.value);
  }
  return accept({ schema_version: PATCH_SCHEMA_VERSION, benchmark, description: description.value, actions: normalized });
}

const ACTION_TYPE_SET = new Set<string>(ACTION_TYPES);

async function normalizeAction(
  rules: PatchRules,
  action: PyValue,
  idx: number,
  compiler: HookCompiler,
  notes: PatchNote[],
): Promise<Step<PatchAction>> {
  const path = `actions[${idx}]`;
  if (!isPyDict(action)) return reject('action_not_object', path, `action ${idx} must be an object`);
  const type = pyGet(action, 'type');
  if (Array.isArray(type) || isPyDict(type)) {
    // `typ not in ACTION_TYPES` on a list or dict raises TypeError in Python.
    return reject('unsupported_action_type', `${path}.type`, `unhashable type: '${Array.isArray(type) ? 'list' : 'dict'}'`, {
      exception: 'TypeError',
    });
  }
  if (typeof type !== 'string' || !ACTION_TYPE_SET.has(type)) {
    return reject('unsupported_action_type', `${path}.type`, `action ${idx} has unsupported type: ${pyRepr(type)}`);
  }
  const ctx: LegacyContext = { rules, path, notes };
  switch (type) {
    case 'add_code_hook':
      return normalizeCodeHook(rules, action, path, compiler);
    case 'set_config':
      return normalizeSetConfig(action, ctx);
    case 'edit_tool_hint':
      return normalizeToolHint(action, ctx);
    case 'add_or_edit_skill':
      return normalizeSkill(action, ctx);
    case 'add_guard_rule':
      return normalizeRule(action, 'guard', ctx);
    default:
      return normalizeRule(action, 'recovery', ctx);
  }
}

/** `_normalize_code_hook`: hook name, non-empty code of at most 8000 code points, then compile. */
async function normalizeCodeHook(
  rules: PatchRules,
  action: PyDict,
  path: string,
  compiler: HookCompiler,
): Promise<Step<CodeHookAction>> {
  const rawHook = pyGet(action, 'hook');
  const hook = pyStrip(pyTruthy(rawHook) ? pyStr(rawHook) : '');
  if (!(CODE_HOOK_NAMES as readonly string[]).includes(hook)) {
    return reject('unsupported_hook', `${path}.hook`, `unsupported code hook: ${pyRepr(hook)}`);
  }
  const code = pyGet(action, 'code');
  if (typeof code !== 'string' || pyStrip(code) === '') {
    return reject('code_empty', `${path}.code`, 'code hook must include non-empty code');
  }
  if (pyLen(code) > CODE_HOOK_MAX_CHARS) {
    return reject('code_too_long', `${path}.code`, `code hook exceeds ${CODE_HOOK_MAX_CHARS} chars`);
  }
  let compiled: Awaited<ReturnType<HookCompiler>>;
  try {
    compiled = await compiler(code, compileRulesOf(rules));
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return reject('hook_compiler_error', `${path}.code`, `code hook failed sandbox validation: ${detail}`);
  }
  if (!compiled.ok) return reject('hook_compile', `${path}.code`, compiled.reason);
  return accept({ type: 'add_code_hook', hook: hook as CodeHookName, code });
}

/** `require_code_hook_only_patch`, on a normalized patch: every action must be add_code_hook. */
export function requireCodeHookOnly(patch: HarnessPatch): Step<HarnessPatch> {
  for (const [idx, action] of patch.actions.entries()) {
    if (action.type !== 'add_code_hook') {
      return reject(
        'code_hook_only',
        `actions[${idx}].type`,
        `action ${idx} type ${pyRepr(action.type)} is not allowed in code-hook-only protocol`,
        { stage: 'code_hook_only' },
      );
    }
  }
  return accept(patch);
}
