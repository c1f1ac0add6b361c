/**
 * The static runtime no-op check (`harness_r1_reject_runtime_noop_patch`, §3.9), run on a normalized
 * patch by the reward of one benchmark. It catches actions that validate but are never executed by
 * that benchmark's runtime. There is no dynamic "behaviourally inert" detector in the original.
 *
 * The check belongs to the reward that runs it, not to the patch: a benchmark's reward applies its own
 * rules even to a patch whose own `benchmark` says otherwise (the benchmark-override quirk), which is
 * how recovery effect kinds only the SQL benchmark knows get caught.
 */
import { CODE_HOOK_NAMES, type EffectKind, type HarnessPatch, type PatchAction } from './patch-types.js';
import type { PatchRules } from './patch-rules.js';
import { pyRepr } from '../python/python-text.js';
import { reject, type Step } from './rejection.js';

const GUARD_EFFECTS: readonly EffectKind[] = ['block_and_prompt', 'force_action', 'rewrite_action'];
const RECOVERY_EFFECTS: readonly EffectKind[] = ['inject_hint', 'force_action'];

const repr = (value: string | undefined): string => (value === undefined ? 'None' : pyRepr(value));

type Finding = { field: string; message: string };

/** Why the runtime of `runtimeBench` would never execute action `idx`, or `undefined`. */
function checkAction(action: PatchAction, idx: number, runtime: PatchRules): Finding | undefined {
  const path = `actions[${idx}]`;
  const name = runtime.title;
  if (runtime.legacyRuntime === 'install_only' && action.type !== 'add_code_hook') {
    return { field: `${path}.type`, message: `action ${idx} ${pyRepr(action.type)} is not active in ${name} code-hook RL` };
  }
  if (action.type === 'add_guard_rule') {
    // Normalization only produces before_action; kept because the original checks it.
    const trigger: string = action.trigger;
    if (trigger !== 'before_action') {
      return {
        field: `${path}.trigger`,
        message: `action ${idx} guard trigger ${repr(trigger)} is not executed by ${name} overlay guards`,
      };
    }
    if (!GUARD_EFFECTS.includes(action.effect.kind)) {
      return {
        field: `${path}.effect.kind`,
        message: `action ${idx} guard effect ${repr(action.effect.kind)} is not executed by ${name} overlay guards`,
      };
    }
  } else if (action.type === 'add_recovery_rule') {
    if (action.trigger !== 'post_step') {
      return {
        field: `${path}.trigger`,
        message: `action ${idx} recovery trigger ${repr(action.trigger)} is not executed by ${name} overlay recovery`,
      };
    }
    if (!RECOVERY_EFFECTS.includes(action.effect.kind)) {
      return {
        field: `${path}.effect.kind`,
        message: `action ${idx} recovery effect ${repr(action.effect.kind)} is not executed by ${name} overlay recovery`,
      };
    }
  } else if (action.type === 'add_code_hook' && !(CODE_HOOK_NAMES as readonly string[]).includes(action.hook)) {
    return { field: `${path}.hook`, message: `action ${idx} code hook ${repr(action.hook)} is not executed by ${name} code hooks` };
  }
  return undefined;
}

/** The first reason the runtime of `runtimeBench` would never execute an action, or `undefined`. */
export function findRuntimeNoop(patch: HarnessPatch, runtimeBench: PatchRules): Finding | undefined {
  for (const [idx, action] of patch.actions.entries()) {
    const found = checkAction(action, idx, runtimeBench);
    if (found) return found;
  }
  return undefined;
}

/** `findRuntimeNoop` as a rejection (`runtime_noop_patch_treated_as_no_patch`). */
export function rejectRuntimeNoop(patch: HarnessPatch, runtimeBench: PatchRules): Step<HarnessPatch> {
  const found = findRuntimeNoop(patch, runtimeBench);
  if (!found) return { ok: true, value: patch };
  return reject('runtime_noop', found.field, found.message, { stage: 'runtime_noop', exception: null });
}

/**
 * Legacy rules the runtime of `runtimeBench` validates but never evaluates (§3.8): every guard and recovery
 * rule of an `install_only` benchmark, triggers its rules list as inert (e.g. a shop's `budget_check`), and
 * rule kinds outside a benchmark's executor. Unlike the no-op check this spares skills and tool hints, which
 * do run. Reported as notes; `strict` rejects them.
 */
export function findNeverEvaluatedRules(patch: HarnessPatch, runtimeBench: PatchRules): Finding[] {
  const found: Finding[] = [];
  for (const [idx, action] of patch.actions.entries()) {
    if (action.type !== 'add_guard_rule' && action.type !== 'add_recovery_rule') continue;
    if (runtimeBench.legacyRuntime === 'install_only') {
      const kind = action.type === 'add_guard_rule' ? 'guard' : 'recovery';
      found.push({ field: `actions[${idx}].type`, message: `action ${idx}: the ${runtimeBench.title} runtime never evaluates ${kind} rules` });
      continue;
    }
    const noop = checkAction(action, idx, runtimeBench);
    if (noop) found.push(noop);
  }
  return found;
}
