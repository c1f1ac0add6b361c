import { describe, expect, it } from 'vitest';

import { createFactSet } from '../pddl/fact-set.js';
import type { SolveWorld } from '../pddl/solve.js';
import { deriveText, expandRule, type DeriveContext } from './derive-text.js';
import { parseTwl2 } from './parse-twl2.js';

const GRAMMAR = `
grammar :: """
    {
        "intro": [{ "rhs": "Hello!\\n\\n#view#" }],
        "view": [
            { "condition": "opened(r:receptacle)", "rhs": "Open: [{o.indefinite + ' ' + o.name | inreceptacle(o:object, r:receptacle)}]." },
            { "rhs": "Closed {r.name or r.id}." }
        ],
        "list_empty": [{ "rhs": "nothing" }],
        "list_separator": [{ "rhs": ", " }],
        "list_last_separator": [{ "rhs": ", and " }]
    }
""";

action Open {
    template :: "open {r}";
    feedback :: "You open the {r.name}. #view#";
}

action help {
    template :: "help";
    feedback :: "
Two lines:
  here (x)
";
}
`;

function context(facts: [string, ...string[]][]): DeriveContext {
  const grammar = parseTwl2(GRAMMAR, 'test.twl2');
  const types = new Map([['box_bar_2', 'receptacle'], ['box_bar_1', 'receptacle'], ['pen_bar_b', 'object'], ['pen_bar_a', 'object'], ['cup_bar_a', 'object']]);
  const world: SolveWorld = {
    facts: createFactSet(facts.map(([predicate, ...args]) => ({ predicate, args }))),
    fits: (id, type) => type === 'object' || types.get(id) === type,
    objectsOfType: () => [],
  };
  const names: Record<string, string> = { box_bar_1: 'box 2', box_bar_2: 'box 1', pen_bar_a: 'pen 2', pen_bar_b: 'pen 1', cup_bar_a: 'cup 1' };
  return { grammar, world, nameOf: (id) => names[id] ?? id };
}

describe('twl2 grammar and text derivation', () => {
  it('reads templates, feedback and multi-line strings', () => {
    const g = parseTwl2(GRAMMAR, 'test.twl2');
    expect([...g.actions.keys()]).toEqual(['open', 'help']);
    expect(g.actions.get('help')!.feedback).toEqual([{ kind: 'text', text: '\nTwo lines:\n  here (x)\n' }]);
  });

  it('picks the first applicable rule and lists query solutions in id order', () => {
    const ctx = context([['opened', 'box_bar_1'], ['inreceptacle', 'pen_bar_b', 'box_bar_1'], ['inreceptacle', 'pen_bar_a', 'box_bar_1'], ['inreceptacle', 'cup_bar_a', 'box_bar_1']]);
    const bind = (r: string) => new Map([['?r', r]]);
    const types = new Map([['?r', 'receptacle']]);
    expect(expandRule('view', bind('box_bar_1'), types, ctx)).toBe('Open: a cup 1, a pen 2, and a pen 1.');
    expect(expandRule('view', bind('box_bar_2'), types, ctx)).toBe('Closed box 1.');
    const open = ctx.grammar.actions.get('open')!;
    expect(deriveText(open.template, bind('box_bar_1'), types, ctx)).toBe('open box 2');
    expect(deriveText(open.feedback, bind('box_bar_1'), types, ctx)).toBe('You open the box 2. Open: a cup 1, a pen 2, and a pen 1.');
  });

  it('renders empty and single-item lists', () => {
    const ctx = context([['opened', 'box_bar_1'], ['opened', 'box_bar_2'], ['inreceptacle', 'pen_bar_b', 'box_bar_2']]);
    const types = new Map([['?r', 'receptacle']]);
    expect(expandRule('view', new Map([['?r', 'box_bar_1']]), types, ctx)).toBe('Open: nothing.');
    expect(expandRule('view', new Map([['?r', 'box_bar_2']]), types, ctx)).toBe('Open: a pen 1.');
  });

  it('rejects malformed grammar files with the file name', () => {
    expect(() => parseTwl2('grammar :: """ {not json} """;', 'bad.twl2')).toThrow(/bad\.twl2 \(grammar\): the grammar block is not valid JSON/);
    expect(() => parseTwl2('action X { template :: "x"; }', 'bad.twl2')).toThrow(/bad\.twl2 \(action X\): an action needs a template and a feedback/);
  });
});
