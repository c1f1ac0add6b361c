import { describe, expect, it } from 'vitest';

import { parseSExpressions } from './s-expression.js';

describe('parseSExpressions', () => {
  it('reads nested lists, lower-cases symbols and skips comments', () => {
    const r = parseSExpressions('(define (Domain Alfred) ; a comment (not a list\n  (:action Look))');
    expect(r).toEqual({ ok: true, value: [['define', ['domain', 'alfred'], [':action', 'look']]] });
  });

  it('keeps a comma inside its token, as Fast Downward does', () => {
    const r = parseSExpressions('(exists (?l - location, ?r - receptacle) (p ?l))');
    expect(r.ok && r.value[0]).toEqual(['exists', ['?l', '-', 'location,', '?r', '-', 'receptacle'], ['p', '?l']]);
  });

  it('reports unbalanced parentheses with a line number', () => {
    expect(parseSExpressions('(a\n(b)')).toEqual({ ok: false, error: { message: "unclosed '('", line: 1 } });
    expect(parseSExpressions('(a)\n)')).toEqual({ ok: false, error: { message: "unexpected ')'", line: 2 } });
  });
});
