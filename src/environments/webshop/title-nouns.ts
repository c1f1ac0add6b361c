/**
 * A deterministic stand-in for the spaCy step of WebShop's type reward, which keeps the lower-cased
 * tokens of a product name that spaCy (`en_core_web_lg` in AgentBench) tags NOUN or PROPN. No model is
 * available offline, so this approximates both halves:
 *
 * Tokens (spaCy-like): split on whitespace; peel punctuation off both ends, one character per token;
 * split a trailing possessive `'s`; split at hyphens, slashes, colons and commas between letters or
 * digits and a letter (`Unisex-Adult` → `Unisex`, `-`, `Adult`). Abbreviations such as `D.o.n.` stay whole.
 *
 * Tags: product names are overwhelmingly nouns and proper nouns (brands, models, product types), so a
 * token counts as a noun unless it
 * - has no letter, or starts with a digit (`2`, `4K`, `10.5`: NUM);
 * - is a closed-class word (determiner, pronoun, preposition, conjunction, auxiliary, particle, number word);
 * - looks like a participle or adverb (`-ed` but not `-eed`, `-ly`, minus common nouns with those endings);
 * - has an adjective suffix (`-ous`, `-ful`, `-less`, `-able`, `-ible`, `-ive`, minus listed nouns such as
 *   `table`, `cable`, `drive`, `olive`) or is one of a few very common title adjectives (`new`, `large`, `free`…).
 *
 * Known gaps: spaCy tags some capitalised adjectives as PROPN and some nouns used as modifiers as ADJ
 * or VERB; colour words and `-ing` forms are always nouns here. Title scores can therefore differ from
 * the original by a token or two. A tagger package (`wink-nlp` with `wink-eng-lite-web-model`, or
 * `compromise`) would narrow the gap but not close it.
 */
export function titleNouns(name: string): string[] {
  return spacyLikeTokens(name)
    .map((t) => t.toLowerCase())
    .filter(isNounLike);
}

const LEADING = /^[^\p{L}\p{N}]/u;
const TRAILING = /[^\p{L}\p{N}]$/u;
const ABBREVIATION = /^(?:\p{L}\.){2,}$/u;
const INFIX = /(?<=[\p{L}\p{N}])[-/:,](?=\p{L})/u;

/** A simplified version of spaCy's English tokenizer (prefix, suffix and infix rules). */
export function spacyLikeTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const chunk of text.split(/\s+/)) {
    if (chunk === '') continue;
    let word = chunk;
    const prefix: string[] = [];
    const suffix: string[] = [];
    while (word.length > 0 && LEADING.test(word)) {
      const ch = Array.from(word)[0]!;
      prefix.push(ch);
      word = word.slice(ch.length);
    }
    while (word.length > 0) {
      if (/['\u2019][sS]$/.test(word) && word.length > 2) {
        suffix.unshift(word.slice(-2));
        word = word.slice(0, -2);
        continue;
      }
      if (ABBREVIATION.test(word) || !TRAILING.test(word)) break;
      const ch = Array.from(word).at(-1)!;
      suffix.unshift(ch);
      word = word.slice(0, -ch.length);
    }
    tokens.push(...prefix, ...splitInfixes(word), ...suffix);
  }
  return tokens;
}

function splitInfixes(word: string): string[] {
  if (word === '') return [];
  const parts: string[] = [];
  let rest = word;
  for (let m = INFIX.exec(rest); m; m = INFIX.exec(rest)) {
    if (m.index > 0) parts.push(rest.slice(0, m.index));
    parts.push(m[0]);
    rest = rest.slice(m.index + m[0].length);
  }
  if (rest !== '') parts.push(rest);
  return parts;
}

function isNounLike(token: string): boolean {
  if (!/\p{L}/u.test(token) || /^\p{N}/u.test(token)) return false;
  if (CLOSED_CLASS.has(token) || COMMON_ADJECTIVES.has(token)) return false;
  if (NOUN_EXCEPTIONS.has(token)) return true;
  if (token.length > 4 && ((token.endsWith('ed') && !token.endsWith('eed')) || token.endsWith('ly'))) return false;
  return !ADJECTIVE_SUFFIXES.some((s) => token.length > s.length + 2 && token.endsWith(s));
}

const ADJECTIVE_SUFFIXES = ['ous', 'ful', 'less', 'able', 'ible', 'ive'];

const NOUN_EXCEPTIONS = new Set([
  // -ed / -ly nouns
  'sled', 'shed', 'embed',
  'supply', 'family', 'jelly', 'belly', 'assembly', 'butterfly', 'lily', 'holly', 'ally', 'rally', 'bully', 'dolly',
  'trolley', 'anomaly', 'firefly', 'dragonfly', 'monopoly', 'ply', 'fly', 'jolly',
  // adjective-suffix nouns
  'table', 'cable', 'vegetable', 'stable', 'bible', 'fable', 'gable', 'sable', 'turntable', 'timetable', 'syllable',
  'constable', 'collectible', 'collectable', 'drive', 'olive', 'hive', 'archive', 'adhesive', 'detective',
  'explosive', 'executive', 'relative', 'alternative', 'incentive', 'objective', 'perspective', 'initiative',
  'additive', 'preservative', 'sedative', 'laxative', 'locomotive', 'motive', 'native', 'captive', 'directive',
  'handful', 'spoonful', 'mouthful', 'cupful', 'armful',
]);

const COMMON_ADJECTIVES = new Set([
  'new', 'old', 'big', 'small', 'large', 'mini', 'long', 'short', 'high', 'low', 'soft', 'hard', 'heavy', 'extra',
  'best', 'great', 'good', 'perfect', 'cute', 'sexy', 'easy', 'free', 'real', 'pure', 'fresh', 'hot', 'cold', 'warm',
  'dry', 'wet', 'thin', 'thick', 'wide', 'narrow', 'deep', 'fine', 'nice', 'elegant', 'casual', 'classic', 'modern',
  'vintage', 'rustic', 'compact', 'lightweight', 'waterproof', 'non', 'anti', 'multi', 'premium', 'natural', 'organic',
  'professional', 'original', 'various', 'different', 'simple', 'smart', 'slim', 'loose', 'tight', 'fast', 'quick',
]);

const CLOSED_CLASS = new Set([
  // determiners and quantifiers
  'a', 'an', 'the', 'this', 'that', 'these', 'those', 'each', 'every', 'all', 'any', 'some', 'no', 'both', 'either',
  'neither', 'another', 'such', 'what', 'which', 'whose', 'much', 'many', 'more', 'most', 'less', 'least', 'few', 'several',
  // pronouns
  'i', 'you', 'he', 'she', 'it', 'we', 'they', 'me', 'him', 'her', 'us', 'them', 'my', 'your', 'his', 'its', 'our',
  'their', 'mine', 'yours', 'ours', 'theirs', 'myself', 'yourself', 'himself', 'herself', 'itself', 'ourselves',
  'themselves', 'who', 'whom',
  // prepositions
  'for', 'with', 'of', 'in', 'on', 'at', 'by', 'from', 'to', 'into', 'onto', 'over', 'under', 'about', 'above',
  'below', 'between', 'through', 'during', 'without', 'within', 'against', 'among', 'around', 'across', 'after',
  'before', 'behind', 'beside', 'besides', 'beyond', 'near', 'off', 'out', 'up', 'down', 'per', 'via', 'than',
  'upon', 'toward', 'towards', 'along', 'inside', 'outside', 'underneath', 'throughout', 'except', 'like', 'unlike',
  // conjunctions and particles
  'and', 'or', 'but', 'nor', 'so', 'yet', 'if', 'because', 'while', 'as', 'whether', 'not', "n't", "'s", "’s", 'too',
  'very', 'also', 'just', 'only', 'even', 'again', 'then', 'there', 'here', 'how', 'when', 'where', 'why',
  // auxiliaries and common verbs
  'is', 'are', 'was', 'were', 'be', 'been', 'being', 'am', 'do', 'does', 'did', 'have', 'has', 'had', 'can', 'could',
  'will', 'would', 'shall', 'should', 'may', 'might', 'must', 'get', 'make', 'use', 'fits', 'fit', 'includes', 'include',
  // number words
  'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'twenty',
  'hundred', 'thousand', 'dozen', 'x',
]);
