import { ConfigError } from '../../../episode/index.js';
import { splitOnSpacedWord } from '../../../python/text-scan.js';
import { atom, conjunction, type Formula } from '../pddl/formula.js';
import type { VariableTypes } from '../pddl/solve.js';

/**
 * The pieces of a TextWorld context-sensitive-grammar right-hand side:
 * - `text`: literal text;
 * - `rule`: `#name#`, expanded with the first rule of that name whose condition holds;
 * - `conditional`: `{expr}` or `{expr | query}`, the expression (an evaluation or a `#rule#`) once per
 *   solution of the query (once if there is none), concatenated;
 * - `list`: `[{expr | query}]`, the same items joined as "a, b, and c" (or `#list_empty#`).
 */
export type CsgSymbol =
  | { kind: 'text'; text: string }
  | { kind: 'rule'; name: string }
  | { kind: 'conditional'; expression: CsgExpression; given: CsgQuery | undefined }
  | { kind: 'list'; expression: CsgExpression; given: CsgQuery | undefined };

export type CsgExpression = { kind: 'rule'; name: string } | { kind: 'eval'; alternatives: readonly EvalTerm[][] };

/** One term of an evaluated expression: a quoted string, or an entity variable with an optional attribute. */
export type EvalTerm = { kind: 'literal'; text: string } | { kind: 'entity'; variable: string; attribute: EntityAttribute | undefined };

export type EntityAttribute = 'name' | 'id' | 'indefinite' | 'definite';

/** A conjunctive query such as `atlocation(a:agent, l:location) & not_inreceptacle(o:object, r:receptacle)`. */
export interface CsgQuery {
  formula: Formula;
  types: VariableTypes;
}

/**
 * Parses a right-hand side. Like TextWorld's parser (which stops at the first token it cannot read), a
 * stray `}` or `]` ends the text; the Alfred grammar has one such stray brace, in a rule it never uses.
 */
export function parseCsgText(text: string, where: string): CsgSymbol[] {
  const out: CsgSymbol[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '#') {
      const end = text.indexOf('#', i + 1);
      if (end < 0) throw csgError(where, `unclosed '#' in ${JSON.stringify(text)}`);
      out.push({ kind: 'rule', name: text.slice(i + 1, end) });
      i = end + 1;
    } else if (c === '{') {
      const end = text.indexOf('}', i + 1);
      if (end < 0) throw csgError(where, `unclosed '{' in ${JSON.stringify(text)}`);
      out.push({ kind: 'conditional', ...parseConditional(text.slice(i + 1, end), where) });
      i = end + 1;
    } else if (c === '[') {
      const close = text.indexOf('}]', i + 1);
      if (text[i + 1] !== '{' || close < 0) throw csgError(where, `a list must be written [{…}] in ${JSON.stringify(text)}`);
      out.push({ kind: 'list', ...parseConditional(text.slice(i + 2, close), where) });
      i = close + 2;
    } else if (c === '}' || c === ']') {
      break;
    } else {
      let j = i;
      while (j < text.length && !'#{}[]'.includes(text[j]!)) j++;
      out.push({ kind: 'text', text: text.slice(i, j) });
      i = j;
    }
  }
  return out;
}

function parseConditional(body: string, where: string): { expression: CsgExpression; given: CsgQuery | undefined } {
  const bar = body.indexOf('|');
  const head = (bar < 0 ? body : body.slice(0, bar)).trim();
  const given = bar < 0 ? undefined : parseCsgQuery(body.slice(bar + 1), where);
  if (head.startsWith('#') && head.endsWith('#') && head.length > 1) return { expression: { kind: 'rule', name: head.slice(1, -1) }, given };
  return { expression: { kind: 'eval', alternatives: parseEval(head, where) }, given };
}

/** `a.name`, `o.indefinite + ' ' + o.name`, `r.name or r.id`: the expressions the grammars use. */
function parseEval(source: string, where: string): EvalTerm[][] {
  return splitOnSpacedWord(source, 'or').map((alternative) =>
    alternative.split('+').map((raw): EvalTerm => {
      const term = raw.trim();
      const quoted = /^'([^']*)'$/.exec(term) ?? /^"([^"]*)"$/.exec(term);
      if (quoted) return { kind: 'literal', text: quoted[1]! };
      const entity = /^([A-Za-z_]\w*)(?:\.(name|id|indefinite|definite))?$/.exec(term);
      if (!entity) throw csgError(where, `unsupported expression '${source}'`);
      return { kind: 'entity', variable: `?${entity[1]!.toLowerCase()}`, attribute: entity[2] as EntityAttribute | undefined };
    }),
  );
}

/** Parses `pred(x:type, y:type) & …`; placeholders become `?x` variables typed as written. */
export function parseCsgQuery(source: string, where: string): CsgQuery {
  const types: VariableTypes = new Map();
  const parts = source.split('&').map((piece) => {
    const m = /^\s*([\w@-]+)\s*\(([^()]*)\)\s*$/.exec(piece);
    if (!m) throw csgError(where, `unsupported query '${source.trim()}'`);
    const args = m[2]!.split(',').map((arg) => {
      const [name, type] = arg.split(':').map((s) => s.trim().toLowerCase());
      if (!name) throw csgError(where, `empty argument in '${source.trim()}'`);
      const variable = `?${name}`;
      if (type) types.set(variable, type);
      return variable;
    });
    return atom(m[1]!.toLowerCase(), args);
  });
  return { formula: conjunction(parts), types };
}

function csgError(where: string, message: string): ConfigError {
  return new ConfigError({ message: `${where}: ${message}.`, field: where });
}
