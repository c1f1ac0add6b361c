import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import { cleanFcAnswer, gradeMutation, gradeQueryAnswer, gradeV02AnswerText, normalizeFcValue, parseV02Answer } from './grade.js';
import { loadDbBenchSplit } from './load-tasks.js';
import { evalPythonLiteral } from './python-literal.js';

// Expected verdicts were computed by running the AgentBench grading functions (result_processor.py and
// the v0.2 `DBBench.metrics` body) under CPython 3.11 on these exact inputs.

const FC_CASES: [string[], string[], boolean][] = [
  [["167"], ["167.0"], true],
  [["1,000"], ["1000"], true],
  [["50%"], ["50"], true],
  [["50 %"], ["50"], true],
  [["None"], ["0"], true],
  [["null"], ["none"], true],
  [["3.004"], ["3.0"], true],
  [["3.02"], ["3.0"], false],
  [["Smith, John"], ["Smith John"], true],
  [["Smith, John"], ["Smith,John"], false],
  [["'abc'"], ["abc"], true],
  [["\"abc\""], ["abc"], true],
  [["abc"], ["ABC"], false],
  [["1", "2", "2"], ["2", "1", "2"], true],
  [["1", "2"], ["1", "2", "2"], false],
  [["a", "b", "a"], ["b", "a"], true],
  [[], [], true],
  [[], ["x"], false],
  [["  x  "], ["x"], true],
  [["[1, 2]"], ["[1, 2]"], true],
  [["1e3"], ["1000"], true],
  [["inf"], ["0"], true],
  [["nan"], ["0"], true],
  [["1_000"], ["1000"], true],
  [["%"], ["0"], false],
  [["%"], [""], false],
  [[""], ["0"], true],
  [["x\u00a0"], ["x"], true],
  [["1.0", "a"], ["a", "1"], false],
  [["1", "2.005"], ["2", "1"], true],
  [["0.009"], ["0"], true],
  [["-0.01"], ["0"], true],
  [["March 19, 1998"], ["March 19 1998"], true],
  [["\ufeffx"], ["x"], false],
  [["x\u001c"], ["x"], true],
];

const FC_CLEAN_CASES: [string, string[] | null][] = [
  ["[('03b2eddd4fe471e0f29fc9e907fd5a5d',)]", ["03b2eddd4fe471e0f29fc9e907fd5a5d"]],
  ["03b2eddd4fe471e0f29fc9e907fd5a5d", ["03b2eddd4fe471e0f29fc9e907fd5a5d"]],
  ["None", ["0"]],
  ["[(None,)]", ["0"]],
  ["[('x',), ('y',)]", ["x", "y"]],
  ["[(Decimal('1.5'),)]", ["(Decimal(1.5)", ")"]],
  ["[(1, 2)]", []],
  ["[]", []],
  ["['a', \"b\"]", ["a", "b"]],
  ["[a, b]", ["a", "b"]],
  ["['it''s', x]", ["its", "x"]],
  ["  [ 'q' ]  ", ["q"]],
  ["'quoted'", ["quoted"]],
  ["[(3,)]", ["3"]],
  ["[(167.0,)]", ["167.0"]],
  ["[('1,234',)]", ["1234"]],
  ["[['a']]", ["['a']"]],
  ["[('a',), 5]", ["a", "5"]],
  ["[(datetime.date(2020, 1, 2),)]", ["(datetime.date(2020", "1", "2)", ")"]],
];

const V02_TEXT_CASES: [string, string[], boolean][] = [
  [" [\"167\"]", ["167.0"], true],
  [" [167]", ["167.0"], true],
  [" 167", ["167.0"], true],
  [" \"abc\"", ["abc"], false],
  [" [\"abc\"]", ["abc"], true],
  [" abc", ["abc"], false],
  [" [\"a\", \"b\"]", ["b", "a"], true],
  [" [\"a\", \"b\", \"a\"]", ["b", "a"], true],
  [" [\"a\"]", ["a", "a"], true],
  [" [[\"a\"]]", ["a"], false],
  [" [[\"a\"], \"b\"]", ["a", "b"], false],
  [" [1, 2]", ["1", "2"], false],
  [" []", [], true],
  [" (\"x\", \"y\")", ["x", "y"], true],
  [" \"x\", \"y\"", ["x", "y"], true],
  [" {\"x\", \"y\"}", ["x", "y"], true],
  [" {\"x\": 1}", ["x"], true],
  [" [None]", ["None"], false],
  [" [True]", ["1"], true],
  [" [nan]", ["nan"], false],
  [" [\"nan\"]", ["nan"], false],
  [" [\"1_000\"]", ["1000"], true],
  [" [1e400]", ["inf"], true],
  [" [\"Montr\u00e9al\"]", ["Montreal"], false],
  [" ['it\\'s']", ["it's"], true],
  [" [r\"a\\b\"]", ["a\\b"], true],
  [" [\"a\" \"b\"]", ["ab"], true],
  [" [b\"1.5\"]", ["1.5"], true],
  [" [-5]", ["-5"], true],
  [" [0x10]", ["16"], true],
  [" [01]", ["1"], false],
  [" 01", ["1"], true],
  [" [1_0]", ["10"], true],
  [" [\"  5 \"]", ["5"], true],
  [" [1,]", ["1"], true],
  [" [1 2]", ["1"], false],
  [" [\"x\"] # c", ["x"], true],
  [" \"\"\"x\"\"\"", ["x"], true],
  ["[\"x\"]", ["x"], true],
  [" [\"\\u00e9\"]", ["\u00e9"], true],
  [" [...]", ["Ellipsis"], false],
  [" [(1,2)]", ["(1, 2)"], false],
  [" [{\"a\"}]", ["a"], false],
  [" {}", [], true],
  [" ()", [], true],
  [" [+3.0]", ["3"], true],
];

const V02_LIST_CASES: [string[], string[], boolean][] = [
  [["167"], ["167.0"], true],
  [["1,000"], ["1000"], false],
  [["50%"], ["50"], false],
  [["50 %"], ["50"], false],
  [["None"], ["0"], false],
  [["null"], ["none"], false],
  [["3.004"], ["3.0"], false],
  [["3.02"], ["3.0"], false],
  [["Smith, John"], ["Smith John"], false],
  [["Smith, John"], ["Smith,John"], false],
  [["'abc'"], ["abc"], false],
  [["\"abc\""], ["abc"], false],
  [["abc"], ["ABC"], false],
  [["1", "2", "2"], ["2", "1", "2"], true],
  [["1", "2"], ["1", "2", "2"], true],
  [["a", "b", "a"], ["b", "a"], true],
  [[], [], true],
  [[], ["x"], false],
  [["  x  "], ["x"], false],
  [["[1, 2]"], ["[1, 2]"], true],
  [["1e3"], ["1000"], true],
  [["inf"], ["0"], false],
  [["nan"], ["0"], false],
  [["1_000"], ["1000"], true],
  [["%"], ["0"], false],
  [["%"], [""], false],
  [[""], ["0"], false],
  [["x\u00a0"], ["x"], false],
  [["1.0", "a"], ["a", "1"], false],
  [["1", "2.005"], ["2", "1"], false],
  [["0.009"], ["0"], false],
  [["-0.01"], ["0"], false],
  [["March 19, 1998"], ["March 19 1998"], false],
  [["\ufeffx"], ["x"], false],
  [["x\u001c"], ["x"], false],
];

describe('gradeQueryAnswer (fc)', () => {
  it.each(FC_CASES)('%j vs %j → %s', (answers, label, expected) => {
    expect(gradeQueryAnswer(answers, label, 'fc').correct).toBe(expected);
  });

  it('gives a short reason', () => {
    expect(gradeQueryAnswer(['167'], ['167.0'], 'fc').reason).toMatch(/within 0.01/);
    expect(gradeQueryAnswer(['a'], ['b'], 'fc').reason).toMatch(/string mismatch/);
  });
});

describe('cleanFcAnswer (strings, as FC sees hashes and eval-able text)', () => {
  it.each(FC_CLEAN_CASES)('%j → %j', (input, expected) => {
    expect(cleanFcAnswer(input)).toEqual(expected);
  });

  it('normalises single values', () => {
    expect(normalizeFcValue(' 12 %')).toBe('12');
    expect(normalizeFcValue('1,234,567')).toBe('1234567');
    expect(normalizeFcValue('[1,2]')).toBe('[1,2]');
    expect(normalizeFcValue('NULL')).toBe('0');
  });
});

describe('gradeV02AnswerText (text protocol: list(eval(text)))', () => {
  it.each(V02_TEXT_CASES)('%j vs %j → %s', (text, label, expected) => {
    expect(gradeV02AnswerText(text, label).correct).toBe(expected);
  });

  it('falls back to the raw text when eval fails or the value is not iterable', () => {
    expect(parseV02Answer(' 167')).toEqual([{ kind: 'str', value: ' 167' }]);
    expect(parseV02Answer(' abc')).toEqual([{ kind: 'str', value: ' abc' }]);
    expect(parseV02Answer(' "ab"')).toEqual([
      { kind: 'str', value: 'a' },
      { kind: 'str', value: 'b' },
    ]);
  });
});

describe('gradeQueryAnswer (v0.2): the committed list is the evaluated answer list', () => {
  it.each(V02_LIST_CASES)('%j vs %j → %s', (answers, label, expected) => {
    expect(gradeQueryAnswer(answers, label, 'v0.2').correct).toBe(expected);
  });
});

describe('gradeMutation', () => {
  const stored = "[('03b2eddd4fe471e0f29fc9e907fd5a5d',)]";
  it('compares the hash with the stored repr under both rules', () => {
    expect(gradeMutation('03b2eddd4fe471e0f29fc9e907fd5a5d', stored, 'fc').correct).toBe(true);
    expect(gradeMutation('03b2eddd4fe471e0f29fc9e907fd5a5d', stored, 'v0.2').correct).toBe(true);
    expect(gradeMutation('03b2eddd4fe471e0f29fc9e907fd5a5e', stored, 'fc').correct).toBe(false);
    expect(gradeMutation(null, stored, 'fc').correct).toBe(false);
  });

  it('treats an empty table (NULL hash) like Python None', () => {
    expect(gradeMutation(null, '[(None,)]', 'fc').correct).toBe(true);
    expect(gradeMutation(null, '[(None,)]', 'v0.2').correct).toBe(true);
  });
});

describe('python literal evaluation', () => {
  it('handles the literal forms answers use', () => {
    expect(evalPythonLiteral("['a', 'b']")).toEqual({ kind: 'list', items: [{ kind: 'str', value: 'a' }, { kind: 'str', value: 'b' }] });
    expect(evalPythonLiteral('(1,)')).toEqual({ kind: 'tuple', items: [{ kind: 'int', value: 1n }] });
    expect(evalPythonLiteral('-1.5')).toEqual({ kind: 'float', value: -1.5 });
    expect(evalPythonLiteral("'\\x41\\101\\u00e9'")).toEqual({ kind: 'str', value: 'AAé' });
    expect(evalPythonLiteral('Decimal("1.5")')).toBeNull();
    expect(evalPythonLiteral('1 +')).toBeNull();
    expect(evalPythonLiteral("'unterminated")).toBeNull();
  });
});

describe('gold labels grade correct against themselves', () => {
  const dataDir = resolveDataDir();
  for (const split of ['dev', 'standard', 'standard.v0.2'] as const) {
    it(`every ${split} query label, under both rules`, () => {
      const queries = loadDbBenchSplit(dataDir, split).filter((t) => t.kind === 'query');
      expect(queries.length).toBeGreaterThan(0);
      for (const task of queries) {
        for (const rule of ['fc', 'v0.2'] as const) {
          const verdict = gradeQueryAnswer(task.label, task.label, rule);
          expect(verdict.correct, `${split} #${task.index} ${rule}: ${verdict.reason}`).toBe(true);
        }
      }
    });
  }
});
