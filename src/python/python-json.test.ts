import { describe, expect, it } from 'vitest';

import { PY_JSON_MAX_DEPTH, createObjectDecoder, fromJsValue, pyJsonLoads, pyRawDecode, toJsValue, type PyDict } from './python-json.js';
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

describe('createObjectDecoder', () => {
  it('gives what raw_decode gives at every { of a text, messages included', () => {
    const texts = [
      '{"a": {"b": [1, {"c": 2}]}, "d": {}} {x} {"e": {"f": 1',
      '{"a": {"b": {"c": "{\\"d\\": 1}"}}',
      '{"k": "{{{", "j": [{"x": NaN}, {"y": }]}\n{"z": 1}',
      '{{{"a": 1}}}',
    ];
    for (const text of texts) {
      const decodeAt = createObjectDecoder(text);
      for (let at = text.indexOf('{'); at >= 0; at = text.indexOf('{', at + 1)) {
        const fresh = pyRawDecode(text, at);
        const remembered = decodeAt(at);
        expect(remembered.ok, `${text} @${at}`).toBe(fresh.ok);
        if (fresh.ok && remembered.ok) {
          expect(pyRepr(remembered.value)).toBe(pyRepr(fresh.value));
          expect(remembered.end).toBe(fresh.end);
        } else if (!fresh.ok && !remembered.ok) {
          expect(remembered.kind).toBe(fresh.error.kind);
          expect(remembered.error()).toEqual(fresh.error);
        }
      }
    }
  });

  // A fresh decode at every { is quadratic here (messages count lines from the start; nested starts are
  // decoded again by every enclosing one); at 4 MB that runs for hours.
  it('decodes every { of a multi-megabyte text in linear time', () => {
    const braces = '{'.repeat(4_000_000);
    const decodeBraces = createObjectDecoder(braces);
    let failures = 0;
    for (let at = 0; at < braces.length; at += 1) if (!decodeBraces(at).ok) failures++;
    expect(failures).toBe(4_000_000);

    const keys = '{"'.repeat(150_000);
    const decodeKeys = createObjectDecoder(keys);
    failures = 0;
    for (let at = 0; at < keys.length; at += 2) if (!decodeKeys(at).ok) failures++;
    expect(failures).toBe(150_000);

    const nested = `${'{"a": '.repeat(900)}[${'1, '.repeat(700_000)}`;
    const decodeNested = createObjectDecoder(nested);
    const starts = [...nested.matchAll(/\{/g)].map((m) => m.index);
    expect(starts.map((at) => decodeNested(at).ok)).toEqual(starts.map(() => false));
  });
});
