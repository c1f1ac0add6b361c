import type { CodeHookName, HarnessPatch } from './patch-types.js';

/** The code hooks of a validated patch, in patch order (duplicates kept: the runtime runs them all). */
export function codeHooksOf(patch: HarnessPatch): { hook: CodeHookName; code: string }[] {
  return patch.actions.flatMap((a) => (a.type === 'add_code_hook' ? [{ hook: a.hook, code: a.code }] : []));
}
