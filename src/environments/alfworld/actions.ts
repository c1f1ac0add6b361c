import type { Effect } from './pddl/formula.js';
import type { PddlAction, PddlDomain } from './pddl/parse-domain.js';
import { holds, solve, type Bindings, type SolveWorld, type VariableTypes } from './pddl/solve.js';

/** A domain action with every parameter bound to an object id, in declared parameter order. */
export interface GroundAction {
  action: PddlAction;
  args: readonly string[];
  /** `name arg1 arg2 …`, the identity Fast Downward gives the operator. */
  key: string;
}

/**
 * Every grounding of every domain action whose precondition holds in `world`, in domain order,
 * de-duplicated by operator identity. As in Fast Downward, distinct parameters may take the same object
 * (so "go to" the receptacle you are at is applicable) and existential variables are not part of the
 * identity. Parameters no precondition constrains range over every object of their type.
 */
export function groundApplicableActions(domain: PddlDomain, world: SolveWorld): GroundAction[] {
  return joinGroundings(domain.actions.map((action) => groundApplicable(action, world)));
}

/** The applicable groundings of one action, in solver order, de-duplicated by operator identity. */
export function groundApplicable(action: PddlAction, world: SolveWorld): GroundAction[] {
  const out: GroundAction[] = [];
  const seen = new Set<string>();
  const types: VariableTypes = new Map(action.parameters.map((p) => [p.name, p.type]));
  const bindings: Bindings = new Map();
  solve(action.precondition, bindings, types, world, () => {
    for (const args of completeParameters(action, bindings, world)) {
      const key = `${action.name} ${args.join(' ')}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ action, args, key });
    }
    return false;
  });
  return out;
}

/** Per-action groundings in domain order, keeping the first of any operator identity seen twice. */
export function joinGroundings(perAction: readonly (readonly GroundAction[])[]): GroundAction[] {
  const out: GroundAction[] = [];
  const seen = new Set<string>();
  for (const list of perAction) {
    for (const ground of list) {
      if (seen.has(ground.key)) continue;
      seen.add(ground.key);
      out.push(ground);
    }
  }
  return out;
}

function completeParameters(action: PddlAction, bindings: Bindings, world: SolveWorld): string[][] {
  const args = action.parameters.map((p) => bindings.get(p.name));
  if (args.every((a) => a !== undefined)) return [args as string[]];
  let partial: string[][] = [[]];
  action.parameters.forEach((p, i) => {
    const bound = args[i];
    const choices = bound !== undefined ? [bound] : world.objectsOfType(p.type);
    partial = partial.flatMap((prefix) => choices.map((c) => [...prefix, c]));
  });
  return partial;
}

/** The parameter bindings of a ground action, for evaluating its conditions and texts. */
export function bindingsOf(ground: GroundAction): Bindings {
  return new Map(ground.action.parameters.map((p, i) => [p.name, ground.args[i]!]));
}

export function parameterTypes(action: PddlAction): VariableTypes {
  return new Map(action.parameters.map((p) => [p.name, p.type]));
}

/**
 * Applies a ground action's effects. Conditional effects are decided on the state before the action; a
 * fact both deleted and added stays (add wins, as in PDDL and Fast Downward). Like TextWorld, a deleted
 * fact leaves its negation behind as a `not_…` fact (removed again when the fact is re-added): the text
 * grammar reads those, e.g. `not_inreceptacle` for what lies "next to" a receptacle. Returns whether any fact changed.
 */
export function applyGroundAction(ground: GroundAction, world: SolveWorld): boolean {
  const bindings = bindingsOf(ground);
  const types = parameterTypes(ground.action);
  const adds: [string, string[]][] = [];
  const deletes: [string, string[]][] = [];
  const collect = (effects: readonly Effect[]): void => {
    for (const e of effects) {
      if (e.kind === 'when') {
        if (holds(e.condition, bindings, types, world)) collect(e.effects);
        continue;
      }
      const args = e.args.map((a) => (a.startsWith('?') ? bindings.get(a) ?? a : a));
      (e.kind === 'add' ? adds : deletes).push([e.predicate, args]);
    }
  };
  collect(ground.action.effects);
  const added = new Set(adds.map(([p, args]) => `${p} ${args.join(' ')}`));
  let changed = false;
  for (const [p, args] of deletes) {
    if (added.has(`${p} ${args.join(' ')}`)) continue;
    if (world.facts.delete(p, args)) changed = true;
    if (world.facts.add(`not_${p}`, args)) changed = true;
  }
  for (const [p, args] of adds) {
    if (world.facts.add(p, args)) changed = true;
    if (world.facts.delete(`not_${p}`, args)) changed = true;
  }
  return changed;
}
