import type { FactSet } from './fact-set.js';
import type { Formula } from './formula.js';

/** What the solver needs to know about a game: its facts and its typed objects. */
export interface SolveWorld {
  readonly facts: FactSet;
  /** Whether object `id` may be bound to a variable of `type` (its declared type or a supertype). */
  fits(id: string, type: string): boolean;
  /** Every object that fits `type`, for variables no fact constrains. */
  objectsOfType(type: string): readonly string[];
}

/** Variable (`?x`) to object id. Mutated while solving and always restored before returning. */
export type Bindings = Map<string, string>;

/** Declared types of the variables in scope; a variable with no entry is of type `object`. */
export type VariableTypes = Map<string, string>;

/** Continuation called once per solution; returning true stops the search. */
export type Visit = () => boolean;

/**
 * Enumerates the extensions of `bindings` that make `formula` true, calling `visit` for each, by a
 * backtracking join over the indexed facts. Negation is closed-world ("no extension exists"). Inside a
 * conjunction the cheapest conjunct goes first: fully bound atoms and filters, then the atom with the
 * fewest candidate facts under the current bindings. Returns true if `visit` asked to stop.
 */
export function solve(formula: Formula, bindings: Bindings, types: VariableTypes, world: SolveWorld, visit: Visit): boolean {
  switch (formula.kind) {
    case 'atom':
      return solveAtom(formula.predicate, formula.args, bindings, types, world, visit);
    case 'equal':
      return solveEqual(formula.left, formula.right, bindings, types, world, visit);
    case 'and':
      return solveConjunction(formula.parts, bindings, types, world, visit);
    case 'or':
      for (const part of formula.parts) if (solve(part, bindings, types, world, visit)) return true;
      return false;
    case 'not':
      return solve(formula.part, bindings, types, world, STOP) ? false : visit();
    case 'exists':
      return solveExists(formula, bindings, types, world, visit);
  }
}

/** Whether `formula` has at least one solution extending `bindings`. */
export function holds(formula: Formula, bindings: Bindings, types: VariableTypes, world: SolveWorld): boolean {
  return solve(formula, bindings, types, world, STOP);
}

const STOP: Visit = () => true;

function solveAtom(predicate: string, args: readonly string[], env: Bindings, types: VariableTypes, world: SolveWorld, visit: Visit): boolean {
  const values: (string | undefined)[] = args.map((a) => (a.startsWith('?') ? env.get(a) : a));
  if (values.every((v) => v !== undefined)) return world.facts.has(predicate, values as string[]) ? visit() : false;

  for (const tuple of candidateTuples(predicate, values, world)) {
    if (tuple.length !== args.length) continue;
    let newly = 0; // bit i: args[i] was bound here
    let ok = true;
    for (let i = 0; i < args.length && ok; i++) {
      const t = tuple[i]!;
      const v = values[i];
      if (v !== undefined) {
        ok = v === t;
        continue;
      }
      const a = args[i]!;
      const current = env.get(a); // a variable repeated in the atom may have been bound at an earlier position
      if (current !== undefined) ok = current === t;
      else if (world.fits(t, types.get(a) ?? 'object')) {
        env.set(a, t);
        newly |= 1 << i;
      } else ok = false;
    }
    const stop = ok && visit();
    for (let i = 0; newly !== 0; i++, newly >>= 1) if (newly & 1) env.delete(args[i]!);
    if (stop) return true;
  }
  return false;
}

/** The facts of `predicate` to try: those sharing the most selective bound argument, or all of them. */
function candidateTuples(predicate: string, values: readonly (string | undefined)[], world: SolveWorld): readonly (readonly string[])[] {
  let best = world.facts.tuples(predicate);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === undefined) continue;
    const list = world.facts.tuplesWith(predicate, i, v);
    if (list.length < best.length) best = list;
  }
  return best;
}

/** How many facts an atom would scan: the size of its most selective index under the current bindings. */
function candidateCount(predicate: string, args: readonly string[], env: Bindings, world: SolveWorld): number {
  let best = world.facts.tuples(predicate).length;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const v = a.startsWith('?') ? env.get(a) : a;
    if (v !== undefined) best = Math.min(best, world.facts.tuplesWith(predicate, i, v).length);
  }
  return best;
}

function solveEqual(left: string, right: string, env: Bindings, types: VariableTypes, world: SolveWorld, visit: Visit): boolean {
  const l = left.startsWith('?') ? env.get(left) : left;
  const r = right.startsWith('?') ? env.get(right) : right;
  if (l !== undefined && r !== undefined) return l === r ? visit() : false;
  if (l === undefined && r === undefined) {
    for (const id of world.objectsOfType(types.get(left) ?? 'object')) {
      if (!world.fits(id, types.get(right) ?? 'object')) continue;
      env.set(left, id);
      env.set(right, id);
      const stop = visit();
      env.delete(left);
      env.delete(right);
      if (stop) return true;
    }
    return false;
  }
  const [variable, value] = l === undefined ? [left, r!] : [right, l];
  if (!world.fits(value, types.get(variable) ?? 'object')) return false;
  env.set(variable, value);
  const stop = visit();
  env.delete(variable);
  return stop;
}

function solveConjunction(parts: readonly Formula[], env: Bindings, types: VariableTypes, world: SolveWorld, visit: Visit): boolean {
  if (parts.length === 0) return visit();
  if (parts.length === 1) return solve(parts[0]!, env, types, world, visit);
  let best = 0;
  let bestCost = Infinity;
  for (let i = 0; i < parts.length; i++) {
    const c = cost(parts[i]!, env, world);
    if (c < bestCost) {
      best = i;
      bestCost = c;
      if (c === 0) break;
    }
  }
  const rest = parts.filter((_, i) => i !== best);
  return solve(parts[best]!, env, types, world, () => solveConjunction(rest, env, types, world, visit));
}

function cost(f: Formula, env: Bindings, world: SolveWorld): number {
  let unbound = 0;
  for (const v of f.free) if (!env.has(v)) unbound++;
  switch (f.kind) {
    case 'atom':
      return unbound === 0 ? 0 : 1 + candidateCount(f.predicate, f.args, env, world);
    case 'equal':
      return unbound === 0 ? 0 : unbound === 1 ? 1 : 1e12;
    case 'not':
      return unbound === 0 ? 0.5 : 1e11;
    default:
      return unbound === 0 ? 1e7 : 1e9 + unbound;
  }
}

function solveExists(f: Extract<Formula, { kind: 'exists' }>, env: Bindings, types: VariableTypes, world: SolveWorld, visit: Visit): boolean {
  const outerValues = f.variables.map((v) => env.get(v.name));
  const outerTypes = f.variables.map((v) => types.get(v.name));
  for (const v of f.variables) {
    env.delete(v.name);
    types.set(v.name, v.type);
  }
  const restore = (values: readonly (string | undefined)[]): void => {
    f.variables.forEach((v, i) => {
      const value = values[i];
      if (value === undefined) env.delete(v.name);
      else env.set(v.name, value);
    });
  };
  const restoreTypes = (): void => {
    f.variables.forEach((v, i) => {
      const type = outerTypes[i];
      if (type === undefined) types.delete(v.name);
      else types.set(v.name, type);
    });
  };
  const stop = solve(f.body, env, types, world, () => {
    // A quantified variable the body left unconstrained still needs some object of its type.
    if (f.variables.some((v) => !env.has(v.name) && world.objectsOfType(v.type).length === 0)) return false;
    const inner = f.variables.map((v) => env.get(v.name));
    restore(outerValues);
    restoreTypes();
    const s = visit();
    for (const v of f.variables) types.set(v.name, v.type);
    restore(inner);
    return s;
  });
  restore(outerValues);
  restoreTypes();
  return stop;
}
