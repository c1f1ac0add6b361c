import { describe, expect, it } from 'vitest';
import { resolveDataDir } from '../../config/data-dir.js';
import { pyStrip } from '../../python/python-text.js';
import { seededTexts, webshopInstructions } from '../../testing/text-oracle.js';
import { extractInstruction } from './identity-manifest.js';
import { parsePriceMax, splitColorParts } from './requirement-parser.js';

// The rules these scans replaced, kept as the oracle on inputs short enough for them.
const oldExtract = (observation: string): string => {
  const primary = /Instruction:\s*\[SEP\]\s*([^\n]+?)\s*\[SEP\]/i.exec(observation);
  if (primary) return pyStrip(primary[1]!);
  const fallback = /Instruction:\s*\n([\s\S]+?)(?:\n\n|\[|$)/.exec(observation);
  if (fallback) return pyStrip(fallback[1]!);
  return Array.from(observation).slice(0, 300).join('');
};
const oldColorSplit = (color: string): string[] => color.split(/\s*(?:\/|&|\band\b|,)\s*/);
const oldPriceMax = (text: string): string | undefined => /(?:lower than|less than|under|below|<)\s*\$?\s*(\d+(?:,\d{3})*(?:\.\d+)?)/i.exec(text)?.[1];

const MB = 1 << 20;
const instructions = webshopInstructions(resolveDataDir());

describe('extractInstruction', () => {
  it('equals the regex rule on observations of the shipped goals and on random mixes', () => {
    const pages = instructions.map((i) => `WebShop [SEP] Instruction: [SEP] ${i} [SEP] Search`);
    const fuzz = seededTexts(31, ['Instruction:', 'instruction:', '[SEP]', '[sep]', ' ', '\n', '\t', '\ufeff', 'a', 'b c', '['], 8000, 10);
    for (const text of [...pages, ...fuzz]) expect(extractInstruction(text), JSON.stringify(text)).toBe(oldExtract(text));
  });

  it('reads 2 MB of whitespace between the separators, and many labels before a far separator', () => {
    expect(extractInstruction(`Instruction: [SEP] a${' '.repeat(2 * MB)}b [SEP]`)).toBe(`a${' '.repeat(2 * MB)}b`);
    expect(extractInstruction(`Instruction: [SEP] ${' '.repeat(2 * MB)}[SEP]`)).toBe('');
    const labels = 'Instruction: [SEP] a\n'.repeat(50_000);
    // Only the last label's line reaches the far separator: the whitespace before it spans the line break.
    expect(extractInstruction(`${labels}${' '.repeat(MB)}[SEP]`)).toBe('a');
  });
});

describe('splitColorParts', () => {
  it('equals the regex split on shipped instructions and random mixes', () => {
    const fuzz = seededTexts(32, ['/', '&', ',', 'and', 'band', ' ', '\t', 'navy', 'blue', '_'], 5000, 10);
    for (const text of [...instructions.slice(0, 500), 'black/white', 'red & blue', 'grey and green', ...fuzz]) {
      expect(splitColorParts(text), JSON.stringify(text)).toEqual(oldColorSplit(text));
    }
  });

  it('splits a colour with 2 MB of whitespace and no separator', () => {
    expect(splitColorParts(`navy${' '.repeat(2 * MB)}blue`)).toEqual([`navy${' '.repeat(2 * MB)}blue`]);
  });
});

describe('parsePriceMax', () => {
  it('reads the same budget as before on shipped instructions and random spacing', () => {
    const fuzz = seededTexts(33, ['under', '<', ' ', '$', '12', ',000', '.5', 'x'], 3000, 8);
    for (const text of [...instructions, ...fuzz]) {
      const before = oldPriceMax(text);
      expect(parsePriceMax(text), JSON.stringify(text)).toBe(before === undefined ? null : parsePriceMax(`under ${before}`));
    }
  });

  it('reads a budget after 2 MB of whitespace around the dollar sign', () => {
    expect(parsePriceMax(`under${' '.repeat(MB)}$${' '.repeat(MB)}30.00 dollars`)).toBe(30);
    expect(parsePriceMax(`under${' '.repeat(MB)}$${' '.repeat(MB)}dollars`)).toBeNull();
  });
});
