import type { HookName } from '../episode/index.js';
import type { BeforeActionEffect, HookEffectByName, InitEffect, PostStepEffect, PreHintEffect } from './hook-effects.js';
import { MAX_RETURN_TEXT_CHARS, collapseWhitespace, lowerCase, namesNumberedInstance, sliceCodePoints } from './text-rules.js';

type Dict = Record<string, unknown>;

function isDict(value: unknown): value is Dict {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whitespace-collapsed text cut to 900 code points; anything that is not a string gives ''. */
export function cleanHookText(value: unknown): string {
  if (typeof value !== 'string') return '';
  return sliceCodePoints(collapseWhitespace(value), MAX_RETURN_TEXT_CHARS);
}

/**
 * Lower-cased, collapsed action cut to 900 code points. A numbered-instance action is dropped unless it is
 * exactly one of `ctx.admissible` (both normalized); this applies on every benchmark, as in the original.
 * Whitespace alone collapses to '' (no action).
 */
export function cleanHookAction(value: unknown, ctx: Dict): string {
  if (typeof value !== 'string') return '';
  const action = collapseWhitespace(lowerCase(value));
  if (namesNumberedInstance(action) && !isAdmissible(action, ctx.admissible)) return '';
  return sliceCodePoints(action, MAX_RETURN_TEXT_CHARS);
}

/** Whether `action` (normalized) is one of the listed admissible actions, each normalized the same way. */
function isAdmissible(action: string, admissible: unknown): boolean {
  return Array.isArray(admissible) && admissible.some((x) => collapseWhitespace(lowerCase(String(x))) === action);
}

/** The trimmed `kind` string, or `undefined` when the hook gave none or a non-string. */
function kindOf(result: Dict): string | undefined {
  const kind = result.kind;
  return typeof kind === 'string' ? kind.trim() : undefined;
}

function normalizeInit(result: Dict): InitEffect | undefined {
  const skills: string[] = [];
  const rawSkills = result.skills;
  if (Array.isArray(rawSkills)) {
    for (const item of rawSkills.slice(0, 5)) {
      const text = isDict(item) ? cleanHookText(item.text) : cleanHookText(item);
      if (text) skills.push(text);
    }
  }
  const toolHint = cleanHookText(result.tool_hint);
  if (skills.length === 0 && !toolHint) return undefined;
  return { kind: 'init', skills, toolHint };
}

function normalizePreHint(result: Dict): PreHintEffect | undefined {
  const message = cleanHookText(result.message);
  return message ? { kind: 'hint', message } : undefined;
}

function normalizeBeforeAction(result: Dict, ctx: Dict): BeforeActionEffect | undefined {
  const kind = kindOf(result);
  const message = cleanHookText(result.message);
  if (kind === 'block_and_prompt') return message ? { kind, message } : undefined;
  if (kind === 'rewrite_action' || kind === 'force_action') {
    const action = cleanHookAction(result.action, ctx);
    if (!action) return undefined;
    return message ? { kind, action, message } : { kind, action };
  }
  return undefined;
}

function normalizePostStep(result: Dict, ctx: Dict): PostStepEffect | undefined {
  const kind = kindOf(result);
  const message = cleanHookText(result.message);
  if (kind === 'inject_hint') return message ? { kind, message } : undefined;
  if (kind === 'force_action') {
    const action = cleanHookAction(result.action, ctx);
    if (!action) return message ? { kind: 'inject_hint', message } : undefined;
    return message ? { kind, action, message } : { kind, action };
  }
  return undefined;
}

/**
 * Turns whatever a hook returned into the effect the runtime may apply, or `undefined` for "no effect"
 * (protocol.md §4.1 and §5.4). Only dicts count; unknown kinds, empty messages and unusable actions
 * silently give no effect. `ctx` is the context the hook saw (its `admissible` list matters).
 */
export function normalizeHookResult<H extends HookName>(hook: H, raw: unknown, ctx: Dict): HookEffectByName[H] | undefined {
  if (!isDict(raw)) return undefined;
  switch (hook) {
    case 'on_init':
      return normalizeInit(raw) as HookEffectByName[H] | undefined;
    case 'make_pre_hint':
      return normalizePreHint(raw) as HookEffectByName[H] | undefined;
    case 'on_before_action':
      return normalizeBeforeAction(raw, ctx) as HookEffectByName[H] | undefined;
    case 'on_post_step':
      return normalizePostStep(raw, ctx) as HookEffectByName[H] | undefined;
  }
  // Not a hook name (only an untyped caller can pass one): no effect.
  return undefined;
}
