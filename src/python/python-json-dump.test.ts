import { spawnSync } from 'node:child_process';

import { describe, expect, it } from 'vitest';

import { pyJsonDumps, type PyJsonOut } from './python-json-dump.js';

// The same value twice: as the writer's input and as a Python literal for the live check.
const value: PyJsonOut = new Map<string, PyJsonOut>([
  ['20', { mean: 14, sd: 0.1, tiny: 1e-5, huge: 1e16, negZero: -0, count: 2 ** 60, neg: -3 }],
  ['3', []],
  ['text', ['é — ✓', '😀', 'quote " backslash \\ tab \t newline \n', '\u0001\u007f', '']],
  ['flags', [true, false, null, {}]],
]);
const floatKeys = new Set(['mean', 'sd', 'tiny', 'huge', 'negZero']);
const pythonLiteral = `{"20": {"mean": 14.0, "sd": 0.1, "tiny": 1e-05, "huge": 1e16, "negZero": -0.0, "count": 2**60, "neg": -3},
 "3": [], "text": ["\\u00e9 \\u2014 \\u2713", "\\U0001F600", "quote \\" backslash \\\\ tab \\t newline \\n", "\\x01\\x7f", ""],
 "flags": [True, False, None, {}]}`;

describe('pyJsonDumps = json.dumps(indent=2)', () => {
  it('writes Python floats, ints, ASCII escapes and empty containers the way Python does', () => {
    const text = pyJsonDumps(value, { indent: 2, floatKeys });
    expect(text).toContain('"mean": 14.0,');
    expect(text).toContain('"tiny": 1e-05,');
    expect(text).toContain('"huge": 1e+16,');
    expect(text).toContain('"negZero": -0.0,');
    expect(text).toContain('"count": 1152921504606846976,');
    expect(text).toContain('"\\u00e9 \\u2014 \\u2713"');
    expect(text).toContain('"\\ud83d\\ude00"');
    expect(text).toContain('"\\u0001\\u007f"');
    expect(text).toContain('"3": [],');
    expect(text.startsWith('{\n  "20": {\n    "mean"')).toBe(true);
    expect(text.endsWith('    {}\n  ]\n}')).toBe(true);
  });

  it('skips undefined entries and treats non-integral numbers as floats without being told', () => {
    expect(pyJsonDumps({ a: undefined, b: 0.5, c: 2 })).toBe('{\n  "b": 0.5,\n  "c": 2\n}');
  });

  const python = spawnSync('python3', ['--version']);
  it.skipIf(python.status !== 0)('gives the bytes python3 gives for the same value', () => {
    const run = spawnSync('python3', ['-c', `import json, sys; sys.stdout.write(json.dumps(${pythonLiteral}, indent=2))`], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(pyJsonDumps(value, { indent: 2, floatKeys })).toBe(run.stdout);
  });
});
