/**
 * Small builders the symbolic engineer's hook templates share on every benchmark: Python string and list
 * literals, the shape of a code-hook-only patch, and the capped `block` helper of pre-action guards.
 */
import type { PATCH_SCHEMA_VERSION } from '../../patch/index.js';

/** A Python string literal (double-quoted, ASCII only); long texts are split into concatenated pieces ≤ 300 chars. */
export function pyStr(text: string): string {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += 300) pieces.push(text.slice(i, i + 300));
  if (pieces.length === 0) pieces.push('');
  return pieces
    .map((piece) => JSON.stringify(piece).replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`))
    .join(' + ');
}

/** A Python list literal of strings (signature ids, skills). */
export function pyList(items: readonly string[]): string {
  return `[${items.map((item) => pyStr(item)).join(', ')}]`;
}

/** A patch made only of code hooks, as the symbolic engineer writes them for one benchmark. */
export interface CodeHookPatch<B extends string> {
  schema_version: typeof PATCH_SCHEMA_VERSION;
  benchmark: B;
  description: string;
  actions: { type: 'add_code_hook'; hook: 'on_init' | 'on_post_step' | 'make_pre_hint' | 'on_before_action'; code: string }[];
}

/** The capped pre-action block: at most `cap` blocks per key and episode, counted in `nb['blocks']`. */
export const BLOCK_HELPER = String.raw`def block(nb, key, cap, msg):
    done = nb.get('blocks') or {}
    n = done.get(key) or 0
    if n >= cap:
        return None
    done[key] = n + 1
    nb['blocks'] = done
    return {'kind': 'block_and_prompt', 'message': msg}`;
