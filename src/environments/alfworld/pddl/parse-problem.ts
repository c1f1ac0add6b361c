import { parseFormula, parseTypedList, syntaxError, type Formula } from './formula.js';
import { isList, isSymbol, parseSExpressions, showSExpression } from './s-expression.js';

/** A ground fact: predicate and object ids, lower-cased. */
export interface Fact {
  predicate: string;
  args: readonly string[];
}

/** A parsed PDDL problem: declared objects with their types, the initial facts and the goal. */
export interface PddlProblem {
  name: string;
  objectTypes: ReadonlyMap<string, string>;
  init: readonly Fact[];
  goal: Formula;
}

/**
 * Reads an Alfred `pddl_problem`. Numeric initialisations (`(= (f …) n)`) are skipped, as TextWorld
 * does; every other `:init` entry must be a plain atom over names.
 */
export function parseProblem(text: string, where: string): PddlProblem {
  const parsed = parseSExpressions(text);
  if (!parsed.ok) throw syntaxError(where, `line ${parsed.error.line}: ${parsed.error.message}`);
  const define = parsed.value[0];
  if (!isList(define) || define[0] !== 'define' || parsed.value.length !== 1) throw syntaxError(where, 'expected one (define (problem …) …) form');
  const header = define[1];
  if (!isList(header) || header[0] !== 'problem' || !isSymbol(header[1])) throw syntaxError(where, 'missing (problem NAME)');

  const objectTypes = new Map<string, string>();
  const init: Fact[] = [];
  let goal: Formula | undefined;
  for (const section of define.slice(2)) {
    if (!isList(section) || !isSymbol(section[0])) throw syntaxError(where, `unexpected ${showSExpression(section)}`);
    const key = section[0];
    if (key === ':objects') {
      for (const o of parseTypedList(section.slice(1), `${where} (:objects)`)) objectTypes.set(o.name, o.type);
    } else if (key === ':init') {
      for (const item of section.slice(1)) {
        if (!isList(item) || !isSymbol(item[0])) throw syntaxError(where, `malformed :init entry ${showSExpression(item)}`);
        if (item[0] === '=') continue;
        if (!item.every(isSymbol)) throw syntaxError(where, `malformed :init entry ${showSExpression(item)}`);
        const [predicate, ...args] = item as string[];
        init.push({ predicate: predicate!, args });
      }
    } else if (key === ':goal') {
      if (section.length !== 2) throw syntaxError(where, ':goal takes one formula');
      goal = parseFormula(section[1]!, `${where} (:goal)`);
    }
  }
  if (goal === undefined) throw syntaxError(where, 'the problem has no :goal');
  for (const fact of init) {
    for (const arg of fact.args) {
      if (!objectTypes.has(arg)) throw syntaxError(where, `:init mentions the undeclared object '${arg}'`);
    }
  }
  return { name: header[1], objectTypes, init, goal };
}
