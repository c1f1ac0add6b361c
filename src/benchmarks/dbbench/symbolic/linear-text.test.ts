import { describe, expect, it } from 'vitest';
import { resolveDataDir } from '../../../config/data-dir.js';
import { buildDbBenchUserMessage } from '../../../environments/dbbench/prompts.js';
import { dbbenchTasks, seededTexts } from '../../../testing/text-oracle.js';
import { tableInfo } from './observe.js';
import { looksLikeDataChange, quotedLiterals } from './signatures.js';

// The regexes these scans replaced, kept as the oracle on inputs short enough for them.
const oldQuoted = (sql: string): string[] => [...sql.matchAll(/'((?:[^'\\]|\\.|'')*)'/g)].map((m) => (m[1] ?? '').replace(/''/g, "'"));
const OLD_TABLE_INFO = /The name of this table is (.+?), and the headers of this table are (.*?)\.?\s*$/m;
const oldTableInfo = (text: string): { name: string; headers: string } | undefined => {
  const m = OLD_TABLE_INFO.exec(text);
  return m ? { name: m[1]!, headers: m[2]! } : undefined;
};
const OLD_QUESTION_FORM = /\?\s*["']?\s*$|^\s*(what|which|who|whom|whose|how|when|where|why|name|list|give|tell|count|find|show|i want|provide|return)\b|\bhow (many|much)\b/i;
const OLD_CHANGE_VERB = /\b(insert|inserted|inserting|update|updated|updating|delete|deleted|deleting|remove|removed|alter|modify|modified)\b|^\s*(add|change|set|record|replace)\b/i;
const oldLooksLikeDataChange = (question: string): boolean => {
  const q = question.trim();
  if (q === '') return false;
  return (OLD_CHANGE_VERB.test(q) && !/\?\s*$/.test(q)) || !OLD_QUESTION_FORM.test(q);
};

const tasks = dbbenchTasks(resolveDataDir());
const MB = 1 << 20;

describe('quotedLiterals', () => {
  it('equals the regex on every gold statement and on random quote, backslash and line-break mixes', () => {
    const sqls = tasks.map((t) => (t.sql as { query?: string } | undefined)?.query ?? '').filter((q) => q !== '');
    expect(sqls.length).toBeGreaterThan(50);
    const fuzz = seededTexts(11, ["'", "''", '\\', "\\'", 'a', ' ', '\n', '\r', 'x y']);
    for (const sql of [...sqls, ...fuzz]) expect(quotedLiterals(sql), JSON.stringify(sql)).toEqual(oldQuoted(sql));
  });

  it('reads an unclosed literal full of escaped quotes (2 MB) in one pass', () => {
    const hostile = "'" + "\\'".repeat(MB);
    expect(quotedLiterals(hostile)).toEqual([]);
    expect(quotedLiterals(`${hostile}\\\n'ok'`)).toEqual(['ok']);
    expect(quotedLiterals("'" + "''".repeat(MB / 2) + '\\')).toEqual(["'".repeat(MB / 2 - 1)]);
  });
});

describe('tableInfo', () => {
  it('equals the regex on every shipped task prompt and on random mixes of the phrases', () => {
    const prompts = tasks.map((t) => buildDbBenchUserMessage({ description: String(t.description ?? ''), addDescription: String(t.add_description ?? '') }));
    const fuzz = seededTexts(12, ['The name of this table is ', ', and the headers of this table are ', 'a', ',', '.', ' ', '\t', '\n', '\r', 'x. '], 4000, 8);
    for (const text of [...prompts, ...fuzz]) expect(tableInfo(text), JSON.stringify(text)).toEqual(oldTableInfo(text));
  });

  it('handles a 2 MB whitespace run and a line of name phrases without headers', () => {
    const spaced = `The name of this table is t, and the headers of this table are a, b${' '.repeat(2 * MB)}x`;
    expect(tableInfo(spaced)?.headers).toBe(`a, b${' '.repeat(2 * MB)}x`);
    const names = 'The name of this table is '.repeat(80_000);
    expect(tableInfo(`${names}\n, and the headers of this table are h`)).toBeUndefined();
    expect(tableInfo(`${names}x, and the headers of this table are h.  `)).toEqual({ name: `${'The name of this table is '.repeat(79_999)}x`, headers: 'h' });
  });
});

describe('looksLikeDataChange', () => {
  it('equals the regex on every shipped question and on random endings', () => {
    const questions = tasks.map((t) => String(t.description ?? ''));
    const fuzz = seededTexts(13, ['?', ' ', '"', "'", 'what ', 'insert ', 'how many', 'x', '\n']);
    for (const q of [...questions, ...fuzz]) expect(looksLikeDataChange(q), JSON.stringify(q)).toBe(oldLooksLikeDataChange(q));
  });

  it('judges a question mark followed by 2 MB of whitespace and a word', () => {
    expect(looksLikeDataChange(`Insert the row?${' '.repeat(2 * MB)}"${' '.repeat(MB)}x`)).toBe(true);
    expect(looksLikeDataChange(`What is it?${' \t'.repeat(MB)}"${' '.repeat(MB)}`)).toBe(false);
  });
});
