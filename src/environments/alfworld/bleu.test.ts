import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { pySplit, pyStrip } from '../../python/python-text.js';
import { bleuScore, exactSum, nearestAdmissible, sentenceBleuMethod4 } from './bleu.js';

interface Golden {
  nltk: string;
  lists: string[][];
  cases: { list: number; action: string; scores: number[]; chosen: string }[];
}

const golden = JSON.parse(readFileSync(fileURLToPath(new URL('../../../test/fixtures/alfworld-bleu/golden.json', import.meta.url)), 'utf8')) as Golden;

describe('sentence BLEU with smoothing method 4 (NLTK 3.8 golden vectors)', () => {
  it('the fixture was made with NLTK 3.8 and covers hundreds of cases over real admissible lists', () => {
    expect(golden.nltk).toBe('3.8');
    expect(golden.cases.length).toBeGreaterThan(300);
    expect(golden.cases.some((c) => c.scores.some((s) => s > 0 && s < 0.01))).toBe(true);
    expect(golden.cases.some((c) => c.scores.every((s) => s === 0))).toBe(true);
  });

  it('gives the score NLTK gives for every (command, text) pair', () => {
    let compared = 0;
    let worst = 0;
    for (const c of golden.cases) {
      const cleaned = pyStrip(c.action).toLowerCase().split('\n')[0]!;
      golden.lists[c.list]!.forEach((command, i) => {
        const diff = Math.abs(bleuScore(command, cleaned) - c.scores[i]!);
        worst = Math.max(worst, diff);
        compared++;
      });
    }
    expect(compared).toBeGreaterThan(10_000);
    expect(worst).toBeLessThan(1e-12);
  });

  it('picks the command AgentBench picks', () => {
    const wrong = golden.cases.filter((c) => nearestAdmissible(c.action, golden.lists[c.list]!).action !== c.chosen);
    expect(wrong.map((c) => c.action)).toEqual([]);
  });

  it('scores the same with the commands\' n-grams counted once and reused', () => {
    // The first pass fills the per-command cache, the second reads it; both must equal the uncached token path.
    for (let pass = 0; pass < 2; pass++) {
      const mismatched = golden.cases.filter((c) => {
        const cleaned = pyStrip(c.action).toLowerCase().split('\n')[0]!;
        const list = golden.lists[c.list]!;
        const scores = nearestAdmissible(c.action, list).scores;
        return scores !== undefined && scores.some((s, i) => s !== sentenceBleuMethod4(pySplit(list[i]!), pySplit(cleaned)));
      });
      expect(mismatched.map((c) => c.action)).toEqual([]);
    }
  });

  it('handles the edge cases as NLTK 3.8 does', () => {
    // Hypothesis with no unigram match, or empty: 0.
    expect(sentenceBleuMethod4(['go', 'to', 'desk', '1'], ['fly'])).toBe(0);
    expect(sentenceBleuMethod4(['go', 'to', 'desk', '1'], [])).toBe(0);
    // One-token hypothesis: the zero higher-order precisions are not smoothed and are left out of the sum,
    // so the score is bp · p1^(1/4).
    expect(sentenceBleuMethod4(['go', 'to', 'desk', '1'], ['desk'])).toBeCloseTo(Math.exp(1 - 4) * 1 ** 0.25, 15);
    // Identical sentences: 1; longer hypotheses get no brevity penalty.
    expect(sentenceBleuMethod4(['look'], ['look'])).toBe(1);
    expect(sentenceBleuMethod4(['go', 'to', 'desk', '1'], ['go', 'to', 'desk', '1'])).toBe(1);
    // Two tokens, one matching bigram: trigram and 4-gram precisions (0/1) are smoothed.
    const k = 5;
    const p3 = 1 / ((2 * k) / Math.log(2));
    const p4 = 1 / ((4 * k) / Math.log(2));
    const expected = Math.exp(1 - 4 / 2) * Math.exp(0.25 * (Math.log(1) + Math.log(1) + Math.log(p3) + Math.log(p4)));
    expect(sentenceBleuMethod4(['go', 'to', 'desk', '1'], ['go', 'to'])).toBeCloseTo(expected, 15);
  });

  it('sums exactly, like math.fsum', () => {
    expect(exactSum([1e100, 1, -1e100])).toBe(1);
    expect(exactSum([0.1, 0.2, 0.3])).toBe(0.6);
    expect(exactSum([])).toBe(0);
  });

  it('splits and strips on Python whitespace', () => {
    expect(pySplit('  go\tto\u00a0desk\x1c1 ')).toEqual(['go', 'to', 'desk', '1']);
    expect(pySplit('a\ufeffb')).toEqual(['a\ufeffb']);
    expect(pyStrip('\x85 look \n')).toBe('look');
  });
});

describe('nearestAdmissible', () => {
  const admissible = ['go to countertop 1', 'go to fridge 1', 'put apple 1 in/on fridge 1', 'look'];
  it('keeps admissible text, maps loose text, and leaves unrelated text alone', () => {
    // Python keeps the space before the newline, so the text is not admissible as is and BLEU maps it.
    expect(nearestAdmissible('  LOOK \nmore', admissible)).toMatchObject({ action: 'look', score: 1 });
    expect(nearestAdmissible('LOOK', admissible)).toEqual({ action: 'look' });
    expect(nearestAdmissible('go to the countertop 1', admissible).action).toBe('go to countertop 1');
    expect(nearestAdmissible('put the apple in the fridge 1', admissible).action).toBe('put apple 1 in/on fridge 1');
    expect(nearestAdmissible('Fly Away', admissible)).toMatchObject({ action: 'fly away', score: 0 });
    expect(nearestAdmissible('anything', []).action).toBe('anything');
  });
  it('takes the first of equally scored commands', () => {
    expect(nearestAdmissible('go to', admissible).action).toBe('go to countertop 1');
  });
});
