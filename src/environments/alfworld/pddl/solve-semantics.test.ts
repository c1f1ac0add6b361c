import { describe, expect, it } from 'vitest';

import { createFactSet } from './fact-set.js';
import { parseFormula } from './formula.js';
import { parseSExpressions } from './s-expression.js';
import { holds, solve, type SolveWorld } from './solve.js';

// What the goal check may conclude: `holds` stops at the first solution, so every branch must pass a stop
// on; `solve` enumerates. Cases for or, repeated variables, = with zero, one or two bound sides and typed
// sides, and exists over a type with no objects.

const TYPES = new Map([
  ['l1', 'location'],
  ['l2', 'location'],
  ['r1', 'receptacle'],
  ['r2', 'receptacle'],
  ['o1', 'thing'],
  ['o2', 'thing'],
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

const w = world('(in o1 r1) (in o2 r2) (open r2) (link l1 l1) (link l1 l2) (link l2 l1) (rel o1 l1 r1) (rel o1 l2 r2) (rel o2 l1 r1)');
const holdsIn = (text: string, types: [string, string][] = []) => holds(formula(text), new Map(), new Map(types), w);

function solutions(text: string, types: [string, string][] = []): string[] {
  const out: string[] = [];
  const env = new Map<string, string>();
  solve(formula(text), env, new Map(types), w, () => {
    out.push([...env].map(([k, v]) => `${k}=${v}`).sort().join(' '));
    return false;
  });
  expect(env.size).toBe(0);
  return out.sort();
}

describe('goal formulas: stopping at the first solution', () => {
  it('or holds when any part holds, also a later one', () => {
    expect(holdsIn('(or (open r1) (open r2))')).toBe(true);
    expect(holdsIn('(or (open r1) (in o1 r2))')).toBe(false);
  });

  it('= holds with both sides unbound, one side bound, or both bound', () => {
    expect(holdsIn('(exists (?a ?b) (= ?a ?b))')).toBe(true);
    expect(holdsIn('(exists (?p - thing) (= o1 ?p))')).toBe(true);
    expect(holdsIn('(exists (?p - thing) (= ?p o1))')).toBe(true);
    expect(holdsIn('(exists (?p - location) (= o1 ?p))')).toBe(false);
    expect(holdsIn('(exists (?o) (and (in ?o r1) (= ?o o1)))')).toBe(true);
  });

  it('exists needs an object of the type of a variable the body leaves free', () => {
    expect(holdsIn('(exists (?z - thing) (open r2))')).toBe(true);
    expect(holdsIn('(exists (?z - lamp) (open r2))')).toBe(false);
    expect(holdsIn('(exists (?x - thing ?z - lamp) (in ?x r1))')).toBe(false);
  });

  it('= between two unbound variables with no common object does not hold', () => {
    expect(holdsIn('(exists (?a - receptacle ?b - location) (= ?a ?b))')).toBe(false);
  });
});

describe('solutions', () => {
  it('binds a variable repeated in an atom to one object', () => {
    expect(solutions('(link ?x ?x)')).toEqual(['?x=l1']);
    expect(solutions('(link l1 ?y)')).toEqual(['?y=l1', '?y=l2']);
  });

  it('checks every bound argument of an atom, not only the one whose index it scans', () => {
    // Both o1 and r2 are bound; whichever index is scanned, (rel o1 l1 r1) must be refused.
    expect(solutions('(rel o1 ?l r2)')).toEqual(['?l=l2']);
  });

  it('keeps bindings made before an atom while enumerating its facts', () => {
    expect(solutions('(and (= ?x l1) (link ?x ?y))')).toEqual(['?x=l1 ?y=l1', '?x=l1 ?y=l2']);
  });

  it('restores an outer binding shadowed by exists', () => {
    expect(solutions('(and (in ?o r1) (exists (?o - thing) (in ?o r2)))')).toEqual(['?o=o1']);
  });

  it('= with two unbound sides gives one solution per object fitting both types', () => {
    expect(solutions('(= ?a ?b)', [['?a', 'receptacle'], ['?b', 'receptacle']])).toEqual(['?a=r1 ?b=r1', '?a=r2 ?b=r2']);
    expect(solutions('(= ?a ?b)', [['?a', 'receptacle'], ['?b', 'location']])).toEqual([]);
  });

  it('= with one bound side binds the other, when its type fits', () => {
    expect(solutions('(and (in ?o ?r) (= ?r ?s))', [['?s', 'receptacle']])).toEqual(['?o=o1 ?r=r1 ?s=r1', '?o=o2 ?r=r2 ?s=r2']);
    expect(solutions('(and (in ?o ?r) (= ?s ?o))', [['?s', 'location']])).toEqual([]);
    expect(solutions('(= r1 r1)')).toEqual(['']);
    expect(solutions('(= r1 r2)')).toEqual([]);
  });
});
