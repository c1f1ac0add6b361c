import { describe, expect, it } from 'vitest';

import { cleanFcAnswer, gradeMutation, gradeQueryAnswer, gradeV02AnswerText, normalizeFcValue, type GradeVerdict } from './grade.js';
import { combineTableHashes, concatWs, parseAnswerMd5 } from './table-hash.js';

// Every branch of the DBBench graders with its full verdict. The reason is recorded in each episode's
// detail, so it is part of the record; the verdicts were checked against AgentBench's own functions
// (result_processor.py `compare_results` / `_clean_answer`, and the v0.2 `DBBench.metrics`) under CPython.

const FC: [string[], string[], GradeVerdict][] = [
  [['None'], ['0'], { correct: true, reason: 'both null-like / zero' }],
  [['0'], ['0.001'], { correct: true, reason: 'numbers within 0.01 (0 vs 0.001)' }],
  [['0'], ['abc'], { correct: false, reason: 'string mismatch ("0" vs "abc")' }],
  [['1.5'], ['1.52'], { correct: false, reason: 'numbers differ by more than 0.01 (1.5 vs 1.52)' }],
  [['abc'], ['abc'], { correct: true, reason: 'exact string match' }],
  [['abc'], ['1'], { correct: false, reason: 'string mismatch ("abc" vs "1")' }],
  [['1', '2'], ['1'], { correct: false, reason: 'numeric lists differ in length (2 vs 1)' }],
  [['2', '1'], ['1', '2'], { correct: true, reason: 'numeric multiset match within 0.01' }],
  [['a', 'b'], ['b', 'a'], { correct: true, reason: 'set match' }],
  [['1', 'a'], ['a', '2'], { correct: false, reason: 'sets differ' }],
  // Numeric on one side only: compared as sets.
  [['1', '2'], ['1', 'x'], { correct: false, reason: 'sets differ' }],
  [['1', 'x'], ['1', '2'], { correct: false, reason: 'sets differ' }],
];

const V02: [string[], string[], GradeVerdict][] = [
  [['167'], ['167.0'], { correct: true, reason: 'float(answer) == float(label) (167)' }],
  [['1'], ['2'], { correct: false, reason: 'float mismatch (1 vs 2)' }],
  [['abc'], ['abc'], { correct: true, reason: 'exact string match' }],
  [['abc'], ['ABC'], { correct: false, reason: 'string mismatch ("abc" vs "ABC")' }],
  [['abc'], ['1'], { correct: false, reason: 'string mismatch ("abc" vs "1")' }],
  [['1'], ['abc'], { correct: false, reason: 'string mismatch ("1" vs "abc")' }],
  [['a', 'b'], ['b', 'a'], { correct: true, reason: 'set match' }],
  [['a', 'c'], ['a', 'b'], { correct: false, reason: 'answer item "c" is not in the label set' }],
  [['a'], ['a', 'b'], { correct: false, reason: 'answer set misses label items' }],
];

describe('query grading verdicts', () => {
  it.each(FC)('fc: %j vs %j', (answer, label, verdict) => {
    expect(gradeQueryAnswer(answer, label, 'fc')).toEqual(verdict);
  });

  it.each(V02)('v0.2: %j vs %j', (answer, label, verdict) => {
    expect(gradeQueryAnswer(answer, label, 'v0.2')).toEqual(verdict);
  });

  it('v0.2 text: unhashable items, and ints that are not the label strings', () => {
    expect(gradeV02AnswerText(' [[1], 2]', ['1', '2'])).toEqual({ correct: false, reason: 'answer holds unhashable items' });
    expect(gradeV02AnswerText(' [1, 2]', ['1', '2'])).toEqual({ correct: false, reason: 'answer item "1" is not in the label set' });
  });
});

describe('mutation grading verdicts', () => {
  it('fc compares the cleaned hash lists', () => {
    expect(gradeMutation('abc', "[('abc',)]")).toEqual({ correct: true, reason: 'table hash matches' });
    expect(gradeMutation('abc', "[( 'abc' ,)]", 'fc')).toEqual({ correct: true, reason: 'table hash matches' });
    expect(gradeMutation(null, '[(None,)]', 'fc')).toEqual({ correct: true, reason: 'table hash matches' });
    expect(gradeMutation(null, "[('abc',)]", 'fc')).toEqual({ correct: false, reason: 'table hash ["0"] differs from ["abc"]' });
    expect(gradeMutation('a', "[('a',), ('b',)]", 'fc')).toEqual({ correct: false, reason: 'table hash ["a"] differs from ["a","b"]' });
    expect(gradeMutation("[('a',), ('c',)]", "[('a',), ('b',)]", 'fc')).toEqual({ correct: false, reason: 'table hash ["a","c"] differs from ["a","b"]' });
  });

  it('v0.2 needs the exact stored text', () => {
    expect(gradeMutation('abc', "[('abc',)]", 'v0.2')).toEqual({ correct: true, reason: 'table hash matches' });
    expect(gradeMutation(null, '[(None,)]', 'v0.2')).toEqual({ correct: true, reason: 'table hash matches' });
    expect(gradeMutation('abc', "[( 'abc' ,)]", 'v0.2')).toEqual({ correct: false, reason: "table hash [('abc',)] differs from [( 'abc' ,)]" });
  });
});

describe('FC answer cleaning (_clean_answer) edge cases', () => {
  it.each([
    ['[(abc,)]', ['abc']],
    ['[(a b,)]', ['a b']],
    ['[(x,), (y,)]', ['(x', ')', '(y', ')']],
    ["['a,b', c]", ['ab', 'c']],
    ["['a', (1,)]", ['a', '1']],
    ["['a', (1, 2)]", ['a', '(1 2)']],
    ['["it\'s", x]', ['its x']],
    ['undefined', ['0']],
    ['(abc,)', ['(abc)']],
    ['[abc', ['[abc']],
    ['abc]', ['abc]']],
    ['[a,,b]', ['a', 'b']],
    ['[a,]', ['a']],
    ['-Infinity', ['0']],
  ] as [string, string[]][])('%s → %j', (text, cleaned) => {
    expect(cleanFcAnswer(text)).toEqual(cleaned);
  });

  it('maps None to "0" and keeps commas of bracketed values', () => {
    expect(cleanFcAnswer(null)).toEqual(['0']);
    expect(['[1,000', '1,000]', '1,000'].map(normalizeFcValue)).toEqual(['[1,000', '1,000]', '1000']);
    expect(['undefined', 'infinity', '-inf', '-infinity', 'NaN'].map(normalizeFcValue)).toEqual(['0', '0', '0', '0', '0']);
  });
});

describe('table hash edges', () => {
  it('gives null only for a single empty table; several tables name an empty one None', () => {
    expect(combineTableHashes([null])).toBeNull();
    expect(combineTableHashes([null, 'abc'])).toBe('None_abc');
    expect(combineTableHashes(['abc'])).toBe('abc');
    expect(concatWs([null, 'a', 5, null])).toBe('a,5');
  });

  it('parses only the whole repr form', () => {
    expect(parseAnswerMd5("[('abc',)]")).toBe('abc');
    expect(parseAnswerMd5('[("abc",)]')).toBe('abc');
    expect(parseAnswerMd5("[('',)]")).toBe('');
    expect(parseAnswerMd5('[(None,)]')).toBeNull();
    expect(parseAnswerMd5("x[('abc',)]")).toBeUndefined();
    expect(parseAnswerMd5("[('abc',)]x")).toBeUndefined();
    expect(parseAnswerMd5("[(x'abc',)]")).toBeUndefined();
    expect(parseAnswerMd5('[("ab",)]')).toBe('ab');
    expect(parseAnswerMd5("  [('abc',)]  ")).toBe('abc');
    expect(parseAnswerMd5("[( 'abc' , )]")).toBe('abc');
    const hash = '03b2eddd4fe471e0f29fc9e907fd5a5d';
    expect(parseAnswerMd5(hash.toUpperCase())).toBe(hash);
    expect(parseAnswerMd5(`x${hash}`)).toBeUndefined();
    expect(parseAnswerMd5(`${hash}x`)).toBeUndefined();
  });
});
