import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../../config/data-dir.js';
import { loadDbBenchSplit } from '../../../environments/dbbench/load-tasks.js';
import { answersMayMatch, plausibleWrongAnswer, spoilAnswer, valuesMayMatch } from './answer-values.js';

const dataDir = resolveDataDir();
const queries = [...loadDbBenchSplit(dataDir, 'dev'), ...loadDbBenchSplit(dataDir, 'standard')].filter((t) => t.kind === 'query');

describe('answer values', () => {
  it('treats numbers within 0.01, none-words and thousands separators as possibly equal', () => {
    expect(valuesMayMatch('167', '167.0')).toBe(true);
    expect(valuesMayMatch('none', '')).toBe(true);
    expect(valuesMayMatch('1,000', '1000')).toBe(true);
    expect(valuesMayMatch('Giza', 'giza')).toBe(false);
    expect(answersMayMatch(['b', 'a'], ['a', 'b'])).toBe(true);
    expect(answersMayMatch(['a'], ['a', 'b'])).toBe(false);
  });

  it('spoils answers in case or format so that they are wrong', () => {
    expect(spoilAnswer(['Giza'])).toEqual(['giza']);
    expect(spoilAnswer(['heath'])).toEqual(['Heath']);
    expect(spoilAnswer(['21000.0'])).toEqual(['The answer is 21000.0']);
    expect(spoilAnswer(['1\u20130', '2\u20130'])).toEqual(['1-0', '2\u20130']);
    expect(spoilAnswer(['none'])).toEqual(['No matching rows']);
  });

  it('never produces a guess or a spoiled answer that a grader could accept, on any shipped query task', () => {
    for (const task of queries) {
      const spoiled = spoilAnswer(task.label);
      expect(spoiled, `task ${task.index}`).toBeDefined();
      expect(answersMayMatch(spoiled!, task.label)).toBe(false);
      for (let k = 0; k < 3; k++) {
        const guess = plausibleWrongAnswer(task.label, task.table.rows, (n) => (k * 7) % n);
        expect(answersMayMatch(guess, task.label), `task ${task.index}: ${guess.join('|')}`).toBe(false);
      }
    }
  });
});
