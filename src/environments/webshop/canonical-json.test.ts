import { describe, expect, it } from 'vitest';

import type { PyValue } from '../../python/python-json.js';
import { canonicalJson, manifestSha256 } from './canonical-json.js';

// Expected strings and digests printed by CPython 3.11 with the same canonicalisation and
// json.dumps(..., ensure_ascii=False, separators=(",", ":")).
describe('manifestSha256', () => {
  const value: PyValue = new Map<string, PyValue>([
    ['b', 10.0],
    ['a', [1n, 2.5, 1e-5, 1e16, null, true]],
    ['é', 'l\'eau "x"\n\u0001\u2028 ü'],
    ['Z', 1000000n],
    ['aa', new Map<string, PyValue>([['y', 0.1 + 0.2], ['x', -0]])],
  ]);

  it('sorts dict keys by code point and formats like Python json.dumps', () => {
    expect(canonicalJson(value)).toBe(
      '[["Z",1000000],["a",[1,2.5,1e-05,1e+16,null,true]],["aa",[["x",-0.0],["y",0.30000000000000004]]],["b",10.0],["é","l\'eau \\"x\\"\\n\\u0001\u2028 ü"]]',
    );
    expect(manifestSha256(value)).toBe('89197e814c5031deddb2f0b9385ae405a365f9403245d1ed1ce97d9461b9c941');
  });

  it('hashes a bare string as its JSON string', () => {
    expect(manifestSha256('instruction-3')).toBe('0a060640755d2e09ef7f3c257e9730702a1128aaa912714d887d5168e28cd79b');
  });
});
