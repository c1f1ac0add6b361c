import { InternalError } from '../../../episode/index.js';
import { compareCodeUnits } from '../entity-names.js';
import { holds, solve, type Bindings, type SolveWorld, type VariableTypes } from '../pddl/solve.js';
import type { CsgExpression, CsgQuery, CsgSymbol, EvalTerm } from './csg-symbols.js';
import type { Twl2Grammar } from './parse-twl2.js';

/** What text derivation reads: the grammar, the current facts, and the display names of entities. */
export interface DeriveContext {
  grammar: Twl2Grammar;
  world: SolveWorld;
  nameOf(id: string): string;
}

/**
 * Expands grammar symbols into text under `bindings` (variable → entity id), as TextWorld's
 * `ContextSensitiveGrammar.derive` does. Query solutions are visited in ascending order of the ids they
 * bind (in order of first appearance in the query); that is the order ALFWorld's lists show ("a cabinet 4,
 * a cabinet 3, …" for ids sorted ascending). Entities are "a"/"the" for indefinite/definite.
 */
export function deriveText(symbols: readonly CsgSymbol[], bindings: Bindings, types: VariableTypes, ctx: DeriveContext): string {
  const out: string[] = [];
  for (const symbol of symbols) {
    switch (symbol.kind) {
      case 'text':
        out.push(symbol.text);
        break;
      case 'rule':
        out.push(expandRule(symbol.name, bindings, types, ctx));
        break;
      case 'conditional':
        out.push(...renderEach(symbol.expression, symbol.given, bindings, types, ctx));
        break;
      case 'list':
        out.push(displayList(renderEach(symbol.expression, symbol.given, bindings, types, ctx), bindings, types, ctx));
        break;
    }
  }
  return out.join('');
}

/** The first production of `name` whose condition holds, expanded. */
export function expandRule(name: string, bindings: Bindings, types: VariableTypes, ctx: DeriveContext): string {
  const rules = ctx.grammar.rules.get(name);
  if (!rules || rules.length === 0) throw new InternalError({ message: `The text grammar has no rule '#${name}#'.` });
  for (const rule of rules) {
    if (rule.condition && !holds(rule.condition.formula, bindings, withTypes(types, rule.condition), ctx.world)) continue;
    return deriveText(rule.symbols, bindings, types, ctx);
  }
  throw new InternalError({ message: `No production of '#${name}#' applies in this state.` });
}

function renderEach(expression: CsgExpression, given: CsgQuery | undefined, bindings: Bindings, types: VariableTypes, ctx: DeriveContext): string[] {
  if (!given) return [renderExpression(expression, bindings, types, ctx)];
  const scope = withTypes(types, given);
  const fresh = given.formula.free.filter((v) => !bindings.has(v));
  const solutions: string[][] = [];
  solve(given.formula, bindings, scope, ctx.world, () => {
    solutions.push(fresh.map((v) => bindings.get(v) ?? ''));
    return false;
  });
  solutions.sort(compareTuples);
  const items: string[] = [];
  let previous: string[] | undefined;
  for (const values of solutions) {
    if (previous && compareTuples(previous, values) === 0) continue;
    previous = values;
    fresh.forEach((v, i) => bindings.set(v, values[i]!));
    items.push(renderExpression(expression, bindings, scope, ctx));
    for (const v of fresh) bindings.delete(v);
  }
  return items;
}

function renderExpression(expression: CsgExpression, bindings: Bindings, types: VariableTypes, ctx: DeriveContext): string {
  if (expression.kind === 'rule') return expandRule(expression.name, bindings, types, ctx);
  let value = '';
  for (const alternative of expression.alternatives) {
    value = alternative.map((term) => evalTerm(term, bindings, ctx)).join('');
    if (value !== '') break;
  }
  return value;
}

function evalTerm(term: EvalTerm, bindings: Bindings, ctx: DeriveContext): string {
  if (term.kind === 'literal') return term.text;
  const id = bindings.get(term.variable);
  if (id === undefined) throw new InternalError({ message: `The text grammar refers to '${term.variable.slice(1)}', which is not bound here.` });
  switch (term.attribute) {
    case 'id':
      return id;
    case 'indefinite':
      return 'a';
    case 'definite':
      return 'the';
    default:
      return ctx.nameOf(id);
  }
}

function displayList(items: readonly string[], bindings: Bindings, types: VariableTypes, ctx: DeriveContext): string {
  if (items.length === 0) return expandRule('list_empty', bindings, types, ctx);
  if (items.length === 1) return items[0]!;
  const separator = expandRule('list_separator', bindings, types, ctx);
  const last = expandRule('list_last_separator', bindings, types, ctx);
  return `${items.slice(0, -1).join(separator)}${last}${items[items.length - 1]!}`;
}

function withTypes(types: VariableTypes, query: CsgQuery): VariableTypes {
  if (query.types.size === 0) return types;
  const merged = new Map(types);
  for (const [v, t] of query.types) if (!merged.has(v)) merged.set(v, t);
  return merged;
}

function compareTuples(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareCodeUnits(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}
