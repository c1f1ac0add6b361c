import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import { loadAlfworldLogic, parseAlfworldLogic, parseAlfworldWording } from './load-logic.js';

const logic = loadAlfworldLogic(resolveDataDir());

describe('ALFWorld logic files', () => {
  it('reads the 2.1.1 (AgentBench) and 2.1.2 (game-embedded) domains', () => {
    const names = (w: '2.1.1' | '2.1.2') => logic[w].domain.actions.map((a) => a.name);
    expect(names('2.1.1')).toEqual([
      'look', 'inventory', 'examinereceptacle', 'examineobject', 'gotolocation', 'openobject', 'closeobject',
      'pickupobject', 'putobject', 'cleanobject', 'heatobject', 'coolobject', 'toggleobject', 'sliceobject',
    ]);
    expect(names('2.1.2')).toEqual([...names('2.1.1'), 'help']);
    expect(logic['2.1.2'].domain.staticPredicates).toContain('receptacleatlocation');
    expect(logic['2.1.2'].domain.staticPredicates).not.toContain('inreceptacle');
  });

  it('keeps the comma-typed existential of examineObject, which no object can satisfy', () => {
    const examine = logic['2.1.1'].domain.actions.find((a) => a.name === 'examineobject')!;
    const pre = examine.precondition;
    expect(pre.kind).toBe('or');
    const first = pre.kind === 'or' ? pre.parts[0] : undefined;
    expect(first?.kind === 'exists' && first.variables).toEqual([
      { name: '?l', type: 'location,' },
      { name: '?r', type: 'receptacle' },
    ]);
  });

  it('differs between wordings only where ALFWorld 2.1.2 patched it', () => {
    const template = (w: '2.1.1' | '2.1.2', a: string) => logic[w].grammar.actions.get(a)!.template;
    expect(template('2.1.1', 'putobject')).toEqual([{ kind: 'text', text: 'put ' }, expect.anything(), { kind: 'text', text: ' in/on ' }, expect.anything()]);
    expect(template('2.1.2', 'putobject')).toEqual([{ kind: 'text', text: 'move ' }, expect.anything(), { kind: 'text', text: ' to ' }, expect.anything()]);
    const clean = (w: '2.1.1' | '2.1.2') => JSON.stringify(logic[w].domain.actions.find((a) => a.name === 'cleanobject')!.precondition);
    expect(clean('2.1.1')).not.toContain('sinktype');
    expect(clean('2.1.2')).toContain('sinktype');
  });

  it('rejects a grammar that lacks a domain action, and unknown wordings', () => {
    const domain = '(define (domain d) (:types agent) (:action act :parameters (?a - agent) :precondition () :effect ()))';
    const grammar = 'grammar :: """ {"intro": [{"rhs": "x"}], "task": [{"rhs": "y"}]} """;';
    expect(() => parseAlfworldLogic('2.1.1', domain, grammar, { domain: 'd.pddl', grammar: 'g.twl2' })).toThrow(/g\.twl2: no template for the domain action\(s\) act/);
    expect(() => parseAlfworldWording('2.2')).toThrow(/Unknown ALFWorld wording '2.2'. Allowed: 2.1.1, 2.1.2/);
  });
});
