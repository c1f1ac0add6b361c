/**
 * What the patch validator needs to know about one benchmark: its name and display name, the legacy DSL
 * vocabulary the original validates for it (tools, config targets, condition paths and predicates, rule
 * triggers and effects), which legacy actions its runtime executes, and whether returned actions and hook
 * string literals must not name numbered instances. Each benchmark's definition supplies its rules; the
 * validator itself names no benchmark.
 */
import type { EffectKind, HookCompileRules } from './patch-types.js';

/** A legacy `set_config` target: its type and bounds. */
export interface ConfigFieldSpec {
  type: 'bool' | 'int' | 'float';
  min?: number;
  max?: number;
}

/** The module switches every original benchmark's config knows; `set_config` may never change them (§3.3). */
export const MODULE_FLAGS: Readonly<Record<string, ConfigFieldSpec>> = {
  enabled: { type: 'bool' },
  h2: { type: 'bool' },
  h3: { type: 'bool' },
  h4: { type: 'bool' },
  h5: { type: 'bool' },
};

/** The legacy DSL vocabulary of one benchmark (protocol.md §3.3–3.4). */
export interface LegacyDslRules {
  /** Tools `edit_tool_hint` may name. */
  tools: readonly string[];
  /** Every config target the original knows (the rest exist for its "not exposed" rejections). */
  configFields: Readonly<Record<string, ConfigFieldSpec>>;
  /** The only targets `set_config` may set. */
  promptConfigFields: readonly string[];
  conditionPaths: readonly string[];
  /** Operand spellings the original maps onto a condition path. */
  conditionPathAliases: Readonly<Record<string, string>>;
  conditionPredicates: readonly string[];
  /** Allowed rule triggers and effect kinds, per rule kind. */
  triggers: { guard: readonly string[]; recovery: readonly string[] };
  effects: { guard: readonly EffectKind[]; recovery: readonly EffectKind[] };
}

export interface PatchRules {
  /** The name patches carry in `benchmark` (lower case). */
  readonly name: string;
  /** How messages name the benchmark (its title). */
  readonly title: string;
  readonly legacy: LegacyDslRules;
  /**
   * How the benchmark's runtime treats legacy actions: `overlay_rules` runs guard and recovery rules through
   * its overlay executors; `install_only` runs skills and tool hints at install and never evaluates rules,
   * and in code-hook RL every legacy action is a runtime no-op (§3.8–3.9).
   */
  readonly legacyRuntime: 'overlay_rules' | 'install_only';
  /** Returned actions and hook string literals must not name numbered instances (`sinkbasin 1`, §3.6). */
  readonly numberedInstances: boolean;
}

/** Finds the rules of a benchmark by the name a patch or a caller gives. */
export type PatchRulesLookup = (name: string) => PatchRules | undefined;

/** The lookup over a list of rules (the registry builds it from every benchmark's definition). */
export function patchRulesLookup(rules: readonly PatchRules[]): PatchRulesLookup {
  const byName = new Map(rules.map((r) => [r.name, r]));
  return (name) => byName.get(name);
}

/** Legacy vocabulary with nothing in it: a benchmark without the original's DSL accepts code hooks only. */
export const NO_LEGACY_DSL: LegacyDslRules = Object.freeze({
  tools: [],
  configFields: {},
  promptConfigFields: [],
  conditionPaths: [],
  conditionPathAliases: {},
  conditionPredicates: [],
  triggers: { guard: [], recovery: [] },
  effects: { guard: [], recovery: [] },
});


export function compileRulesOf(rules: PatchRules | undefined): HookCompileRules {
  return { numberedInstances: rules?.numberedInstances ?? false };
}
