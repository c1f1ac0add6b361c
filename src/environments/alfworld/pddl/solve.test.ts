import { describe, expect, it } from 'vitest';

import { createFactSet } from './fact-set.js';
import { parseFormula } from './formula.js';
import { parseSExpressions } from './s-expression.js';
import { holds, solve, type SolveWorld } from './solve.js';

const TYPES = new Map([
  ['a1', 'agent'],
  ['l1', 'location'],
  ['l2', 'location'],
  ['r1', 'receptacle'],
  ['r2', 'receptacle'],
  ['o1', 'thing'],
  ['o2', 'thing'],
  ['o3', 'thing'],
]);

function world(facts: string): SolveWorld {
  const parsed = parseSExpressions(facts);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const set = createFactSet(parsed.value.map((f) => ({ predicate: (f as string[])[0]!, args: (f as string[]).slice(1) })));
  const fits = (id: string, type: string) => type === 'object' || TYPES.get(id) === type;
  return { facts: set, fits, objectsOfType: (type) => [...TYPES.keys()].filter((id) => fits(id, type)) };
}

function formula(text: string) {
  const parsed = parseSExpressions(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parseFormula(parsed.value[0]!, 'test');
}

function solutions(text: string, w: SolveWorld, types: [string, string][] = []): string[] {
  const out: string[] = [];
  const env = new Map<string, string>();
  const f = formula(text);
  solve(f, env, new Map(types), w, () => {
    out.push([...env].map(([k, v]) => `${k}=${v}`).sort().join(' '));
    return false;
  });
  expect(env.size).toBe(0);
  return out.sort();
}

describe('solve', () => {
  const w = world('(at a1 l1) (recat r1 l1) (recat r2 l2) (in o1 r1) (in o2 r1) (in o3 r2) (open r2)');

  it('joins atoms in any written order and restores the bindings', () => {
    expect(solutions('(and (in ?o ?r) (at ?a ?l) (recat ?r ?l))', w)).toEqual(['?a=a1 ?l=l1 ?o=o1 ?r=r1', '?a=a1 ?l=l1 ?o=o2 ?r=r1']);
  });

  it('checks variable types against the declared object types', () => {
    expect(solutions('(in ?o ?r)', w, [['?o', 'thing']])).toHaveLength(3);
    expect(solutions('(in ?o ?r)', w, [['?o', 'location,']])).toEqual([]);
  });

  it('handles or, closed-world not, = and exists with projection', () => {
    expect(solutions('(and (in ?o ?r) (or (not (open ?r)) (= ?o o3)))', w)).toEqual(['?o=o1 ?r=r1', '?o=o2 ?r=r1', '?o=o3 ?r=r2']);
    expect(solutions('(exists (?r - receptacle) (in ?o ?r))', w)).toEqual(['?o=o1', '?o=o2', '?o=o3']);
    expect(holds(formula('(exists (?x ?y) (and (in ?x r1) (in ?y r1) (not (= ?x ?y))))'), new Map(), new Map(), w)).toBe(true);
    expect(holds(formula('(exists (?x ?y) (and (in ?x r2) (in ?y r2) (not (= ?x ?y))))'), new Map(), new Map(), w)).toBe(false);
  });

  it('scopes re-declared existential variables', () => {
    const goal = '(and (exists (?a - agent ?l - location) (at ?a ?l)) (exists (?a - receptacle) (open ?a)))';
    expect(holds(formula(goal), new Map(), new Map(), w)).toBe(true);
  });
});
