import { demangleEntityNames } from './entity-names.js';
import { createFactSet, type FactSet } from './pddl/fact-set.js';
import type { PddlDomain } from './pddl/parse-domain.js';
import type { PddlProblem } from './pddl/parse-problem.js';
import type { SolveWorld } from './pddl/solve.js';

/** One game's mutable state: its facts, plus the typing and display names the solver and texts need. */
export interface WorldState extends SolveWorld {
  readonly facts: FactSet;
  /** The entity's display name ("cabinet 3", "loc 12"); the id itself for an unknown id. */
  nameOf(id: string): string;
}

/** The immutable part of a game's world; `start()` gives a fresh state at the initial facts. */
export interface WorldSetup {
  readonly names: ReadonlyMap<string, string>;
  start(): WorldState;
}

/**
 * Builds the world of a problem under a domain's type hierarchy. Types are matched exactly up the
 * `supertypes` chain, with `object` as the root every type belongs to; a type the domain never declares
 * (such as `location,`) has no objects.
 */
export function buildWorld(problem: PddlProblem, domain: PddlDomain): WorldSetup {
  const initial = createFactSet(problem.init);
  const names = demangleEntityNames(problem.init.flatMap((f) => f.args));
  const objectTypes = problem.objectTypes;

  const isA = (type: string | undefined, wanted: string): boolean => {
    for (let t = type, guard = 0; t !== undefined && guard < 32; t = domain.supertypes.get(t), guard++) {
      if (t === wanted) return true;
      if (t === 'object') return false;
    }
    return false;
  };
  const fits = (id: string, type: string): boolean => type === 'object' || isA(objectTypes.get(id), type);
  const byType = new Map<string, readonly string[]>();
  const objectsOfType = (type: string): readonly string[] => {
    let list = byType.get(type);
    if (!list) {
      list = [...objectTypes.keys()].filter((id) => fits(id, type)).sort();
      byType.set(type, list);
    }
    return list;
  };
  const nameOf = (id: string): string => names.get(id) ?? id;

  return {
    names,
    start: () => ({ facts: initial.clone(), fits, objectsOfType, nameOf }),
  };
}
