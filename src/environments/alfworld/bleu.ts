/**
 * Sentence-level BLEU with Chen & Cherry's smoothing method 4, computed the way NLTK 3.8's
 * `sentence_bleu([reference], hypothesis, smoothing_function=SmoothingFunction().method4)` computes it
 * (default weights 0.25 × 4, one reference, k = 5). AgentBench uses this score to map a free-text action
 * to the closest admissible ALFWorld command. Golden vectors produced with NLTK 3.8 pin the behaviour
 * (test/fixtures/alfworld-bleu/golden.json, generator in bench/alfworld-bleu-golden/).
 *
 * Details that matter for agreement with NLTK 3.8:
 * - modified precision: hypothesis n-gram counts clipped by the reference counts; the denominator is
 *   max(1, number of hypothesis n-grams), so a hypothesis shorter than n gives 0/1;
 * - no unigram match at all → 0 (before smoothing and before the brevity penalty);
 * - method 4 only replaces precisions whose numerator is 0, and only when the hypothesis has more than one
 *   token: the i-th such precision (counting from 1) becomes 1 / (2^i · k / ln(hyp_len)) / denominator;
 * - precisions still 0 after smoothing (one-token hypotheses) are left out of the log-sum, which therefore
 *   does not drop to zero (NLTK's `if p_i > 0` filter);
 * - brevity penalty: 1 if the hypothesis is longer than the reference, 0 if it is empty, else
 *   exp(1 − r/c); the log-sum uses an exact summation as `math.fsum` does.
 */
import { pySplit, pyStrip } from '../../python/python-text.js';


/** Method 4's constant k (NLTK's `SmoothingFunction(k=5)` default). */
export const METHOD4_K = 5;
const WEIGHTS = [0.25, 0.25, 0.25, 0.25] as const;

/** A token list's n-gram counts for n = 1..4, and its length: all BLEU needs of either side. */
interface NgramProfile {
  length: number;
  /** counts[n - 1]: n-gram → occurrences (keys are the tokens joined by one space). */
  counts: Map<string, number>[];
}

function ngramCounts(tokens: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    // Tokens never contain whitespace, so a space-joined key is unambiguous.
    const key = tokens.slice(i, i + n).join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function profileOf(tokens: readonly string[]): NgramProfile {
  return { length: tokens.length, counts: WEIGHTS.map((_, i) => ngramCounts(tokens, i + 1)) };
}

/**
 * Profiles of reference texts (admissible commands), which recur from step to step and game to game. The
 * profile is a function of the text alone, so a cached one gives the same score; the store is emptied when
 * it reaches its bound, which keeps memory flat whatever texts arrive.
 */
const referenceProfiles = new Map<string, NgramProfile>();
const REFERENCE_PROFILES_MAX = 8192;

function referenceProfile(text: string): NgramProfile {
  let profile = referenceProfiles.get(text);
  if (profile === undefined) {
    if (referenceProfiles.size >= REFERENCE_PROFILES_MAX) referenceProfiles.clear();
    profile = profileOf(pySplit(text));
    referenceProfiles.set(text, profile);
  }
  return profile;
}

/** Modified precision's numerator (clipped matches) and denominator (max(1, hypothesis n-grams)). */
function modifiedPrecision(reference: NgramProfile, hypothesis: NgramProfile, n: number): { numerator: number; denominator: number } {
  const hyp = hypothesis.counts[n - 1]!;
  const ref = reference.counts[n - 1]!;
  let numerator = 0;
  let total = 0;
  for (const [gram, count] of hyp) {
    numerator += Math.min(count, ref.get(gram) ?? 0);
    total += count;
  }
  return { numerator, denominator: Math.max(1, total) };
}

/** Exact sum of floats, rounded once (Shewchuk's algorithm, as Python's `math.fsum`). */
export function exactSum(values: readonly number[]): number {
  const partials: number[] = [];
  for (let x of values) {
    let k = 0;
    for (let y of partials) {
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) partials[k++] = lo;
      x = hi;
    }
    partials.length = k;
    partials.push(x);
  }
  // Round the partials to one float the way fsum does (half-even correction on the top two terms).
  let n = partials.length;
  if (n === 0) return 0;
  let hi = partials[--n]!;
  let lo = 0;
  while (n > 0) {
    const x = hi;
    const y = partials[--n]!;
    hi = x + y;
    const yr = hi - x;
    lo = y - yr;
    if (lo !== 0) break;
  }
  if (n > 0 && ((lo < 0 && partials[n - 1]! < 0) || (lo > 0 && partials[n - 1]! > 0))) {
    const y = lo * 2;
    const x = hi + y;
    if (y === x - hi) hi = x;
  }
  return hi;
}

/**
 * `sentence_bleu([reference], hypothesis, smoothing_function=method4)` of NLTK 3.8 on token lists.
 */
export function sentenceBleuMethod4(reference: readonly string[], hypothesis: readonly string[]): number {
  return bleuOfProfiles(profileOf(reference), profileOf(hypothesis));
}

function bleuOfProfiles(reference: NgramProfile, hypothesis: NgramProfile): number {
  const precisions = WEIGHTS.map((_, i) => modifiedPrecision(reference, hypothesis, i + 1));
  if (precisions[0]!.numerator === 0) return 0;
  const hypLen = hypothesis.length;
  const refLen = reference.length;
  const bp = hypLen > refLen ? 1 : hypLen === 0 ? 0 : Math.exp(1 - refLen / hypLen);
  const smoothed: number[] = [];
  let incvnt = 1;
  for (const p of precisions) {
    if (p.numerator === 0 && hypLen > 1) {
      const numerator = 1 / ((2 ** incvnt * METHOD4_K) / Math.log(hypLen));
      smoothed.push(numerator / p.denominator);
      incvnt++;
    } else {
      smoothed.push(p.numerator / p.denominator);
    }
  }
  const terms: number[] = [];
  smoothed.forEach((p, i) => {
    if (p > 0) terms.push(WEIGHTS[i]! * Math.log(p));
  });
  return bp * Math.exp(exactSum(terms));
}

/** AgentBench's `bleu_score(reference, candidate)`: whitespace tokens, method-4 sentence BLEU. */
export function bleuScore(reference: string, candidate: string): number {
  return bleuOfProfiles(referenceProfile(reference), profileOf(pySplit(candidate)));
}

/** The threshold above which the best-scoring admissible command replaces the action. */
export const BLEU_MAPPING_LIMIT = 0.01;

/** AgentBench's cleaning of an action text: strip, lower-case, keep the first line (in that order). */
export function cleanActionText(action: string): string {
  return pyStrip(action).toLowerCase().split('\n')[0] ?? '';
}

/** The outcome of the mapping: the action, and the best score when BLEU was computed. */
export interface AdmissibleMatch {
  action: string;
  score?: number;
  scores?: number[];
}

/**
 * The mapping on an already cleaned text: an admissible command is returned as is; otherwise the first
 * command with the highest BLEU (reference = command, hypothesis = text) when that score is above 0.01,
 * else the text unchanged. With no admissible commands the text is returned.
 */
export function mapToAdmissible(text: string, admissible: readonly string[]): AdmissibleMatch {
  if (admissible.length === 0 || admissible.includes(text)) return { action: text };
  // The text's n-grams are counted once for the whole list; the commands' come from the cache.
  const hypothesis = profileOf(pySplit(text));
  const scores = admissible.map((choice) => bleuOfProfiles(referenceProfile(choice), hypothesis));
  let best = 0;
  for (let i = 1; i < scores.length; i++) if (scores[i]! > scores[best]!) best = i;
  const score = scores[best]!;
  return score > BLEU_MAPPING_LIMIT ? { action: admissible[best]!, score, scores } : { action: text, score, scores };
}

/** AgentBench's `process_action` after the ACTION: extraction: `cleanActionText`, then `mapToAdmissible`. */
export function nearestAdmissible(action: string, admissible: readonly string[]): AdmissibleMatch {
  return mapToAdmissible(cleanActionText(action), admissible);
}
