import { describe, expect, it } from 'vitest';

import { cleanKeyword, cleanText, cleanToken, FORBIDDEN_TEXT_PATTERNS, findForbiddenPattern } from './clean-text.js';

// protocol.md §3.5: each leakage pattern with matching inputs and near misses that differ in one place
// (alternative, separator, digit count, boundary, case), the 900-char limit at and one past the bound, and
// the token rules. The patterns are module-level constants: Stryker 9.6.1 cannot put their mutants into
// effect under a test filter (stryker-js #6144), so these cases are checked against planted mutants by hand.

describe('leakage patterns, match and near miss', () => {
  it.each<[string, string | undefined]>([
    // asin: \b[bB]0[0-9a-zA-Z]{8}\b
    ['B0ABCDEFGH', 'asin'],
    ['see b0abcdefgh now', 'asin'],
    ['B012345678', 'asin'],
    ['B0aB3dEf9Z', 'asin'],
    ['(B0ABCDEFGH)', 'asin'],
    ['B0ABCDEFGH-2', 'asin'],
    ['B0ABCDEFG', undefined],
    ['B0ABCDEFGHI', undefined],
    ['B0ABCDEFGH_', undefined],
    ['_B0ABCDEFGH', undefined],
    ['C0ABCDEFGH', undefined],
    ['B1ABCDEFGH', undefined],
    ['BOABCDEFGH', undefined],
    ['B0ABCD-FGH', undefined],
    // task_index: \b(?:task|index|sample)\s*#?\s*\d{1,5}\b, IGNORECASE
    ['task 1', 'task_index'],
    ['index 1', 'task_index'],
    ['sample 1', 'task_index'],
    ['TASK1', 'task_index'],
    ['Index#2', 'task_index'],
    ['sample #3', 'task_index'],
    ['task# 4', 'task_index'],
    ['task  #  5', 'task_index'],
    ['task 12345', 'task_index'],
    ['task 3.5', 'task_index'],
    ['(sample 7)', 'task_index'],
    ['task 123456', undefined],
    ['task ##3', undefined],
    ['task # # 3', undefined],
    ['task: 3', undefined],
    ['tasks 3', undefined],
    ['mytask 3', undefined],
    ['task 3a', undefined],
    ['task three', undefined],
    ['indexes 4', undefined],
    ['samples 4', undefined],
    // webshop_index: \bwebshop[-_\s]*\d{1,5}\b, IGNORECASE
    ['webshop1', 'webshop_index'],
    ['webshop-12', 'webshop_index'],
    ['webshop_3', 'webshop_index'],
    ['WebShop 4', 'webshop_index'],
    ['WEBSHOP-_ -5', 'webshop_index'],
    ['webshop 12345', 'webshop_index'],
    ['webshop 123456', undefined],
    ['webshop: 3', undefined],
    ['webshop #3', undefined],
    ['webshop.3', undefined],
    ['mywebshop 3', undefined],
    ['webshop 3x', undefined],
    ['webshops 3', undefined],
    // alfworld_index: \balfworld[-_\s]*\d{1,5}\b, IGNORECASE
    ['alfworld1', 'alfworld_index'],
    ['alfworld-12', 'alfworld_index'],
    ['ALFWorld_3', 'alfworld_index'],
    ['alfworld \t 4', 'alfworld_index'],
    ['alfworld 12345', 'alfworld_index'],
    ['alfworld 123456', undefined],
    ['alfworld: 3', undefined],
    ['alfworld #3', undefined],
    ['xalfworld 3', undefined],
    ['alfworld 3x', undefined],
    ['alf world 3', undefined],
    // nothing
    ['search for the cheapest red shirt', undefined],
    ['', undefined],
  ])('%j → %s', (text, id) => {
    expect(findForbiddenPattern(text)?.id).toBe(id);
  });

  it('lists the four patterns in order, with the original Python source of each', () => {
    expect(FORBIDDEN_TEXT_PATTERNS.map((p) => [p.id, p.python])).toEqual([
      ['asin', String.raw`\b[bB]0[0-9a-zA-Z]{8}\b`],
      ['task_index', String.raw`\b(?:task|index|sample)\s*#?\s*\d{1,5}\b (IGNORECASE)`],
      ['webshop_index', String.raw`\bwebshop[-_\s]*\d{1,5}\b (IGNORECASE)`],
      ['alfworld_index', String.raw`\balfworld[-_\s]*\d{1,5}\b (IGNORECASE)`],
    ]);
  });

  it('reports the first pattern that matches', () => {
    expect(findForbiddenPattern('task 3 on B0ABCDEFGH')?.id).toBe('asin');
    expect(findForbiddenPattern('webshop 3 and alfworld 4')?.id).toBe('webshop_index');
  });
});

describe('cleanText', () => {
  it.each<[unknown, boolean, unknown]>([
    ['a'.repeat(900), true, { ok: true, value: 'a'.repeat(900) }],
    [`\n ${'a'.repeat(900)} \t`, true, { ok: true, value: 'a'.repeat(900) }],
    ['a'.repeat(901), true, { ok: false, rejection: { rule: 'text_too_long', field: 'f.path', message: 'field exceeds 900 chars', stage: 'normalize', exception: 'PatchValidationError' } }],
    ['', true, { ok: false, rejection: { rule: 'text_empty', field: 'f.path', message: 'field cannot be empty', stage: 'normalize', exception: 'PatchValidationError' } }],
    ['', false, { ok: true, value: '' }],
    [null, false, { ok: false, rejection: { rule: 'text_not_string', field: 'f.path', message: 'field must be a string', stage: 'normalize', exception: 'PatchValidationError' } }],
    ['see webshop 3', false, { ok: false, rejection: { rule: 'forbidden_leakage', field: 'f.path', message: 'field appears to contain task-specific leakage', stage: 'normalize', exception: 'PatchValidationError' } }],
    ['a  b\n\nc', false, { ok: true, value: 'a b c' }],
  ])('%j (required %s) → %j', (value, required, expected) => {
    expect(cleanText(value as string, 'field', 'f.path', required)).toEqual(expected);
  });

  it('is required by default, and checks leakage after the collapse', () => {
    expect(cleanText(' ', 'field', 'p')).toMatchObject({ ok: false, rejection: { rule: 'text_empty' } });
    expect(cleanText('task\n\n 3', 'field', 'p')).toMatchObject({ ok: false, rejection: { rule: 'forbidden_leakage' } });
  });
});

describe('tokens', () => {
  it.each<[string, unknown]>([
    ['x'.repeat(64), { ok: true, value: 'x'.repeat(64) }],
    ['x'.repeat(65), { ok: false, rejection: { rule: 'invalid_token', field: 'p', message: `invalid task_type: '${'x'.repeat(65)}'`, stage: 'normalize', exception: 'PatchValidationError' } }],
    [' A.b:C-d_9 ', { ok: true, value: 'a.b:c-d_9' }],
    ['*', { ok: true, value: '*' }],
    [' * ', { ok: true, value: '*' }],
    ['**', { ok: false, rejection: { rule: 'invalid_token', field: 'p', message: "invalid task_type: '**'", stage: 'normalize', exception: 'PatchValidationError' } }],
    ['ab!', { ok: false, rejection: { rule: 'invalid_token', field: 'p', message: "invalid task_type: 'ab!'", stage: 'normalize', exception: 'PatchValidationError' } }],
    ['!ab', { ok: false, rejection: { rule: 'invalid_token', field: 'p', message: "invalid task_type: '!ab'", stage: 'normalize', exception: 'PatchValidationError' } }],
    ['', { ok: false, rejection: { rule: 'invalid_token', field: 'p', message: "invalid task_type: ''", stage: 'normalize', exception: 'PatchValidationError' } }],
  ])('task type %j → %j', (value, expected) => {
    expect(cleanToken(value, 'task_type', 'p')).toEqual(expected);
  });

  it.each<[unknown, unknown]>([
    [' Buy  Now \t fast ', { ok: true, value: 'buy_now_fast' }],
    ['a b c', { ok: true, value: 'a_b_c' }],
    ['*', { ok: true, value: '*' }],
    ['x'.repeat(64), { ok: true, value: 'x'.repeat(64) }],
    ['x'.repeat(65), { ok: false, rejection: { rule: 'invalid_token', field: 'p', message: `invalid keyword: '${'x'.repeat(65)}'`, stage: 'normalize', exception: 'PatchValidationError' } }],
    ['ab!', { ok: false, rejection: { rule: 'invalid_token', field: 'p', message: "invalid keyword: 'ab!'", stage: 'normalize', exception: 'PatchValidationError' } }],
    ['!ab', { ok: false, rejection: { rule: 'invalid_token', field: 'p', message: "invalid keyword: '!ab'", stage: 'normalize', exception: 'PatchValidationError' } }],
    [3.5, { ok: false, rejection: { rule: 'invalid_token', field: 'p', message: 'keyword must be a string', stage: 'normalize', exception: 'PatchValidationError' } }],
  ])('keyword %j → %j', (value, expected) => {
    expect(cleanKeyword(value as string, 'p')).toEqual(expected);
  });

  it('a non-string task type is rejected with the invalid_token rule', () => {
    expect(cleanToken(null, 'task_type', 'p')).toEqual({ ok: false, rejection: { rule: 'invalid_token', field: 'p', message: 'task_type must be a string', stage: 'normalize', exception: 'PatchValidationError' } });
  });
});
