import { describe, expect, it } from 'vitest';

import { PY_JSON_MAX_DEPTH, fromJsValue, pyJsonLoads, pyRawDecode, toJsValue, type PyDict } from './python-json.js';
import { pyRepr } from './python-text.js';

function decodeRepr(text: string, at = 0): string {
  const result = pyRawDecode(text, at);
  return result.ok ? `${pyRepr(result.value)} @${result.end}` : `${result.error.exception}: ${result.error.message}`;
}

// Expected values were produced by CPython 3.11's json module.
describe('pyRawDecode', () => {
  it('accepts Python-only constants and keeps int/float apart', () => {
    expect(decodeRepr('{"a":-Infinity,"b":NaN,"c":Infinity}')).toBe("{'a': -inf, 'b': nan, 'c': inf} @36");
    expect(decodeRepr('[1, 1.0, -0, -0.0, 1e2, 10000000000000000000000]')).toBe(
      '[1, 1.0, 0, -0.0, 100.0, 10000000000000000000000] @48',
    );
  });

  it('stops after one value and keeps dict semantics for duplicate and special keys', () => {
    expect(decodeRepr('{"a":1,"a":2,"b":3} trailing')).toBe("{'a': 2, 'b': 3} @19");
    const result = pyRawDecode('{"__proto__": 1, "2": 0, "1": 0}');
    expect(result.ok && [...(result.value as PyDict).keys()]).toEqual(['__proto__', '2', '1']);
  });

  it('reports the same errors and positions as Python', () => {
    expect(decodeRepr('{"a":1,}')).toBe(
      'JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 8 (char 7)',
    );
    expect(decodeRepr('{"a" 1}')).toBe("JSONDecodeError: Expecting ':' delimiter: line 1 column 6 (char 5)");
    expect(decodeRepr('{"a":01}')).toBe("JSONDecodeError: Expecting ',' delimiter: line 1 column 7 (char 6)");
    expect(decodeRepr('{"a":1.}')).toBe("JSONDecodeError: Expecting ',' delimiter: line 1 column 7 (char 6)");
    expect(decodeRepr('{"a":"\\x"}')).toBe('JSONDecodeError: Invalid \\escape: line 1 column 7 (char 6)');
    expect(decodeRepr('{"a":"\\u12zz"}')).toBe('JSONDecodeError: Invalid \\uXXXX escape: line 1 column 8 (char 7)');
    expect(decodeRepr('{"a":"b\nc"}')).toBe('JSONDecodeError: Invalid control character at: line 1 column 8 (char 7)');
    expect(decodeRepr('{"a":"bc')).toBe('JSONDecodeError: Unterminated string starting at: line 1 column 6 (char 5)');
    expect(decodeRepr('[1,]')).toBe('JSONDecodeError: Expecting value: line 1 column 4 (char 3)');
  });

  it('joins escaped surrogate pairs only when both halves are valid', () => {
    expect(decodeRepr('"\\ud83d\\ude00"')).toBe("'😀' @14");
    expect(decodeRepr('"\\ud83d\\u0041"')).toBe("'\\ud83dA' @14");
  });

  it('raises ValueError for integers over 4300 digits and RecursionError for deep nesting', () => {
    expect(decodeRepr('1'.repeat(4300)).endsWith('@4300')).toBe(true);
    expect(decodeRepr(`-${'1'.repeat(4300)}`).endsWith('@4301')).toBe(true);
    expect(decodeRepr('1'.repeat(4301))).toBe(
      'ValueError: Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() to increase the limit',
    );
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(pyRawDecode(deep(PY_JSON_MAX_DEPTH)).ok).toBe(true);
    expect(decodeRepr(deep(PY_JSON_MAX_DEPTH + 1))).toMatch(/^RecursionError: maximum recursion depth exceeded/);
  });

  it('counts positions in code points for messages', () => {
    expect(decodeRepr('{"😀":1,}')).toBe(
      'JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 8 (char 7)',
    );
  });
});

describe('pyJsonLoads', () => {
  it('rejects a BOM, trailing data and empty input like json.loads', () => {
    const message = (text: string) => {
      const r = pyJsonLoads(text);
      return r.ok ? pyRepr(r.value) : r.error.message;
    };
    expect(message('\ufeff{}')).toBe('Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)');
    expect(message('{} x')).toBe('Extra data: line 1 column 4 (char 3)');
    expect(message('  ')).toBe('Expecting value: line 1 column 3 (char 2)');
    expect(message('\n {"a": [1]}\r\n')).toBe("{'a': [1]}");
    expect(message('{\n"a": x}')).toBe('Expecting value: line 2 column 6 (char 7)');
  });
});

describe('JS conversions', () => {
  it('round-trips plain values; integral numbers become ints', () => {
    const py = fromJsValue({ a: [1, 1.5, 'x', null, true] });
    expect(pyRepr(py)).toBe("{'a': [1, 1.5, 'x', None, True]}");
    expect(toJsValue(py)).toEqual({ a: [1, 1.5, 'x', null, true] });
    expect(Object.keys(toJsValue(new Map([['__proto__', 1n]])) as object)).toEqual(['__proto__']);
  });
});
