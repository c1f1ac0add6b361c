import { groundApplicable, joinGroundings, type GroundAction } from './actions.js';
import type { Formula } from './pddl/formula.js';
import type { PddlAction, PddlDomain } from './pddl/parse-domain.js';
import type { SolveWorld } from './pddl/solve.js';

/** The applicable groundings of a state, as `groundApplicableActions` gives them, recomputed only where needed. */
export interface GroundingCache {
  applicable(world: SolveWorld): GroundAction[];
}

interface ActionEntry {
  action: PddlAction;
  /** Every predicate the precondition reads, negated and quantified parts included. */
  reads: readonly string[];
  facts?: SolveWorld['facts'];
  revisions: number[];
  groundings: readonly GroundAction[];
}

/**
 * An action's groundings depend only on the facts of the predicates its precondition reads (types and
 * objects are fixed for a game): while none of those predicates has changed since the last solve, in the
 * same fact set, the cached list is what solving again would give, in the same order. A different fact
 * set (a reset) solves every action afresh.
 */
export function createGroundingCache(domain: PddlDomain): GroundingCache {
  const entries: ActionEntry[] = domain.actions.map((action) => ({
    action, reads: [...predicatesOf(action.precondition, new Set())], revisions: [], groundings: [],
  }));
  return {
    applicable(world) {
      const perAction = entries.map((entry) => {
        const revisions = entry.reads.map((p) => world.facts.revision(p));
        const fresh = entry.facts === world.facts && revisions.every((r, i) => r === entry.revisions[i]);
        if (!fresh) {
          entry.facts = world.facts;
          entry.revisions = revisions;
          entry.groundings = groundApplicable(entry.action, world);
        }
        return entry.groundings;
      });
      return joinGroundings(perAction);
    },
  };
}

function predicatesOf(formula: Formula, into: Set<string>): Set<string> {
  switch (formula.kind) {
    case 'atom':
      into.add(formula.predicate);
      break;
    case 'equal':
      break;
    case 'and':
    case 'or':
      for (const part of formula.parts) predicatesOf(part, into);
      break;
    case 'not':
      predicatesOf(formula.part, into);
      break;
    case 'exists':
      predicatesOf(formula.body, into);
      break;
  }
  return into;
}
