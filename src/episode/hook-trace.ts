/** The four lifecycle positions of the original protocol, in call order. */
export const HOOK_NAMES = ['on_init', 'make_pre_hint', 'on_before_action', 'on_post_step'] as const;
export type HookName = (typeof HOOK_NAMES)[number];

export function isHookName(value: unknown): value is HookName {
  return typeof value === 'string' && (HOOK_NAMES as readonly string[]).includes(value);
}

/**
 * One hook call as seen in an episode: which hook (and which copy of it, in patch order), at which round,
 * what normalized effect it returned, and what the runtime did with it. `effect` is `none` when the hook
 * returned nothing usable; `fault` names why a hook produced no effect because it failed.
 */
export interface HookTraceEntry {
  round: number;
  hook: HookName;
  /** Position of this hook among the installed hooks with the same name (0-based). */
  hookIndex: number;
  /** Normalized effect kind, e.g. `init`, `hint`, `block_and_prompt`, `inject_hint`, or `none`. */
  effect: string;
  /** `applied`, or `ignored` when the benchmark does not honour this effect (e.g. a rewrite in a benchmark that honours none). */
  disposition: 'applied' | 'ignored' | 'none';
  /** The tool the hook looked at, when there was one. */
  tool?: string;
  /** Short text of the effect (first 200 characters), for the firing report. */
  detail?: string;
  /** Why the hook produced no effect when it failed: `timeout`, `line_budget`, `exception`, ... */
  fault?: { kind: string; message: string };
}
