import { porterStem } from './porter-stemmer.js';

/**
 * The analysis chain of the original search index (Anserini's `DefaultEnglishAnalyzer`, used by
 * pyserini 0.17 both to build WebShop's index and to parse queries): Lucene's `StandardTokenizer`
 * (UAX#29 word boundaries) → `EnglishPossessiveFilter` → `LowerCaseFilter` → `StopFilter` with
 * Lucene's 33 English stop words → `PorterStemFilter`.
 *
 * The tokenizer here implements the UAX#29 rules that matter for product text (letters, digits,
 * mid-word punctuation such as `l'eau`, `d.o.n`, `6.76`, `1,000`, `size:large`, underscores,
 * combining marks), emits each Han or Hiragana character and each emoji as its own token, and splits
 * tokens longer than 255 UTF-16 units as Lucene does. It does not reproduce Lucene's special handling
 * of Southeast Asian scripts (whole runs become one token here).
 */
export function analyzeText(text: string): string[] {
  return analyze(text, porterStem);
}

/** {@link analyzeText} with a memo of stems, for analysing a whole catalogue and its queries. */
export function createTextAnalyzer(): (text: string) => string[] {
  const stems = new Map<string, string>();
  const stem = (term: string): string => {
    let out = stems.get(term);
    if (out === undefined) {
      out = porterStem(term);
      if (stems.size < 200_000) stems.set(term, out);
    }
    return out;
  };
  return (text) => analyze(text, stem);
}

function analyze(text: string, stem: (term: string) => string): string[] {
  const out: string[] = [];
  for (const raw of standardTokens(text)) {
    const term = lowerCaseJava(stripPossessive(raw));
    if (!ENGLISH_STOP_WORDS.has(term)) out.push(stem(term));
  }
  return out;
}

/** Lucene's `EnglishAnalyzer.ENGLISH_STOP_WORDS_SET`. */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not',
  'of', 'on', 'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was',
  'will', 'with',
]);

const MAX_TOKEN_LENGTH = 255;

const enum C {
  Letter,
  Numeric,
  Katakana,
  ExtendNumLet,
  MidLetter,
  MidNum,
  MidNumLet,
  Extend,
  Single,
  Emoji,
  Other,
}

const MID_LETTER = new Set([0x3a, 0xb7, 0x387, 0x5f4, 0x2027, 0xfe13, 0xfe55, 0xff1a]);
const MID_NUM = new Set([0x2c, 0x3b, 0x37e, 0x589, 0x60c, 0x60d, 0x66c, 0x7f8, 0x2044, 0xfe10, 0xfe14, 0xfe50, 0xfe54, 0xff0c, 0xff1b]);
// U+0027 (Single_Quote) behaves as MidNumLet for the rules used here.
const MID_NUM_LET = new Set([0x27, 0x2e, 0x2018, 0x2019, 0x2024, 0xfe52, 0xff07, 0xff0e]);

const RE_EXTEND = /[\p{M}\p{Grapheme_Extend}\p{Cf}\u200d]/u;
const RE_SINGLE = /[\p{Script=Han}\p{Script=Hiragana}]/u;
const RE_KATAKANA = /\p{Script=Katakana}/u;
const RE_LETTER = /[\p{L}\p{Nl}]/u;
const RE_NUMERIC = /\p{Nd}/u;
const RE_EXTEND_NUM_LET = /\p{Pc}/u;
const RE_EMOJI = /\p{Extended_Pictographic}/u;
// Pictographs that Lucene 8's tables (emoji data of Unicode 11) count as emoji and current Unicode does not.
const LUCENE_PICTOGRAPHIC: readonly (readonly [number, number])[] = [
  [0x2600, 0x2605], [0x2607, 0x2612], [0x2614, 0x2685], [0x2690, 0x2705], [0x2708, 0x2712], [0x2714, 0x2714],
  [0x2716, 0x2716], [0x271d, 0x271d], [0x2721, 0x2721], [0x2728, 0x2728], [0x2733, 0x2734], [0x2744, 0x2744],
  [0x2747, 0x2747], [0x274c, 0x274c], [0x274e, 0x274e], [0x2753, 0x2755], [0x2757, 0x2757], [0x2763, 0x2767],
  [0x2795, 0x2797], [0x27a1, 0x27a1], [0x27b0, 0x27b0], [0x27bf, 0x27bf],
];

function isPictographic(cp: number, ch: string): boolean {
  return RE_EMOJI.test(ch) || LUCENE_PICTOGRAPHIC.some(([lo, hi]) => cp >= lo && cp <= hi);
}

function classify(cp: number): C {
  if (cp < 0x80) {
    if ((cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a)) return C.Letter;
    if (cp >= 0x30 && cp <= 0x39) return C.Numeric;
    if (cp === 0x5f) return C.ExtendNumLet;
  }
  if (MID_LETTER.has(cp)) return C.MidLetter;
  if (MID_NUM.has(cp)) return C.MidNum;
  if (MID_NUM_LET.has(cp)) return C.MidNumLet;
  if (cp < 0x80) return C.Other;
  const ch = String.fromCodePoint(cp);
  if (RE_EXTEND.test(ch)) return C.Extend;
  if (RE_SINGLE.test(ch)) return C.Single;
  if (RE_KATAKANA.test(ch)) return C.Katakana;
  if (RE_LETTER.test(ch)) return C.Letter;
  if (RE_NUMERIC.test(ch)) return C.Numeric;
  if (RE_EXTEND_NUM_LET.test(ch)) return C.ExtendNumLet;
  if (isPictographic(cp, ch)) return C.Emoji;
  return C.Other;
}

function isWordStart(c: C): boolean {
  return c === C.Letter || c === C.Numeric || c === C.Katakana || c === C.ExtendNumLet;
}

function joins(prev: C, next: C): boolean {
  if (next === C.ExtendNumLet) return prev === C.Letter || prev === C.Numeric || prev === C.Katakana || prev === C.ExtendNumLet;
  if (prev === C.ExtendNumLet) return next === C.Letter || next === C.Numeric || next === C.Katakana;
  if (prev === C.Katakana || next === C.Katakana) return prev === next;
  return (prev === C.Letter || prev === C.Numeric) && (next === C.Letter || next === C.Numeric);
}

/** `StandardTokenizer` terms of a text (before any filter). */
export function standardTokens(text: string): string[] {
  // Code point classes and their UTF-16 start offsets.
  const classes: C[] = [];
  const offsets: number[] = [];
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i) ?? 0;
    offsets.push(i);
    classes.push(classify(cp));
    i += cp > 0xffff ? 2 : 1;
  }
  offsets.push(text.length);
  const n = classes.length;
  const tokens: string[] = [];
  const skipExtend = (from: number): number => {
    let p = from;
    while (p < n && classes[p] === C.Extend) p++;
    return p;
  };
  const slice = (from: number, to: number): string => text.slice(offsets[from], offsets[to]);
  let i = 0;
  while (i < n) {
    const cls = classes[i]!;
    if (cls === C.Single || cls === C.Emoji) {
      let end = skipExtend(i + 1);
      while (cls === C.Emoji && end < n && text[offsets[end - 1]!] === '\u200d' && classes[end] === C.Emoji) end = skipExtend(end + 1);
      tokens.push(slice(i, end));
      i = end;
      continue;
    }
    if (!isWordStart(cls)) {
      i++;
      continue;
    }
    let prev: C = cls;
    let hasWordChar = cls !== C.ExtendNumLet;
    let end = skipExtend(i + 1);
    while (end < n) {
      const next = classes[end]!;
      if (joins(prev, next)) {
        prev = next;
        if (next !== C.ExtendNumLet) hasWordChar = true;
        end = skipExtend(end + 1);
        continue;
      }
      // WB6/7 (letter mid letter) and WB11/12 (digit mid digit).
      const after = skipExtend(end + 1);
      const afterClass = after < n ? classes[after] : undefined;
      const midLetterOk = prev === C.Letter && afterClass === C.Letter && (next === C.MidLetter || next === C.MidNumLet);
      const midNumOk = prev === C.Numeric && afterClass === C.Numeric && (next === C.MidNum || next === C.MidNumLet);
      if (!midLetterOk && !midNumOk) break;
      end = skipExtend(after + 1);
    }
    if (hasWordChar) tokens.push(...splitLong(slice(i, end)));
    i = end;
  }
  return tokens;
}

function splitLong(token: string): string[] {
  if (token.length <= MAX_TOKEN_LENGTH) return [token];
  const parts: string[] = [];
  for (let p = 0; p < token.length; p += MAX_TOKEN_LENGTH) parts.push(token.slice(p, p + MAX_TOKEN_LENGTH));
  return parts;
}

/** `EnglishPossessiveFilter`: drops a trailing `'s`, `’s` or `＇s` (either case of s). */
function stripPossessive(term: string): string {
  if (term.length < 2) return term;
  const apostrophe = term[term.length - 2];
  const s = term[term.length - 1];
  if ((apostrophe === "'" || apostrophe === '\u2019' || apostrophe === '\uff07') && (s === 's' || s === 'S')) {
    return term.slice(0, -2);
  }
  return term;
}

/** Java's `Character.toLowerCase` per code point (one code point in, one out; JS maps U+0130 to two). */
function lowerCaseJava(term: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(term)) return term.toLowerCase();
  let out = '';
  for (const ch of term) {
    const lower = ch.toLowerCase();
    out += lower.length === ch.length ? lower : String.fromCodePoint(lower.codePointAt(0) ?? 0);
  }
  return out;
}
