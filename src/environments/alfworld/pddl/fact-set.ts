import type { Fact } from './parse-problem.js';

/** A mutable set of ground facts, indexed by predicate and by each argument position for the solver. */
export interface FactSet {
  has(predicate: string, args: readonly string[]): boolean;
  /** Adds a fact; false if it was already there. */
  add(predicate: string, args: readonly string[]): boolean;
  /** Removes a fact; false if it was not there. */
  delete(predicate: string, args: readonly string[]): boolean;
  /** The argument tuples of every fact of a predicate (do not mutate). */
  tuples(predicate: string): readonly (readonly string[])[];
  /** The tuples of a predicate whose argument at `position` is `value` (do not mutate). */
  tuplesWith(predicate: string, position: number, value: string): readonly (readonly string[])[];
  /** How many times a predicate's facts have changed (an add or delete that took effect); 0 if never. */
  revision(predicate: string): number;
  all(): Fact[];
  clone(): FactSet;
}

const SEP = '\u0001';
const NONE: readonly (readonly string[])[] = [];

export function createFactSet(facts: Iterable<Fact> = []): FactSet {
  const set = new IndexedFactSet(new Map(), new Map(), new Set(), new Map());
  for (const f of facts) set.add(f.predicate, f.args);
  return set;
}

type Tuples = (readonly string[])[];

class IndexedFactSet implements FactSet {
  constructor(
    private readonly byPredicate: Map<string, Tuples>,
    /** Predicate, then argument position, then value: the tuples with that argument there. */
    private readonly byArgument: Map<string, Map<string, Tuples>[]>,
    private readonly keys: Set<string>,
    private readonly revisions: Map<string, number>,
  ) {}

  has(predicate: string, args: readonly string[]): boolean {
    return this.keys.has(factKey(predicate, args));
  }

  add(predicate: string, args: readonly string[]): boolean {
    const k = factKey(predicate, args);
    if (this.keys.has(k)) return false;
    this.keys.add(k);
    this.bump(predicate);
    const tuple = Object.freeze([...args]);
    push(this.byPredicate, predicate, tuple);
    let positions = this.byArgument.get(predicate);
    if (!positions) this.byArgument.set(predicate, (positions = []));
    for (let i = 0; i < tuple.length; i++) push((positions[i] ??= new Map()), tuple[i]!, tuple);
    return true;
  }

  delete(predicate: string, args: readonly string[]): boolean {
    if (!this.keys.delete(factKey(predicate, args))) return false;
    this.bump(predicate);
    remove(this.byPredicate, predicate, args);
    const positions = this.byArgument.get(predicate)!;
    args.forEach((value, i) => remove(positions[i]!, value, args));
    return true;
  }

  tuples(predicate: string): readonly (readonly string[])[] {
    return this.byPredicate.get(predicate) ?? NONE;
  }

  tuplesWith(predicate: string, position: number, value: string): readonly (readonly string[])[] {
    return this.byArgument.get(predicate)?.[position]?.get(value) ?? NONE;
  }

  revision(predicate: string): number {
    return this.revisions.get(predicate) ?? 0;
  }

  private bump(predicate: string): void {
    this.revisions.set(predicate, (this.revisions.get(predicate) ?? 0) + 1);
  }

  all(): Fact[] {
    return [...this.byPredicate].flatMap(([predicate, list]) => list.map((args) => ({ predicate, args })));
  }

  clone(): FactSet {
    const byArgument = new Map<string, Map<string, Tuples>[]>();
    for (const [p, positions] of this.byArgument) byArgument.set(p, positions.map(copyLists));
    return new IndexedFactSet(copyLists(this.byPredicate), byArgument, new Set(this.keys), new Map(this.revisions));
  }
}

function push(map: Map<string, Tuples>, key: string, tuple: readonly string[]): void {
  const list = map.get(key);
  if (list) list.push(tuple);
  else map.set(key, [tuple]);
}

function remove(map: Map<string, Tuples>, key: string, args: readonly string[]): void {
  const list = map.get(key);
  if (!list) return;
  const i = list.findIndex((t) => t.length === args.length && t.every((a, j) => a === args[j]));
  if (i >= 0) list.splice(i, 1);
}

function copyLists(map: Map<string, Tuples>): Map<string, Tuples> {
  const out = new Map<string, Tuples>();
  for (const [k, list] of map) out.set(k, list.slice());
  return out;
}

function factKey(predicate: string, args: readonly string[]): string {
  return args.length === 0 ? predicate : `${predicate}${SEP}${args.join(SEP)}`;
}
