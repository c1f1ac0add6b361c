/** A hook ctx shaped like the ALFWorld on_post_step context (about 1.7 KB of JSON), shared by the hook-call benches. */
export const CTX = {
  task: { task_type: 'pick_heat_then_place_in_recep', target_type: 'egg', destination_type: 'countertop', goal: 'heat some egg and put it in countertop' },
  step: 7,
  action: { raw: 'take egg 1 from fridge 1', normalized: 'take egg 1 from fridge 1', final_action: 'take egg 1 from fridge 1' },
  observation: 'You pick up the egg 1 from the fridge 1.',
  world: { location: 'fridge 1', inventory: ['egg 1'], placed_count: 0, opened: ['fridge 1'], visited: ['countertop 1', 'fridge 1', 'microwave 1'] },
  admissible: Array.from({ length: 30 }, (_, i) => `go to cabinet ${i + 1}`).concat(['examine egg 1', 'heat egg 1 with microwave 1', 'inventory', 'look']),
  predicates: { action_not_admissible: false, repeated_action: false, text_only_loop: false, remaining_rounds_low: false },
};
