import type { Formula } from './pddl/formula.js';
import { holds, type SolveWorld } from './pddl/solve.js';

/**
 * Whether a problem's `:goal` holds in the current state: TextWorld's `info['won']`, checked after every
 * step. The goal formulas of the six families (§3.4 of benchmarks.md) are ordinary existential
 * conjunctions, so one evaluator covers them all:
 * - pick_and_place_simple: some object of type X `inReceptacle` some receptacle of type Y;
 * - pick_clean/heat/cool_then_place_in_recep: the same, with the object `isClean`/`isHot`/`isCool`;
 * - pick_two_obj_and_place: two objects of type X, not `=`, in the same receptacle of type Y;
 * - look_at_obj_in_light: the agent holds an X, and a toggled DeskLamp is in a receptacle at its location.
 */
export function isGoalReached(goal: Formula, world: SolveWorld): boolean {
  return holds(goal, new Map(), new Map(), world);
}
