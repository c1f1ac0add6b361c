import { describe, expect, it } from 'vitest';

import { gradeQueryAnswer } from './grade.js';

// Repeated values under the tolerant FC rule. AgentBench's `DBResultProcessor.compare_results`
// (src/server/tasks/dbbench/result_processor.py, commit 5bf4eb2 "publish agentbench_fc") decides:
// - several values, all numeric on both sides: equal lengths, then each answer value takes the FIRST gold
//   value it has not taken yet that is within 0.01 (`matched_gt`): a multiset match, greedy in answer order;
// - otherwise `set(answer) == set(gold)`: repeats do not count at all.
// Every verdict below was computed by running that function under CPython on these exact inputs.
const CASES: [string[], string[], boolean, string][] = [
  [['1', '1'], ['1', '2'], false, 'a repeated answer value cannot match two different gold values'],
  [['1', '2'], ['1', '1'], false, 'a repeated gold value needs two matching answers'],
  [['1', '1'], ['1', '1'], true, 'repeats on both sides match one for one'],
  [['1', '2', '2'], ['2', '1', '2'], true, 'order does not matter'],
  [['1', '1', '2'], ['1', '2', '2'], false, 'same values, different multiplicities'],
  [['1.004', '1'], ['1', '1'], true, 'each repeat within 0.01 of its own gold value'],
  [['1.005', '1.015'], ['1.01', '0.998'], false, 'greedy: 1.005 takes 1.01 first, so 1.015 finds nothing (an optimal matching would pass)'],
  [['1', '1'], ['1'], false, 'numeric lists of different lengths'],
  [['1'], ['1', '1'], false, 'numeric lists of different lengths, the other way'],
  [['a', 'a'], ['a', 'b'], false, 'text: the sets {a} and {a, b} differ'],
  [['a', 'b'], ['a', 'a'], false, 'text: the sets {a, b} and {a} differ'],
  [['a', 'a', 'b'], ['a', 'b', 'b'], true, 'text: multiplicities are ignored'],
  [['a'], ['a', 'a'], true, 'text: a repeated gold value is one set element'],
  [['a', 'a'], ['a'], true, 'text: a repeated answer value is one set element'],
  [['1', '1', 'x'], ['1', 'x', 'x'], true, 'mixed numbers and text compare as sets'],
];

describe('FC grading of repeated values (AgentBench compare_results)', () => {
  it.each(CASES)('%j vs gold %j → %s (%s)', (answer, gold, correct) => {
    expect(gradeQueryAnswer(answer, gold, 'fc').correct).toBe(correct);
  });

  it('says why a repeated value fails', () => {
    expect(gradeQueryAnswer(['1', '1'], ['1', '2'], 'fc').reason).toBe('no unmatched gold value within 0.01 of 1');
    expect(gradeQueryAnswer(['a', 'a'], ['a', 'b'], 'fc').reason).toBe('sets differ');
  });
});
