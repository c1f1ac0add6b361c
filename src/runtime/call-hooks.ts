import type { HookName, HookTraceEntry } from '../episode/index.js';
import type { HookEffectByName } from '../hooks/hook-effects.js';
import type { EpisodeHooks } from '../hooks/hook-provider.js';
import { normalizeHookResult } from '../hooks/normalize-effect.js';

/** One normalized effect together with the trace entry the caller completes with its disposition. */
export interface FiredEffect<H extends HookName> {
  effect: HookEffectByName[H];
  trace: HookTraceEntry;
}

/**
 * Runs every installed hook of one name, normalizes each result, and appends one trace entry per hook
 * call: faults and "no effect" are recorded too, so an inert patch can be told from an effective one.
 * Returns the effects in patch order; their trace entries start as `applied` and the caller may mark
 * them `ignored`.
 */
export async function callHooks<H extends HookName>(
  hook: H,
  ctx: Record<string, unknown>,
  meta: { round: number; tool?: string },
  hooks: EpisodeHooks,
  trace: HookTraceEntry[],
): Promise<FiredEffect<H>[]> {
  if (hooks.count(hook) === 0) return [];
  const results = await hooks.call(hook, ctx);
  const fired: FiredEffect<H>[] = [];
  for (const result of results) {
    const entry: HookTraceEntry = { round: meta.round, hook, hookIndex: result.hookIndex, effect: 'none', disposition: 'none' };
    if (meta.tool !== undefined) entry.tool = meta.tool;
    if ('fault' in result) {
      entry.fault = { kind: result.fault.kind, message: result.fault.message.slice(0, 300) };
    } else {
      const effect = normalizeHookResult(hook, result.raw, ctx);
      if (effect !== undefined) {
        entry.effect = effect.kind;
        entry.disposition = 'applied';
        entry.detail = describeEffect(effect).slice(0, 200);
        fired.push({ effect, trace: entry });
      }
    }
    trace.push(entry);
  }
  return fired;
}

function describeEffect(effect: HookEffectByName[HookName]): string {
  switch (effect.kind) {
    case 'init':
      return [...effect.skills.map((s) => `skill: ${s}`), effect.toolHint ? `tool_hint: ${effect.toolHint}` : ''].filter(Boolean).join(' | ');
    case 'hint':
    case 'inject_hint':
    case 'block_and_prompt':
      return effect.message;
    case 'rewrite_action':
    case 'force_action':
      return effect.action;
  }
}
