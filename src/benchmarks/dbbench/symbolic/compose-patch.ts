import { PATCH_SCHEMA_VERSION, type CodeHookName } from '../../../patch/index.js';
import { SIGNATURE_IDS, type SignatureId } from './signatures.js';
import {
  SIGNATURE_TEMPLATES,
  SOFT_TEMPLATE,
  buildMakePreHint,
  buildOnBeforeAction,
  buildOnInit,
  buildOnPostStep,
  type GuardFragment,
  type StageFragment,
} from './templates.js';

/** The patch the symbolic engineer writes: code hooks only, in the order on_init → on_post_step → make_pre_hint → on_before_action. */
export interface SymbolicPatch {
  schema_version: typeof PATCH_SCHEMA_VERSION;
  benchmark: 'dbbench';
  description: string;
  actions: { type: 'add_code_hook'; hook: CodeHookName; code: string }[];
}

export interface ComposedPatch {
  patch: SymbolicPatch;
  /** Which template parts went into which hook, e.g. `on_before_action: guards[no_sql, same_sql]`. */
  templates: string[];
}

/** on_init returns at most 5 skills (protocol.md §4.1). */
export const MAX_SKILLS = 5;

/**
 * Composes one patch from the templates of the given signatures. `ranked` decides which skills make the
 * five on_init slots (first = most frequent); every other part follows the library order, so the same set
 * and ranking always give the same bytes.
 */
export function composePatch(ranked: readonly SignatureId[]): ComposedPatch {
  if (ranked.length === 0) throw new Error('composePatch needs at least one signature; use composeSoftPatch for none');
  const chosen = SIGNATURE_IDS.filter((id) => ranked.includes(id)).map((id) => SIGNATURE_TEMPLATES[id]);
  const skills = ranked.slice(0, MAX_SKILLS).map((id) => SIGNATURE_TEMPLATES[id].skill);
  const toolHint = `SQL checklist: ${chosen.map((t) => t.toolHint).join('; ')}.`;

  const postStages: StageFragment[] = chosen.flatMap((t) => (t.postStage ? [t.postStage] : []));
  const preStages: StageFragment[] = chosen.flatMap((t) => (t.preStage ? [t.preStage] : []));
  const messages: Record<string, string> = Object.assign({}, ...chosen.map((t) => t.messages ?? {})) as Record<string, string>;
  const guards: GuardFragment[] = chosen.flatMap((t) => t.guards ?? []);

  const actions: SymbolicPatch['actions'] = [{ type: 'add_code_hook', hook: 'on_init', code: buildOnInit(skills, toolHint) }];
  const templates = [`on_init: skills[${ranked.slice(0, MAX_SKILLS).join(', ')}], tool_hint[${chosen.map((t) => t.signature).join(', ')}]`];
  if (postStages.length > 0) {
    actions.push({ type: 'add_code_hook', hook: 'on_post_step', code: buildOnPostStep(postStages) });
    templates.push(`on_post_step: stages[${postStages.map((s) => s.stage).join(', ')}]`);
  }
  if (postStages.length > 0 || preStages.length > 0) {
    actions.push({ type: 'add_code_hook', hook: 'make_pre_hint', code: buildMakePreHint(preStages, messages) });
    templates.push(`make_pre_hint: hints[${Object.keys(messages).join(', ')}]`);
  }
  if (guards.length > 0) {
    actions.push({ type: 'add_code_hook', hook: 'on_before_action', code: buildOnBeforeAction(guards) });
    templates.push(`on_before_action: guards[${guards.map((g) => g.key).join(', ')}]`);
  }
  const description = `Symbolic engineer (rule-based) patch for DBBench failure patterns that recur across the batch: ${chosen.map((t) => t.fix).join('; ')}.`;
  return { patch: { schema_version: PATCH_SCHEMA_VERSION, benchmark: 'dbbench', description, actions }, templates };
}

/** The minimal soft-hint patch for a batch where no signature recurs: general skills and a last-rounds reminder. */
export function composeSoftPatch(): ComposedPatch {
  const actions: SymbolicPatch['actions'] = [
    { type: 'add_code_hook', hook: 'on_init', code: buildOnInit(SOFT_TEMPLATE.skills, SOFT_TEMPLATE.toolHint) },
    { type: 'add_code_hook', hook: 'make_pre_hint', code: buildMakePreHint([SOFT_TEMPLATE.preStage], SOFT_TEMPLATE.messages) },
  ];
  return {
    patch: {
      schema_version: PATCH_SCHEMA_VERSION,
      benchmark: 'dbbench',
      description: 'Symbolic engineer (rule-based) soft-hint patch: no failure pattern recurred, so only general SQL workflow advice.',
      actions,
    },
    templates: ['on_init: soft skills and tool_hint', 'make_pre_hint: hints[deadline]'],
  };
}
