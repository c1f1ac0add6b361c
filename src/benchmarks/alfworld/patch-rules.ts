/**
 * What the patch validator knows about ALFWorld (protocol.md §3.3–3.9): the legacy DSL vocabulary the original
 * validates for it, how its runtime treats legacy actions, and the numbered-instance rule.
 */
import { MODULE_FLAGS, type PatchRules } from '../../patch/index.js';

export const ALFWORLD_PATCH_RULES: PatchRules = {
  name: 'alfworld',
  title: 'ALFWorld',
  legacyRuntime: 'overlay_rules',
  numberedInstances: true,
  legacy: {
    tools: ['take_action'],
    configFields: {
      ...MODULE_FLAGS,
      action_similarity_threshold: { type: 'float', min: 0, max: 1 },
      invalid_block_after: { type: 'int', min: 1, max: 10 },
      h3_max_words: { type: 'int', min: 5, max: 80 },
      h4_stall_window: { type: 'int', min: 2, max: 12 },
      h4_soft_intervention_rounds: { type: 'int', min: 0, max: 8 },
      h4_min_rounds_before_stall: { type: 'int', min: 1, max: 30 },
      h4_post_put_grace: { type: 'int', min: 0, max: 12 },
      h5_top_k: { type: 'int', min: 0, max: 5 },
      h5_cold_start_max_words: { type: 'int', min: 5, max: 120 },
      h5_step_hint_max_words: { type: 'int', min: 5, max: 80 },
      h4_nothing_happens_window: { type: 'int', min: 2, max: 12 },
      h4_nothing_happens_threshold: { type: 'int', min: 1, max: 10 },
      h2_empty_turn_threshold: { type: 'int', min: 1, max: 8 },
      h4_budget_warn_threshold: { type: 'int', min: 1, max: 30 },
      h4_budget_force_threshold: { type: 'int', min: 1, max: 20 },
      h4_budget_warn_threshold_multistep: { type: 'int', min: 1, max: 40 },
    },
    promptConfigFields: [],
    conditionPaths: [
      'action.raw',
      'action.normalized',
      'action.final_action',
      'action.in_admissible',
      'state.nothing_happens_count',
      'state.repeated_observation_count',
      'state.repeated_action_count',
      'state.invalid_action_count',
      'state.remaining_steps',
      'task.task_type',
      'task.target_type',
      'task.destination_type',
    ],
    conditionPathAliases: {},
    conditionPredicates: [
      'action_not_admissible',
      'nothing_happens_repeated',
      'same_observation_repeated',
      'same_action_repeated',
      'remaining_steps_low',
    ],
    triggers: { guard: ['before_action'], recovery: ['post_step'] },
    effects: { guard: ['block_and_prompt', 'force_action', 'rewrite_action'], recovery: ['inject_hint', 'force_action'] },
  },
};
