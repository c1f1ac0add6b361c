import { describe, expect, it } from 'vitest';

import { closedTagBlocks, fencedJsonBlocks, hasClosedTagBlock, tagPair } from './tag-blocks.js';

// Fixed cases of the block scans (protocol.md §2.3) whose results the regexes
// `<tag>\s*(.*?)\s*</tag>` (S, I) and ```` ```(?:json)?\s*(\{.*?\})\s*``` ```` (S) give under Python `re`.

describe('fencedJsonBlocks', () => {
  it.each<[string, string[]]>([
    ['```{"a": 1}```', ['{"a": 1}']],
    ['```json\n{"a": 1}\n```', ['{"a": 1}']],
    // The shortest `{…}` that only whitespace separates from a fence: an inner `}` is not the end.
    ['```{"a": {"b": 1} x}```', ['{"a": {"b": 1} x}']],
    ['```{"a": {"b": 1}}  \n```', ['{"a": {"b": 1}}']],
    // A `}` followed by other text before the fence does not close the block.
    ['```{"a": 1} x```', []],
    ['```{"a": 1}', []],
    ['```{} x```', []],
    ['```{}```', ['{}']],
    ['```json x {"a": 1}```', []],
    ['```json\n{"a": 1}\n``` text ```{"b": 2}```', ['{"a": 1}', '{"b": 2}']],
    ['``` {} ```', ['{}']],
  ])('%j → %j', (text, expected) => {
    expect(fencedJsonBlocks(text)).toEqual(expected);
  });
});

describe('closed tag blocks', () => {
  const PATCH = tagPair('patch');
  it.each<[string, string[]]>([
    ['<patch> a </patch>', ['a']],
    ['<patch>\n\n</patch>', ['']],
    ['<patch></patch><patch> b\n</PATCH>', ['', 'b']],
    ['<patch> a <patch> b </patch> c </patch>', ['a <patch> b']],
    ['</patch><patch> a', []],
  ])('%j → %j', (text, expected) => {
    expect(closedTagBlocks(text, PATCH)).toEqual(expected);
  });

  it('hasClosedTagBlock needs a closing tag after an opening one', () => {
    const THINK = tagPair('think');
    expect(hasClosedTagBlock('<think>x</think>', THINK)).toBe(true);
    expect(hasClosedTagBlock('</think><think>x', THINK)).toBe(false);
    expect(hasClosedTagBlock('<think></think>', THINK)).toBe(true);
    expect(hasClosedTagBlock('<think>', THINK)).toBe(false);
  });
});
