import { describe, expect, it } from 'vitest';

import { extractJsonObject, extractPatchJson, extractPrefilledThinkPatchJsonObject, extractThinkPatchJsonObject, type ResponseProtocol } from './extract-patch-json.js';
import { toJsValue, type PyDict } from '../python/python-json.js';
import type { Step } from './rejection.js';

// Extraction (protocol.md §2.3) as whole results: the chosen object, or the whole rejection (rule, field,
// message, stage, exception) — fenced, tagged and unclosed blocks, the assistant segment, the relaxed
// fallbacks, and Python's int-digit and recursion limits.

/** The chosen object as plain JSON, or the whole rejection. */
function show(result: Step<PyDict>): unknown {
  return result.ok ? toJsValue(result.value) : result.rejection;
}

const extractError = (rule: string, message: string, exception = 'PatchValidationError') => ({ rule, field: 'response', message, stage: 'extract', exception });

describe('json_patch failures', () => {
  it.each<[string, unknown]>([
    ['no braces here', extractError('no_json_object', 'no JSON object found in model output')],
    ['{not json} [1, 2] "x"', extractError('no_json_object', 'no JSON object found in model output')],
    ['', extractError('no_json_object', 'no JSON object found in model output')],
    [`x {"a": 1${'0'.repeat(4300)}} y`, extractError('json_int_too_long', 'Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() to increase the limit', 'ValueError')],
    [`{"ok": 1} then {"a": 1${'0'.repeat(4300)}}`, extractError('json_int_too_long', 'Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() to increase the limit', 'ValueError')],
    [`x ${'{"a": '.repeat(1200)}1${'}'.repeat(1200)} y`, extractError('json_too_deep', 'maximum recursion depth exceeded while decoding a JSON object from a unicode string', 'RecursionError')],
  ])('%j → %j', (text, expected) => {
    expect(show(extractJsonObject(text))).toEqual(expected);
  });

  it('takes an int of 4300 digits', () => {
    const result = extractJsonObject(`{"a": ${'9'.repeat(4300)}}`);
    expect(result.ok && result.value.get('a')).toBe(BigInt('9'.repeat(4300)));
  });
});

describe('json_patch choice and segments', () => {
  it.each<[string, unknown]>([
    // The last patch-like object (actions a list, benchmark a string), else the last object.
    ['{"benchmark": "webshop", "actions": []} {"benchmark": 3, "actions": []}', { benchmark: 'webshop', actions: [] }],
    ['{"benchmark": "webshop", "actions": []} {"benchmark": "alfworld", "actions": {}}', { benchmark: 'webshop', actions: [] }],
    ['{"benchmark": "webshop", "actions": []} {"a": 1}', { benchmark: 'webshop', actions: [] }],
    ['{"a": 1} {"b": 2}', { b: 2 }],
    // Every `{` is a candidate start, so a nested object comes after its parent and wins.
    ['{"a": {"b": 2}}', { b: 2 }],
    ['{"benchmark": "webshop", "actions": [{"type": "t"}]}', { benchmark: 'webshop', actions: [{ type: 't' }] }],
    // An unclosed <patch> is searched from the tag to the end, before the whole segment.
    ['{"benchmark": "alfworld", "actions": [1]} <patch> {"y": 1}', { y: 1 }],
    ['{"benchmark": "alfworld", "actions": [1]} <PATCH>{"y": 1}', { y: 1 }],
    ['{"benchmark": "alfworld", "actions": [1]} <patch> no object', { benchmark: 'alfworld', actions: [1] }],
    // Closed blocks come first, in order; then the segment; then fences; then the full text.
    ['{"benchmark": "alfworld", "actions": [1]} <patch>{"y": 1}</patch> <patch>{"z": 2}</patch>', { y: 1 }],
    ['<patch>none</patch> <patch>{"z": 2}</patch> {"benchmark": "alfworld", "actions": [1]}', { z: 2 }],
    ['<patch>none</patch> {"w": 3}', { w: 3 }],
    // Closed blocks without an object: the whole segment next (its last patch-like object), not the text after
    // the first opening tag.
    ['{"benchmark": "alfworld", "actions": [1]} <patch>none</patch> {"w": 3}', { benchmark: 'alfworld', actions: [1] }],
    // Only `{` starts a candidate: a leading huge int or deep list is never decoded.
    [`${'9'.repeat(4301)} {"a": 1}`, { a: 1 }],
    [`${'['.repeat(1200)} {"a": 1}`, { a: 1 }],
    ['{"x": 1} <|im_start|>assistant\n```json\n{"y": 2}\n```', { y: 2 }],
    ['{"x": 1} <|im_start|>assistant\nno object', { x: 1 }],
    ['{"a": 1} <|im_start|>assistant {"b": 2} <|im_start|>assistant {"c": 3}', { c: 3 }],
  ])('%j → %j', (text, expected) => {
    expect(show(extractJsonObject(text))).toEqual(expected);
  });
});

describe('full_think_patch and prefill_think_patch failures', () => {
  it.each<[string, unknown]>([
    ['<patch>{"a": 1}</patch>', extractError('missing_think_block', 'missing complete <think>...</think> block')],
    ['<think>t <patch>{"a": 1}</patch>', extractError('missing_think_block', 'missing complete <think>...</think> block')],
    ['<think>t</think> {"a": 1}', extractError('missing_patch_block', 'missing complete <patch>...</patch> block')],
    ['<think>t</think> <patch>{"a": 1}', extractError('missing_patch_block', 'missing complete <patch>...</patch> block')],
    ['<think>t</think> <patch> \n </patch>', extractError('empty_patch_block', '<patch> block is empty')],
    ['<think>t</think> <patch>no object</patch>', extractError('no_json_object', 'no JSON object found in model output')],
    ['<think>t</think> <patch>{"a": 1}</patch> <patch>{"b": 2}</patch>', { b: 2 }],
    ['<think>t</think> <patch>{"a": 1}</patch> <patch>{"b": 2}</patch> <patch>{"c": 3}</patch>', { c: 3 }],
  ])('full: %j → %j', (text, expected) => {
    expect(show(extractThinkPatchJsonObject(text))).toEqual(expected);
  });

  it.each<[string, unknown]>([
    ['<think>again</think> <patch>{"a": 1}</patch>', extractError('prefill_starts_with_think', 'prefilled-think response must not start with another <think> tag')],
    ['  \n<THINK>x</think><patch>{"a": 1}</patch>', extractError('prefill_starts_with_think', 'prefilled-think response must not start with another <think> tag')],
    ['<|im_start|>assistant\n <think>x</think><patch>{"a": 1}</patch>', extractError('prefill_starts_with_think', 'prefilled-think response must not start with another <think> tag')],
    ['<thinking>x</think><patch>{"a": 1}</patch>', { a: 1 }],
    ['reasoning</think>\n<patch>{"a": 1}</patch>', { a: 1 }],
    ['reasoning <patch>{"a": 1}</patch>', extractError('missing_think_block', 'missing complete <think>...</think> block')],
    ['reasoning</think> {"a": 1}', extractError('missing_patch_block', 'missing complete <patch>...</patch> block')],
  ])('prefill: %j → %j', (text, expected) => {
    expect(show(extractPrefilledThinkPatchJsonObject(text))).toEqual(expected);
  });
});

describe('extractPatchJson by protocol', () => {
  // Two closed patch blocks without a think block: the lenient rule takes the first block with an
  // object, the relaxed rule (after the strict one fails) the last block.
  const twoBlocks = '<patch>{"a": 1}</patch> <patch>{"b": 2}</patch> <patch>{"c": 3}</patch>';
  const strictOk = '<think>t</think> <patch>{"a": 1}</patch> <patch>{"b": 2}</patch>';
  it.each<[ResponseProtocol, string, unknown]>([
    ['json_patch', twoBlocks, { a: 1 }],
    ['prefill_think_patch_relaxed', twoBlocks, { a: 1 }],
    ['full_think_patch_relaxed', twoBlocks, { c: 3 }],
    ['full_think_patch', twoBlocks, extractError('missing_think_block', 'missing complete <think>...</think> block')],
    ['prefill_think_patch', twoBlocks, extractError('missing_think_block', 'missing complete <think>...</think> block')],
    ['full_think_patch_relaxed', strictOk, { b: 2 }],
    ['full_think_patch', strictOk, { b: 2 }],
    ['json_patch', strictOk, { a: 1 }],
    ['prefill_think_patch', strictOk, extractError('prefill_starts_with_think', 'prefilled-think response must not start with another <think> tag')],
    ['full_think_patch_relaxed', 'no blocks {"w": 1} {"v": 2}', { v: 2 }],
    ['full_think_patch_relaxed', 'no blocks at all', extractError('no_json_object', 'no JSON object found in model output')],
    ['full_think_patch_relaxed', `<think>t</think> <patch>{"a": 1${'0'.repeat(4300)}}</patch>`, extractError('json_int_too_long', 'Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() to increase the limit', 'ValueError')],
  ])('%s %j → %j', (protocol, text, expected) => {
    expect(show(extractPatchJson(text, protocol))).toEqual(expected);
  });
});
