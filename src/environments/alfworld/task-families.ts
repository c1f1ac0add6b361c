/** The six ALFWorld task types, as in the game folders' prefixes and the records' `task_type`. */
export const ALFWORLD_TASK_TYPES = [
  'pick_and_place_simple',
  'look_at_obj_in_light',
  'pick_clean_then_place_in_recep',
  'pick_heat_then_place_in_recep',
  'pick_cool_then_place_in_recep',
  'pick_two_obj_and_place',
] as const;

export type AlfworldTaskType = (typeof ALFWORLD_TASK_TYPES)[number];

/** AgentBench's family key for each task type: the split files group games by these keys. */
export const ALFWORLD_FAMILY_OF: Readonly<Record<AlfworldTaskType, string>> = {
  pick_and_place_simple: 'pick_and_place',
  look_at_obj_in_light: 'look_at_obj',
  pick_clean_then_place_in_recep: 'pick_clean_then_place',
  pick_heat_then_place_in_recep: 'pick_heat_then_place',
  pick_cool_then_place_in_recep: 'pick_cool_then_place',
  pick_two_obj_and_place: 'pick_two_obj',
};

/** The key of the family's one-shot example in AgentBench's `alfworld_multiturn_plan_first.json`. */
export const ALFWORLD_PROMPT_KEY_OF: Readonly<Record<AlfworldTaskType, string>> = {
  pick_and_place_simple: 'put',
  look_at_obj_in_light: 'examine',
  pick_clean_then_place_in_recep: 'clean',
  pick_heat_then_place_in_recep: 'heat',
  pick_cool_then_place_in_recep: 'cool',
  pick_two_obj_and_place: 'puttwo',
};

export function isAlfworldTaskType(value: unknown): value is AlfworldTaskType {
  return typeof value === 'string' && (ALFWORLD_TASK_TYPES as readonly string[]).includes(value);
}
