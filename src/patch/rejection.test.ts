import { describe, expect, it } from 'vitest';

import { classifyOriginalError, describeRejection, formatOriginalRepr, noPatchStatus } from './rejection.js';

describe('classifyOriginalError', () => {
  it('classifies the validation errors recorded in results.json', () => {
    expect(classifyOriginalError("PatchValidationError('hook uses forbidden syntax: Import')")).toBe('hook_compile');
    expect(classifyOriginalError("PatchValidationError('hook code may contain at most 5 helper functions')")).toBe('hook_compile');
    expect(classifyOriginalError("PatchValidationError('patch.actions must be a non-empty list')")).toBe('actions_empty');
  });

  it('classifies bare messages, other exceptions and runtime no-op reasons', () => {
    expect(classifyOriginalError('description appears to contain task-specific leakage')).toBe('forbidden_leakage');
    expect(classifyOriginalError('JSONDecodeError(\'Expecting value: line 1 column 1 (char 0)\')')).toBe('json_syntax');
    expect(classifyOriginalError('TypeError("unhashable type: \'list\'")')).toBe('unsupported_action_type');
    expect(classifyOriginalError(`PatchValidationError("action 1 type 'set_config' is not allowed in code-hook-only protocol")`)).toBe('code_hook_only');
    expect(classifyOriginalError("action 0 recovery trigger 'budget_check' is not executed by WebShop overlay recovery")).toBe('runtime_noop');
    expect(classifyOriginalError('code hook failed sandbox validation: boom')).toBe('hook_compiler_error');
    expect(classifyOriginalError('code hook exceeds 8000 chars')).toBe('code_too_long');
    expect(classifyOriginalError('hook code exceeds 8000 characters')).toBe('hook_compile');
    expect(classifyOriginalError('something else')).toBeUndefined();
  });
});

describe('printing', () => {
  const rejection = { rule: 'text_empty', stage: 'normalize', field: 'actions[0].text', message: "skill.text cannot be empty", exception: 'PatchValidationError' } as const;

  it('formats for people and as the original repr', () => {
    expect(describeRejection(rejection)).toBe('actions[0].text: text_empty: skill.text cannot be empty');
    expect(formatOriginalRepr(rejection)).toBe("PatchValidationError('skill.text cannot be empty')");
    expect(noPatchStatus(rejection)).toBe('invalid_patch_treated_as_no_patch');
    expect(noPatchStatus({ ...rejection, stage: 'runtime_noop' })).toBe('runtime_noop_patch_treated_as_no_patch');
  });
});
