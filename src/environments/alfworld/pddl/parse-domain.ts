import { parseEffect, parseFormula, parseTypedList, syntaxError, type Effect, type Formula, type TypedName } from './formula.js';
import { isList, isSymbol, parseSExpressions, showSExpression, type SExpression } from './s-expression.js';

/** One domain action, as Fast Downward reads it (names lower-cased, parameters in declared order). */
export interface PddlAction {
  name: string;
  parameters: readonly TypedName[];
  precondition: Formula;
  effects: readonly Effect[];
}

/**
 * A parsed PDDL domain. `supertypes` maps each declared type to its parent (`object` at the root).
 *
 * The Alfred domain declares `(exists (?l - location, ?r - receptacle) …)` in `examineObject`. Fast
 * Downward does not treat the comma as a separator, so `?l` gets the undeclared, empty type `location,`
 * and that disjunct can never hold: only a held object can be examined. Published ALFWorld traces agree
 * ("examine desklamp 1" next to the lamp is not admissible). This parser keeps that behaviour by reading
 * types verbatim and letting the solver find no object of type `location,`.
 */
export interface PddlDomain {
  name: string;
  supertypes: ReadonlyMap<string, string>;
  actions: readonly PddlAction[];
  /** Predicates no action effect mentions: their facts never change during a game. */
  staticPredicates: ReadonlySet<string>;
}

export function parseDomain(text: string, where: string): PddlDomain {
  const parsed = parseSExpressions(text);
  if (!parsed.ok) throw syntaxError(where, `line ${parsed.error.line}: ${parsed.error.message}`);
  const define = parsed.value[0];
  if (!isList(define) || define[0] !== 'define' || parsed.value.length !== 1) throw syntaxError(where, 'expected one (define (domain …) …) form');
  const header = define[1];
  if (!isList(header) || header[0] !== 'domain' || !isSymbol(header[1])) throw syntaxError(where, 'missing (domain NAME)');

  const supertypes = new Map<string, string>();
  const actions: PddlAction[] = [];
  const predicates = new Set<string>();
  for (const section of define.slice(2)) {
    if (!isList(section) || !isSymbol(section[0])) throw syntaxError(where, `unexpected ${showSExpression(section)}`);
    const key = section[0];
    if (key === ':types') {
      for (const t of parseTypedList(section.slice(1), `${where} (:types)`)) {
        if (t.name !== 'object') supertypes.set(t.name, t.type);
      }
    } else if (key === ':predicates') {
      for (const p of section.slice(1)) if (isList(p) && isSymbol(p[0])) predicates.add(p[0]);
    } else if (key === ':action') {
      actions.push(parseAction(section, where));
    }
  }
  if (actions.length === 0) throw syntaxError(where, 'the domain declares no actions');

  const changing = new Set<string>();
  const collect = (effects: readonly Effect[]): void => {
    for (const e of effects) {
      if (e.kind === 'when') collect(e.effects);
      else changing.add(e.predicate);
    }
  };
  for (const a of actions) collect(a.effects);
  const staticPredicates = new Set([...predicates].filter((p) => !changing.has(p)));
  return { name: header[1], supertypes, actions, staticPredicates };
}

function parseAction(section: SExpression[], where: string): PddlAction {
  const name = section[1];
  if (!isSymbol(name)) throw syntaxError(where, `an action needs a name: ${showSExpression(section)}`);
  const at = `${where} (action ${name})`;
  let parameters: TypedName[] = [];
  let precondition: Formula | undefined;
  let effects: Effect[] = [];
  for (let i = 2; i < section.length; i += 2) {
    const key = section[i];
    const value = section[i + 1];
    if (!isSymbol(key) || value === undefined) throw syntaxError(at, 'expected :keyword value pairs');
    if (key === ':parameters') {
      if (!isList(value)) throw syntaxError(at, ':parameters must be a list');
      parameters = parseTypedList(value, at);
    } else if (key === ':precondition') {
      precondition = parseFormula(value, at);
    } else if (key === ':effect') {
      effects = parseEffect(value, at);
    } else {
      throw syntaxError(at, `unknown action field ${key}`);
    }
  }
  return { name, parameters, precondition: precondition ?? parseFormula([], at), effects };
}
