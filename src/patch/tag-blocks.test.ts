import { describe, expect, it } from 'vitest';

import { PY_SPACE, pyIgnoreCase } from '../python/python-regex.js';
import { closedTagBlocks, fencedJsonBlocks, hasClosedTagBlock, tagPair } from './tag-blocks.js';

// The regexes the scans replace (Python `re` semantics spelled for JS), kept here as the oracle.
const S = PY_SPACE;
const closedRegex = (name: string): RegExp => new RegExp(`<${pyIgnoreCase(name)}>${S}*([\\s\\S]*?)${S}*</${pyIgnoreCase(name)}>`, 'gu');
const FENCED_REGEX = new RegExp(`\`\`\`(?:json)?${S}*(\\{[\\s\\S]*?\\})${S}*\`\`\``, 'gu');

const PIECES = ['<patch>', '</patch>', '<PATCH>', '</Patch>', '<think>', '</THİNK>', '</thinK>', '```', '```json', 'json', '{', '}', '{"a": 1}', ' ', '\n', '\u3000', 'x', '`', '<', '>'];

function randomTexts(count: number): string[] {
  let seed = 12345;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    let text = '';
    const length = next(14);
    for (let j = 0; j < length; j++) text += PIECES[next(PIECES.length)];
    texts.push(text);
  }
  return texts;
}

describe('tag block scans', () => {
  it('give exactly the regex results on random mixtures of tags, fences, braces and whitespace', () => {
    const patch = tagPair('patch');
    const think = tagPair('think');
    for (const text of randomTexts(8000)) {
      expect(closedTagBlocks(text, patch), text).toEqual([...text.matchAll(closedRegex('patch'))].map((m) => m[1]));
      expect(hasClosedTagBlock(text, think), text).toBe(new RegExp(closedRegex('think').source, 'u').test(text));
      expect(fencedJsonBlocks(text), text).toEqual([...text.matchAll(FENCED_REGEX)].map((m) => m[1]));
    }
  });

  it('keep the inner whitespace and trim only around the content', () => {
    expect(closedTagBlocks('<patch> \n {"a":\n 1} \u3000</patch> x <patch></patch>', tagPair('patch'))).toEqual(['{"a":\n 1}', '']);
    expect(fencedJsonBlocks('```json\n{"a": {}}\n```  ```{x}``` ```{```')).toEqual(['{"a": {}}', '{x}']);
  });

  // The regexes took quadratic time on these; at 4 MB a quadratic scan runs for hours.
  it('is linear on multi-megabyte padding and unclosed openings', () => {
    const pad = ' \n\t'.repeat(1_400_000);
    const patch = tagPair('patch');
    expect(closedTagBlocks(`<patch>${pad}{"a": 1}${pad}x${pad}</patch>`, patch)).toEqual([`{"a": 1}${pad}x`]);
    expect(closedTagBlocks(`<patch>${pad}`, patch)).toEqual([]);
    expect(closedTagBlocks('<patch>x'.repeat(500_000), patch)).toEqual([]);
    expect(hasClosedTagBlock(`<think>${pad}x${pad}`, tagPair('think'))).toBe(false);
    expect(fencedJsonBlocks(`\`\`\`${pad}{${pad}}${pad}x\`\`\``)).toEqual([]);
    expect(fencedJsonBlocks('```{} '.repeat(700_000))).toHaveLength(350_000);
    expect(fencedJsonBlocks('```{ '.repeat(700_000))).toHaveLength(0);
    expect(fencedJsonBlocks(`\`\`\`{${'} x'.repeat(1_300_000)}}\`\`\``)).toHaveLength(1);
  });
});
