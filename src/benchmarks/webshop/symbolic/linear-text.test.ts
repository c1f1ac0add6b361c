import { describe, expect, it } from 'vitest';
import { resolveDataDir } from '../../../config/data-dir.js';
import { seededTexts, webshopInstructions } from '../../../testing/text-oracle.js';
import { withoutOptionClause, withoutPriceClause } from '../simulation/webshop-sim-policy.js';
import { instructionOf, pageOf, priceLimit, quotedItems } from './webshop-signatures.js';

// The regexes these scans replaced, kept as the oracle on inputs short enough for them.
const oldPageOf = (content: string): { page: string; clickables: string[] } | undefined => {
  const m = /(?:^|\n)(?:The initial observation:|Observation:)\n([\s\S]*?)\n\nAvailable Actions:\n([\s\S]*)$/.exec(content);
  if (!m) return undefined;
  const list = /'clickables': \[([\s\S]*)\]/.exec(m[2] ?? '')?.[1] ?? '';
  const clickables = [...list.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)].map((x) => (x[1] ?? x[2] ?? '').toLowerCase());
  return { page: m[1] ?? '', clickables };
};
const oldQuotedItems = (text: string): string[] => [...text.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)].map((x) => x[1] ?? x[2] ?? '');
const oldInstructionOf = (page: string): string => /Instruction: \[SEP\] (.*?) \[SEP\]/.exec(page)?.[1] ?? '';
const oldPriceLimit = (text: string): number | undefined => {
  const m = /(?:lower than|less than|under|below|<)\s*\$?\s*(\d+(?:\.\d+)?)/i.exec(text);
  return m ? Number(m[1]) : undefined;
};
const oldWithoutPrice = (text: string): string => text.replace(/,?\s*and price lower than.*$/, '');
const oldWithoutOption = (text: string): string => text.replace(/\s+with\s+[a-z ]+:\s.*$/, '');

const MB = 1 << 20;
const instructions = webshopInstructions(resolveDataDir());
const messages = instructions.slice(0, 300).map(
  (i) => `Observation:\nWebShop [SEP] Instruction: [SEP] ${i} [SEP] Search\n\nAvailable Actions:\n{'has_search_bar': True, 'clickables': ['search', "it's", 'a\\'b']}`,
);

describe('pageOf and its parts', () => {
  it('equal the regexes on observation messages of the shipped goals and on random mixes', () => {
    const fuzz = seededTexts(41, ['Observation:\n', 'The initial observation:\n', '\n', '\n\nAvailable Actions:\n', "'clickables': [", ']', "'", '"', '\\', 'a'], 6000, 10);
    for (const text of [...messages, ...fuzz]) expect(pageOf(text), JSON.stringify(text)).toEqual(oldPageOf(text));
    for (const text of seededTexts(42, ["'", '"', '\\', "\\'", '\\"', 'a', '\n', '\r'], 6000, 12)) expect(quotedItems(text), JSON.stringify(text)).toEqual(oldQuotedItems(text));
    for (const text of [...messages, ...seededTexts(43, ['Instruction: [SEP] ', ' [SEP]', 'a', '\n', ' '], 3000, 8)]) expect(instructionOf(text), JSON.stringify(text)).toBe(oldInstructionOf(text));
  });

  it('read 2 MB of unclosed quotes, headers without actions and labels without a separator', () => {
    expect(quotedItems(`'${"\\'".repeat(MB)}"ok"`)).toEqual(['ok']);
    expect(pageOf('\nObservation:\n'.repeat(MB / 8))).toBeUndefined();
    const list = `Observation:\np\n\nAvailable Actions:\n'clickables': [${"'clickables': [".repeat(MB / 16)}`;
    expect(pageOf(list)).toEqual({ page: 'p', clickables: [] });
    expect(instructionOf(`${'Instruction: [SEP] a\n'.repeat(MB / 16)} [SEP]`)).toBe('');
  });
});

describe('priceLimit and the simulated target price clause', () => {
  it('equal the regexes on the shipped goals and random spacing', () => {
    const fuzz = seededTexts(44, ['under', ' ', '$', '12', '.5', ',', ', and price lower than', 'and price lower than', '\n', 'x'], 4000, 8);
    for (const text of [...instructions, ...fuzz]) {
      expect(priceLimit(text), JSON.stringify(text)).toBe(oldPriceLimit(text));
      expect(withoutPriceClause(text), JSON.stringify(text)).toBe(oldWithoutPrice(text));
    }
  });

  it('read 2 MB of whitespace before the clause and around the dollar sign', () => {
    expect(priceLimit(`under${' '.repeat(MB)}$${' '.repeat(MB)}25`)).toBe(25);
    expect(withoutPriceClause(`shoes${' '.repeat(2 * MB)}x`)).toBe(`shoes${' '.repeat(2 * MB)}x`);
    expect(withoutPriceClause(`shoes,${' '.repeat(2 * MB)}and price lower than 30.00 dollars`)).toBe('shoes');
  });
});

describe('the simulated target option clause', () => {
  it('equals the regex on the shipped goals and random mixes', () => {
    const fuzz = seededTexts(45, [' with ', 'with', ' ', '  ', '\t', '\n', 'color', 'a b', ':', ': ', ':\n', 'X', 'x'], 8000, 10);
    for (const text of [...instructions.map((i) => i.toLowerCase()), 'shoes with color: black', ...fuzz]) {
      expect(withoutOptionClause(text), JSON.stringify(text)).toBe(oldWithoutOption(text));
    }
  });

  it('reads 2 MB of whitespace after with and many with-words without a colon', () => {
    expect(withoutOptionClause(`shoes with${' '.repeat(2 * MB)}color: black`)).toBe('shoes');
    const many = ` with a${' with b'.repeat(MB / 8)}`;
    expect(withoutOptionClause(many)).toBe(many);
  });
});
