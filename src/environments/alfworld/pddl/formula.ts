import { ConfigError } from '../../../episode/index.js';
import { isList, isSymbol, showSExpression, type SExpression } from './s-expression.js';

/** A name with its PDDL type. Variables keep their leading `?`. */
export interface TypedName {
  name: string;
  type: string;
}

/**
 * A goal or precondition formula. Terms are strings: `?x` is a variable, anything else an object id.
 * `free` lists the free variables of the node, computed once so the solver can order conjuncts cheaply.
 */
export type Formula =
  | { kind: 'atom'; predicate: string; args: readonly string[]; free: readonly string[] }
  | { kind: 'equal'; left: string; right: string; free: readonly string[] }
  | { kind: 'and'; parts: readonly Formula[]; free: readonly string[] }
  | { kind: 'or'; parts: readonly Formula[]; free: readonly string[] }
  | { kind: 'not'; part: Formula; free: readonly string[] }
  | { kind: 'exists'; variables: readonly TypedName[]; body: Formula; free: readonly string[] };

/** An action effect; numeric effects such as `(increase (total-cost) 1)` are dropped when parsing. */
export type Effect =
  | { kind: 'add'; predicate: string; args: readonly string[] }
  | { kind: 'delete'; predicate: string; args: readonly string[] }
  | { kind: 'when'; condition: Formula; effects: readonly Effect[] };

export function isVariable(term: string): boolean {
  return term.startsWith('?');
}

export function atom(predicate: string, args: readonly string[]): Formula {
  return { kind: 'atom', predicate, args, free: unique(args.filter(isVariable)) };
}

export function conjunction(parts: readonly Formula[]): Formula {
  return { kind: 'and', parts, free: unique(parts.flatMap((p) => p.free)) };
}

/**
 * Reads a typed list such as `?o - object ?r - receptacle` or `a b - location`. Names before a `-` take
 * the type after it; trailing names without one are `object`, as in PDDL. The type token is taken
 * verbatim, so `?l - location,` declares the (empty) type `location,` — see parse-domain.ts.
 */
export function parseTypedList(items: readonly SExpression[], where: string): TypedName[] {
  const out: TypedName[] = [];
  let pending: string[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (!isSymbol(item)) throw syntaxError(where, `expected a name in a typed list, found ${showSExpression(item ?? '')}`);
    if (item === '-') {
      const type = items[i + 1];
      if (!isSymbol(type) || pending.length === 0) throw syntaxError(where, "a '-' in a typed list must follow names and precede a type");
      for (const name of pending) out.push({ name, type });
      pending = [];
      i++;
    } else {
      pending.push(item);
    }
  }
  for (const name of pending) out.push({ name, type: 'object' });
  return out;
}

/** Converts a condition s-expression (`and`, `or`, `not`, `exists`, `=`, atoms); `()` is the empty conjunction. */
export function parseFormula(x: SExpression, where: string): Formula {
  if (!isList(x)) throw syntaxError(where, `expected a formula, found the symbol '${x}'`);
  if (x.length === 0) return conjunction([]);
  const [head, ...rest] = x;
  if (!isSymbol(head)) throw syntaxError(where, `a formula must start with a name: ${showSExpression(x)}`);
  switch (head) {
    case 'and':
      return conjunction(rest.map((p) => parseFormula(p, where)));
    case 'or': {
      const parts = rest.map((p) => parseFormula(p, where));
      return { kind: 'or', parts, free: unique(parts.flatMap((p) => p.free)) };
    }
    case 'not': {
      if (rest.length !== 1) throw syntaxError(where, `'not' takes one formula: ${showSExpression(x)}`);
      const part = parseFormula(rest[0]!, where);
      return { kind: 'not', part, free: part.free };
    }
    case 'exists': {
      const [vars, body] = rest;
      if (!isList(vars) || body === undefined || rest.length !== 2) throw syntaxError(where, `malformed 'exists': ${showSExpression(x)}`);
      const variables = parseTypedList(vars, where);
      const inner = parseFormula(body, where);
      const bound = new Set(variables.map((v) => v.name));
      return { kind: 'exists', variables, body: inner, free: inner.free.filter((v) => !bound.has(v)) };
    }
    case '=': {
      const [left, right] = rest;
      if (!isSymbol(left) || !isSymbol(right) || rest.length !== 2) throw syntaxError(where, `malformed '=': ${showSExpression(x)}`);
      return { kind: 'equal', left, right, free: unique([left, right].filter(isVariable)) };
    }
    case 'forall':
    case 'imply':
    case 'when':
      throw syntaxError(where, `'${head}' is not supported in conditions by this engine`);
    default: {
      if (!rest.every(isSymbol)) throw syntaxError(where, `atom arguments must be names: ${showSExpression(x)}`);
      return atom(head, rest);
    }
  }
}

/** Converts an effect s-expression (`and`, atoms, `not` atoms, `when`); numeric updates are ignored. */
export function parseEffect(x: SExpression, where: string): Effect[] {
  if (!isList(x)) throw syntaxError(where, `expected an effect, found the symbol '${x}'`);
  if (x.length === 0) return [];
  const [head, ...rest] = x;
  if (!isSymbol(head)) throw syntaxError(where, `an effect must start with a name: ${showSExpression(x)}`);
  switch (head) {
    case 'and':
      return rest.flatMap((p) => parseEffect(p, where));
    case 'not': {
      const inner = rest[0];
      if (rest.length !== 1 || !isList(inner) || !isSymbol(inner[0]) || !inner.every(isSymbol)) {
        throw syntaxError(where, `'not' in an effect takes one atom: ${showSExpression(x)}`);
      }
      const [predicate, ...args] = inner as string[];
      return [{ kind: 'delete', predicate: predicate!, args }];
    }
    case 'when': {
      const [condition, effect] = rest;
      if (condition === undefined || effect === undefined || rest.length !== 2) throw syntaxError(where, `malformed 'when': ${showSExpression(x)}`);
      return [{ kind: 'when', condition: parseFormula(condition, where), effects: parseEffect(effect, where) }];
    }
    case 'increase':
    case 'decrease':
    case 'assign':
      return [];
    case 'forall':
      throw syntaxError(where, "'forall' effects are not supported by this engine");
    default:
      if (!rest.every(isSymbol)) throw syntaxError(where, `atom arguments must be names: ${showSExpression(x)}`);
      return [{ kind: 'add', predicate: head, args: rest }];
  }
}

export function syntaxError(where: string, message: string): ConfigError {
  return new ConfigError({ message: `${where}: ${message}.`, field: where });
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}
