import { describe, expect, it } from 'vitest';

import {
  extractJsonObject,
  extractPatchJson,
  extractPrefilledThinkPatchJsonObject,
  extractThinkPatchJsonObject,
  type ResponseProtocol,
} from './extract-patch-json.js';
import type { PyDict } from '../python/python-json.js';
import { pyRepr } from '../python/python-text.js';
import type { Step } from './rejection.js';

const PATCH = '{"benchmark": "webshop", "description": "d", "actions": [{"type": "add_code_hook"}]}';

function show(result: Step<PyDict>): string {
  return result.ok ? pyRepr(result.value) : `${result.rejection.rule}: ${result.rejection.message}`;
}

describe('full_think_patch', () => {
  it('needs a complete think block and a complete patch block, and parses the last patch block', () => {
    const text = `<think>\nplan\n</think>\n<patch>{"benchmark": "alfworld", "actions": []}</patch>\n<PATCH>\n${PATCH}\n</Patch>`;
    expect(show(extractThinkPatchJsonObject(text))).toContain("'benchmark': 'webshop'");
    expect(show(extractThinkPatchJsonObject(`<patch>${PATCH}</patch>`))).toBe(
      'missing_think_block: missing complete <think>...</think> block',
    );
    expect(show(extractThinkPatchJsonObject(`<think>x</think><patch>${PATCH}`))).toBe(
      'missing_patch_block: missing complete <patch>...</patch> block',
    );
    expect(show(extractThinkPatchJsonObject('<think>x</think><patch> \n\u3000 </patch>'))).toBe('empty_patch_block: <patch> block is empty');
    expect(show(extractThinkPatchJsonObject('<think>x</think><patch>not json</patch>'))).toBe(
      'no_json_object: no JSON object found in model output',
    );
  });

  it('reads only the text after the last assistant tag', () => {
    const rendered = `<|im_start|>user\n<think>a</think><patch>${PATCH}</patch><|im_end|>\n<|im_start|>assistant\n<patch>{}</patch>`;
    expect(show(extractThinkPatchJsonObject(rendered))).toBe('missing_think_block: missing complete <think>...</think> block');
  });

  it('matches tags with Python IGNORECASE (dotless i, Kelvin sign)', () => {
    expect(extractThinkPatchJsonObject(`<TH\u0131N\u212a>x</think><patch>${PATCH}</patch>`).ok).toBe(true);
  });
});

describe('prefill_think_patch', () => {
  it('prepends <think> and requires </think> plus a closed patch block', () => {
    expect(extractPrefilledThinkPatchJsonObject(`plan\n</think>\n<patch>\n${PATCH}\n</patch>`).ok).toBe(true);
    expect(show(extractPrefilledThinkPatchJsonObject(`plan\n<patch>${PATCH}</patch>`))).toBe(
      'missing_think_block: missing complete <think>...</think> block',
    );
  });

  it('rejects a completion that opens another think block, but not <thinking>', () => {
    expect(show(extractPrefilledThinkPatchJsonObject(`  <Think>\nplan</think><patch>${PATCH}</patch>`))).toBe(
      'prefill_starts_with_think: prefilled-think response must not start with another <think> tag',
    );
    expect(show(extractPrefilledThinkPatchJsonObject(`<|im_start|>assistant\n <think>plan</think><patch>${PATCH}</patch>`))).toMatch(
      /^prefill_starts_with_think/,
    );
    expect(extractPrefilledThinkPatchJsonObject(`<thinking>plan</think><patch>${PATCH}</patch>`).ok).toBe(true);
  });
});

describe('json_patch (lenient)', () => {
  it('prefers the last patch-like object, else the last object of any kind', () => {
    const text = `first ${PATCH} then {"benchmark": "dbbench", "actions": "no"} and {"x": 1}`;
    expect(show(extractJsonObject(text))).toContain("'benchmark': 'webshop'");
    expect(show(extractJsonObject('a {"x": 1} b {"y": {"z": 2}}'))).toBe("{'z': 2}");
  });

  it('searches patch blocks, then the segment, then fences, then the full text', () => {
    expect(show(extractJsonObject(`{"outside": 1} <patch>{"inside": 2}</patch>`))).toBe("{'inside': 2}");
    expect(show(extractJsonObject(`{"outside": 1} <patch>no json here`))).toBe("{'outside': 1}");
    expect(show(extractJsonObject('<patch>{"open": 3}'))).toBe("{'open': 3}");
    expect(show(extractJsonObject('```json\n{"fenced": 1}\n```'))).toBe("{'fenced': 1}");
    expect(show(extractJsonObject(`${PATCH}<|im_start|>assistant\nnothing`))).toContain("'webshop'");
    expect(show(extractJsonObject('no braces'))).toBe('no_json_object: no JSON object found in model output');
  });

  it('accepts Python JSON (NaN) and fails the whole scan on Python ValueError', () => {
    expect(show(extractJsonObject('{"a": NaN}'))).toBe("{'a': nan}");
    expect(show(extractJsonObject(`{"ok": 1} {"big": ${'9'.repeat(4301)}}`))).toMatch(/^json_int_too_long: Exceeds the limit/);
  });

  it('turns YAML in a malformed tag into a non-patch dict, not a parse error (DeepSeek seed20260720 ALFWorld)', () => {
    const response = '<think>use the stage machine {"stage": "find"}</think>\n<>\nbenchmark: alfworld\nactions:\n  - type: add_code_hook\n</>';
    expect(show(extractJsonObject(response))).toBe("{'stage': 'find'}");
  });
});

describe('extractPatchJson', () => {
  it('full_think_patch_relaxed falls back to the last patch block or the whole response', () => {
    const protocol: ResponseProtocol = 'full_think_patch_relaxed';
    expect(extractPatchJson(`<patch>${PATCH}</patch>`, protocol).ok).toBe(true);
    expect(extractPatchJson(`just ${PATCH}`, protocol).ok).toBe(true);
    expect(extractPatchJson(`just ${PATCH}`, 'full_think_patch').ok).toBe(false);
    expect(extractPatchJson(`<think>x</think> ${PATCH}`, 'prefill_think_patch_relaxed').ok).toBe(true);
  });
});

describe('adversarial engineer answers', () => {
  // The regex extraction took minutes on a 1 MB pad and never answered at 4 MB; every protocol must.
  it('gets a verdict in linear time for multi-megabyte whitespace, braces and unclosed tags', () => {
    const pad = ' \n\t\u3000'.repeat(500_000);
    const padded = `<think>${pad}plan${pad}</think>${pad}<patch>${pad}${PATCH}${pad}</patch>${pad}`;
    for (const protocol of ['full_think_patch', 'prefill_think_patch_relaxed', 'json_patch', 'full_think_patch_relaxed'] as const) {
      expect(show(extractPatchJson(padded, protocol)), protocol).toContain("'benchmark': 'webshop'");
    }
    expect(show(extractPatchJson(`x${pad}<patch>${pad}`, 'full_think_patch'))).toContain('missing_think_block');
    expect(show(extractPatchJson(`<think>x</think>${'<patch>{'.repeat(400_000)}`, 'full_think_patch'))).toContain('missing_patch_block');
    expect(show(extractPatchJson(`${'```json {'.repeat(300_000)}${PATCH}`, 'json_patch'))).toContain("'benchmark': 'webshop'");
  });
});
