import { describe, expect, it } from 'vitest';

import { namesNumberedInstance } from '../hooks/text-rules.js';
import { PY_BOUNDARY, PY_DIGIT, PY_DOT, PY_SPACE, pyIgnoreCase } from '../python/python-regex.js';
import { cleanKeyword, cleanText, cleanToken, FORBIDDEN_TEXT_PATTERNS, findForbiddenPattern, namesNumberedInstanceAction } from './clean-text.js';

// Expected verdicts were produced with the original regexes under CPython 3.11 `re`.
describe('forbidden leakage patterns', () => {
  const cases: Array<[string, string | undefined]> = [
    ['fix task 3 failures', 'task_index'],
    ['Task#12 broke', 'task_index'],
    ['sample # 42', 'task_index'],
    ['task\u00a0#\u20035', 'task_index'],
    ['task 123456', undefined],
    ['subtask 3', undefined],
    ['task 3rd', undefined],
    ['task_3', undefined],
    ['taſk 3', 'task_index'], // long s matches s under Python IGNORECASE
    ['TAS\u212a 3', 'task_index'], // Kelvin sign matches k
    ['İndex 4', 'task_index'],
    ['ındex 4', 'task_index'],
    ['index \u0663', 'task_index'], // Arabic-Indic digit is \d in Python
    ['webshop-12', 'webshop_index'],
    ['WebShop__  7', 'webshop_index'],
    ['alfworld_3', 'alfworld_index'],
    ['alfworld3x', undefined],
    ['B0ABCDEFGH', 'asin'],
    ['b0abcdefgh', 'asin'],
    ['xB0ABCDEFGH', undefined],
    ['B0ABCDEFGH\u00e9', undefined], // é is a word character, so no \b
    ['B0ABCDEFG', undefined],
    ['Use the b0-style ids', undefined],
  ];
  it.each(cases)('%j → %s', (text, expected) => {
    expect(findForbiddenPattern(text)?.id).toBe(expected);
  });
});

describe('ALFWorld numbered-instance rule', () => {
  const cases: Array<[string, boolean]> = [
    ['go to sinkbasin 1', true],
    ['take egg 2', true],
    ['Go To  Page 2', true],
    ['use 2 pack', true],
    ['uſe 2', true],
    ['cool\u00a0it 4', true],
    ['take egg \u0663', true],
    ['open drawer', false],
    ['put it in slot 3rd', false],
    ['picked up 2', false],
    ['untake 2', false],
  ];
  it.each(cases)('%j → %s', (text, expected) => {
    expect(namesNumberedInstance(text)).toBe(expected);
  });
});

describe('cleanText', () => {
  it('collapses whitespace and enforces the field rules in order', () => {
    expect(cleanText('  Inspect\n\tthe  page ', 'skill.text', 'p')).toEqual({ ok: true, value: 'Inspect the page' });
    expect(cleanText(5n, 'skill.text', 'actions[0].text')).toMatchObject({
      ok: false,
      rejection: { rule: 'text_not_string', field: 'actions[0].text', message: 'skill.text must be a string' },
    });
    expect(cleanText(' \n ', 'effect.message', 'p')).toMatchObject({ rejection: { rule: 'text_empty', message: 'effect.message cannot be empty' } });
    expect(cleanText(' \n ', 'description', 'p', false)).toEqual({ ok: true, value: '' });
    expect(cleanText('fix task 3', 'description', 'description', false)).toMatchObject({
      rejection: { rule: 'forbidden_leakage', message: 'description appears to contain task-specific leakage' },
    });
  });

  it('rejects (does not truncate) text over 900 code points after collapsing', () => {
    expect(cleanText('😀'.repeat(900), 'skill.text', 'p').ok).toBe(true);
    expect(cleanText(`${'a '.repeat(450)}     `, 'skill.text', 'p').ok).toBe(true);
    expect(cleanText('😀'.repeat(901), 'skill.text', 'p')).toMatchObject({
      rejection: { rule: 'text_too_long', message: 'skill.text exceeds 900 chars' },
    });
  });
});

describe('tokens', () => {
  it('cleans task types and keywords', () => {
    expect(cleanToken(' Apparel ', 'task_type', 'p')).toEqual({ ok: true, value: 'apparel' });
    expect(cleanToken('*', 'task_type', 'p')).toEqual({ ok: true, value: '*' });
    expect(cleanToken('two words', 'task_type', 'p')).toMatchObject({ rejection: { rule: 'invalid_token', message: "invalid task_type: 'two words'" } });
    expect(cleanToken(3n, 'task_type', 'p')).toMatchObject({ rejection: { message: 'task_type must be a string' } });
    expect(cleanKeyword(' Buy\u00a0Now  fast ', 'p')).toEqual({ ok: true, value: 'buy_now_fast' });
    expect(cleanKeyword('é', 'p')).toMatchObject({ rejection: { message: "invalid keyword: 'é'" } });
  });
});

describe('text rules on adversarial input', () => {
  // The original rule as one regex, kept as the oracle (quadratic: every verb rescans its line).
  const ONE_REGEX = new RegExp(
    `${PY_BOUNDARY}(?:${['go to', 'take', 'pick up', 'put', 'open', 'close', 'toggle', 'clean', 'heat', 'cool', 'slice', 'examine', 'use'].map(pyIgnoreCase).join('|')})${PY_BOUNDARY}${PY_DOT}*${PY_BOUNDARY}${PY_DIGIT}+${PY_BOUNDARY}`,
    'u',
  );
  const OLD_TASK_INDEX = new RegExp(
    `${PY_BOUNDARY}(?:${pyIgnoreCase('task')}|${pyIgnoreCase('index')}|${pyIgnoreCase('sample')})${PY_SPACE}*#?${PY_SPACE}*${PY_DIGIT}{1,5}${PY_BOUNDARY}`,
    'u',
  );
  const PIECES = ['take', 'Go to', 'use', 'x', '2', '\u0663', '²', '_', ' ', '\n', '#', 'task', 'a1', '-', '.'];

  it('namesNumberedInstance and the task-index pattern agree with the single regexes', () => {
    let seed = 99;
    for (let round = 0; round < 6000; round++) {
      let text = '';
      for (let i = 0; i < round % 11; i++) {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        text += PIECES[seed % PIECES.length];
      }
      expect(namesNumberedInstance(text), text).toBe(ONE_REGEX.test(text));
      expect(FORBIDDEN_TEXT_PATTERNS.find((p) => p.id === 'task_index')!.regex.test(text), text).toBe(OLD_TASK_INDEX.test(text));
    }
  });

  // At 2-3 MB the single regexes run for hours (quadratic); these rules must answer at once.
  it('are linear on multi-megabyte verbs, spaces and digits', () => {
    expect(namesNumberedInstance('take '.repeat(500_000))).toBe(false);
    expect(namesNumberedInstance(`${'take x\n'.repeat(300_000)}take 2`)).toBe(true);
    expect(namesNumberedInstance(`take ${'1a '.repeat(700_000)}`)).toBe(false);
    expect(namesNumberedInstanceAction(`go to${' '.repeat(3_000_000)}x`)).toBe(false);
    expect(findForbiddenPattern(`task${' '.repeat(3_000_000)}x`)).toBeUndefined();
    expect(findForbiddenPattern(`${'task '.repeat(500_000)}#`)).toBeUndefined();
    expect(cleanText(`take ${' x'.repeat(1_000_000)}`, 'skill.text', 'p')).toMatchObject({ ok: false });
  });
});
