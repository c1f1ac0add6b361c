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

/** The on_init effects of all hooks, in patch order: every skill, and every tool hint. */
export function foldInit(fired: readonly FiredEffect<'on_init'>[]): { skills: string[]; toolHints: string[] } {
  const init = { skills: [] as string[], toolHints: [] as string[] };
  for (const { effect } of fired) {
    init.skills.push(...effect.skills);
    if (effect.toolHint) init.toolHints.push(effect.toolHint);
  }
  return init;
}

/** What the runtime did with one fired effect: it was applied, or the benchmark does not honour it here. */
export type Disposition = 'applied' | 'ignored';

/** What the on_before_action effects of one step decided. */
export interface GuardDecision {
  /** The first block's message; the step is not executed. */
  block?: string;
  /** The action to execute: the agent's, or the last rewrite/force before any block. */
  action: string;
  /** Messages of the rewrites/forces that were applied, in order. */
  notes: string[];
  /** One per fired effect, in order: the caller records them with `settle`. */
  dispositions: Disposition[];
}

/**
 * The one rule that folds the on_before_action effects of a step (protocol.md §4.5): the first block wins
 * and every later effect is ignored; a rewrite or force before it replaces the action, normalized by
 * `replace`, and contributes its message to `notes` — unless the benchmark honours no rewrite (`replace`
 * absent, as in the SQL benchmark), when rewrites and forces are ignored.
 */
export function foldGuards(fired: readonly FiredEffect<'on_before_action'>[], action: string, replace?: (effectAction: string) => string): GuardDecision {
  const decision: GuardDecision = { action, notes: [], dispositions: [] };
  for (const { effect } of fired) {
    if (decision.block !== undefined) {
      decision.dispositions.push('ignored');
    } else if (effect.kind === 'block_and_prompt') {
      decision.block = effect.message;
      decision.dispositions.push('applied');
    } else if (replace === undefined) {
      decision.dispositions.push('ignored');
    } else {
      decision.action = replace(effect.action);
      if (effect.message) decision.notes.push(effect.message);
      decision.dispositions.push('applied');
    }
  }
  return decision;
}

/**
 * Folds the on_post_step effects of a step: hints always; a force (the last one wins), normalized by `force`,
 * with its optional message — unless the benchmark honours no force (`force` absent, as in the SQL benchmark), when forces
 * are ignored, message and all.
 */
export function foldPostStep(
  fired: readonly FiredEffect<'on_post_step'>[],
  force?: (effectAction: string) => string,
): { forced?: string; messages: string[]; dispositions: Disposition[] } {
  const out: { forced?: string; messages: string[]; dispositions: Disposition[] } = { messages: [], dispositions: [] };
  for (const { effect } of fired) {
    if (effect.kind === 'force_action') {
      if (force === undefined) {
        out.dispositions.push('ignored');
        continue;
      }
      out.forced = force(effect.action);
    }
    if (effect.message) out.messages.push(effect.message);
    out.dispositions.push('applied');
  }
  return out;
}

/** Records what a fold decided in the hook trace. */
export function settle(fired: readonly FiredEffect<HookName>[], dispositions: readonly Disposition[]): void {
  fired.forEach(({ trace }, i) => {
    trace.disposition = dispositions[i] ?? trace.disposition;
  });
}
