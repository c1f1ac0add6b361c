import { ConfigError } from '../../../episode/index.js';
import { parseCsgQuery, parseCsgText, type CsgQuery, type CsgSymbol } from './csg-symbols.js';

/** One production: its raw text, parsed symbols, and the query that must hold for it to apply. */
export interface GrammarRule {
  rhs: string;
  symbols: readonly CsgSymbol[];
  condition: CsgQuery | undefined;
}

/** The command template and feedback of one action, keyed by the lower-cased action name. */
export interface Twl2Action {
  name: string;
  template: readonly CsgSymbol[];
  feedback: readonly CsgSymbol[];
}

/**
 * A TextWorld `.twl2` text grammar: the merged production rules (top-level grammar first, then each
 * action's own grammar, in file order; same-name rules accumulate, the first applicable one wins) and the
 * per-action templates and feedback.
 */
export interface Twl2Grammar {
  rules: ReadonlyMap<string, readonly GrammarRule[]>;
  actions: ReadonlyMap<string, Twl2Action>;
}

type Token = { kind: 'word' | 'string' | 'block' | 'punct'; text: string; line: number };

export function parseTwl2(text: string, where: string): Twl2Grammar {
  const tokens = tokenize(text, where);
  const rules = new Map<string, GrammarRule[]>();
  const actions = new Map<string, Twl2Action>();
  let i = 0;
  const next = (): Token => {
    const t = tokens[i++];
    if (!t) throw twl2Error(where, 'unexpected end of file');
    return t;
  };
  const expect = (kind: Token['kind'], text?: string): Token => {
    const t = next();
    if (t.kind !== kind || (text !== undefined && t.text !== text)) throw twl2Error(where, `line ${t.line}: expected ${text ?? kind}, found '${t.text}'`);
    return t;
  };
  while (i < tokens.length) {
    const head = expect('word');
    if (head.text === 'grammar') {
      expect('punct', '::');
      addRules(rules, expect('block').text, `${where} (grammar)`);
      expect('punct', ';');
    } else if (head.text === 'action') {
      const name = expect('word').text;
      const at = `${where} (action ${name})`;
      expect('punct', '{');
      const fields = new Map<string, string>();
      while (tokens[i]?.text !== '}') {
        const key = expect('word').text;
        expect('punct', '::');
        const value = next();
        if (value.kind !== 'string' && value.kind !== 'block') throw twl2Error(at, `line ${value.line}: ${key} needs a string`);
        expect('punct', ';');
        if (key === 'grammar') addRules(rules, value.text, at);
        else fields.set(key, value.text);
      }
      expect('punct', '}');
      const template = fields.get('template');
      const feedback = fields.get('feedback');
      if (template === undefined || feedback === undefined) throw twl2Error(at, 'an action needs a template and a feedback');
      actions.set(name.toLowerCase(), { name, template: parseCsgText(template, at), feedback: parseCsgText(feedback, at) });
    } else {
      throw twl2Error(where, `line ${head.line}: expected 'grammar' or 'action', found '${head.text}'`);
    }
  }
  return { rules, actions };
}

/** The same grammar with rule `name` replaced by one unconditional production of `rhs`. */
export function withRule(grammar: Twl2Grammar, name: string, rhs: string, where: string): Twl2Grammar {
  const rules = new Map(grammar.rules);
  rules.set(name, [{ rhs, symbols: parseCsgText(rhs, where), condition: undefined }]);
  return { rules, actions: grammar.actions };
}

function addRules(rules: Map<string, GrammarRule[]>, block: string, where: string): void {
  // TextWorld drops '#'-comment lines from action grammars before reading the JSON.
  const json = block
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n');
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (cause) {
    throw new ConfigError({ message: `${where}: the grammar block is not valid JSON (${(cause as Error).message}).`, field: where, cause });
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw twl2Error(where, 'a grammar block must be a JSON object');
  for (const [name, list] of Object.entries(data)) {
    if (!Array.isArray(list)) throw twl2Error(where, `rule '${name}' must be a list`);
    const target = rules.get(name) ?? [];
    for (const item of list as unknown[]) {
      const rhs = (item as { rhs?: unknown }).rhs;
      const condition = (item as { condition?: unknown }).condition;
      if (typeof rhs !== 'string' || (condition !== undefined && typeof condition !== 'string')) throw twl2Error(where, `rule '${name}' needs a string rhs`);
      const at = `${where} rule '${name}'`;
      target.push({ rhs, symbols: parseCsgText(rhs, at), condition: condition ? parseCsgQuery(condition, at) : undefined });
    }
    rules.set(name, target);
  }
}

function tokenize(text: string, where: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\n') {
      line++;
      i++;
    } else if (/\s/.test(c)) {
      i++;
    } else if (text.startsWith('"""', i)) {
      const end = text.indexOf('"""', i + 3);
      if (end < 0) throw twl2Error(where, `line ${line}: unclosed """ block`);
      const body = text.slice(i + 3, end);
      tokens.push({ kind: 'block', text: body, line });
      line += body.split('\n').length - 1;
      i = end + 3;
    } else if (c === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) throw twl2Error(where, `line ${line}: unclosed string`);
      const body = text.slice(i + 1, end);
      tokens.push({ kind: 'string', text: body, line });
      line += body.split('\n').length - 1;
      i = end + 1;
    } else if (text.startsWith('::', i)) {
      tokens.push({ kind: 'punct', text: '::', line });
      i += 2;
    } else if (c === '{' || c === '}' || c === ';') {
      tokens.push({ kind: 'punct', text: c, line });
      i++;
    } else if (/\w/.test(c)) {
      let j = i;
      while (j < text.length && /\w/.test(text[j]!)) j++;
      tokens.push({ kind: 'word', text: text.slice(i, j), line });
      i = j;
    } else {
      throw twl2Error(where, `line ${line}: unexpected '${c}'`);
    }
  }
  return tokens;
}

function twl2Error(where: string, message: string): ConfigError {
  return new ConfigError({ message: `${where}: ${message}.`, field: where });
}
