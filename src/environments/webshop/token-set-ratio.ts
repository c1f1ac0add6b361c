import { compareCodePoints } from './goals.js';
import { sequenceMatcherRatio } from './sequence-matcher.js';

/**
 * `thefuzz.fuzz.token_set_ratio` of thefuzz 0.19.0 (the version WebShop pins), with its defaults
 * `force_ascii=True, full_process=True`:
 * 1. process both strings: drop characters U+0080–U+00FF, replace every non-word character
 *    (not a letter, digit or `_`) by a space, lower-case, strip;
 * 2. either side empty → 0;
 * 3. split into token sets; build `sorted(intersection)`, and that joined with each side's sorted
 *    remainder;
 * 4. return the best of the three pairwise `ratio`s, each `int(round(100 · SequenceMatcher.ratio()))`
 *    with Python's round-half-to-even, and 100 for equal strings.
 * `ratio: 'levenshtein'` uses the python-Levenshtein formula instead, (|a| + |b| − indel distance) /
 * (|a| + |b|), for installs that have that package.
 */
export function tokenSetRatio(s1: string, s2: string, options: { ratio?: 'difflib' | 'levenshtein' } = {}): number {
  const p1 = fullProcess(s1);
  const p2 = fullProcess(s2);
  if (p1.length === 0 || p2.length === 0) return 0;
  const tokens1 = new Set(p1.split(/\s+/).filter(Boolean));
  const tokens2 = new Set(p2.split(/\s+/).filter(Boolean));
  const intersection = [...tokens1].filter((t) => tokens2.has(t)).sort(compareCodePoints);
  const diff1to2 = [...tokens1].filter((t) => !tokens2.has(t)).sort(compareCodePoints);
  const diff2to1 = [...tokens2].filter((t) => !tokens1.has(t)).sort(compareCodePoints);
  const sortedSect = intersection.join(' ');
  const combined1to2 = `${sortedSect} ${diff1to2.join(' ')}`.trim();
  const combined2to1 = `${sortedSect} ${diff2to1.join(' ')}`.trim();
  const ratio = options.ratio === 'levenshtein' ? levenshteinRatio : difflibRatio;
  return Math.max(ratio(sortedSect.trim(), combined1to2), ratio(sortedSect.trim(), combined2to1), ratio(combined1to2, combined2to1));
}

/** thefuzz `utils.full_process(s, force_ascii=True)`. */
export function fullProcess(text: string): string {
  const ascii = text.replace(/[\u0080-\u00ff]/g, '');
  return ascii
    .replace(/[^\p{L}\p{N}_]/gu, ' ')
    .toLowerCase()
    .trim();
}

/** thefuzz `ratio` over already-processed strings. */
function difflibRatio(a: string, b: string): number {
  if (a === b) return 100;
  if (a.length === 0 || b.length === 0) return 0;
  return roundHalfEven(100 * sequenceMatcherRatio(a, b));
}

function levenshteinRatio(a: string, b: string): number {
  if (a === b) return 100;
  if (a.length === 0 || b.length === 0) return 0;
  const x = Array.from(a);
  const y = Array.from(b);
  // Indel distance = |a| + |b| − 2·LCS.
  let prev = new Array<number>(y.length + 1).fill(0);
  for (let i = 1; i <= x.length; i++) {
    const cur = new Array<number>(y.length + 1).fill(0);
    for (let j = 1; j <= y.length; j++) cur[j] = x[i - 1] === y[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!);
    prev = cur;
  }
  const total = x.length + y.length;
  return roundHalfEven((100 * (2 * prev[y.length]!)) / total);
}

/** Python's `round(x)` for a float: halves go to the even neighbour. */
function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}
