import type { DbBenchFault } from './fault-profile.js';

/**
 * Which harness texts "name the fix" of which failure mode. A hint is any harness-authored text the
 * target sees: the tips and tool-hint sections of the system prompt, a user message after the task
 * message (pre-decision or post-step hints), or a tool reply that blocked a call. Matching is
 * case-insensitive on whole words (a phrase matches as written, with any run of spaces). The lists are
 * documented in README.md; keep the two in step.
 */
export const DBBENCH_FIX_KEYWORDS: Readonly<Record<DbBenchFault, readonly string[]>> = Object.freeze({
  backticks: ['backtick', 'backticks', 'back-tick', 'back tick', 'quote', 'quotes', 'quoted', 'quoting', 'identifier', 'identifiers'],
  early_commit: [
    'run',
    'execute',
    'before commit',
    'before committing',
    'before answering',
    'query first',
    'inspect',
    'at least one',
    'without querying',
    'verify',
  ],
  case_format: [
    'case',
    'case-sensitive',
    'capitalization',
    'capitalisation',
    'lowercase',
    'lower-case',
    'uppercase',
    'upper-case',
    'exact',
    'exactly',
    'verbatim',
    'as written',
    'as it appears',
    'as shown',
    'format',
    'formatting',
  ],
  give_up: [
    'error',
    'errors',
    'failed',
    'retry',
    'try again',
    'give up',
    'giving up',
    'fix the query',
    'fix the sql',
    'correct the query',
    'keep trying',
    'do not commit',
    "don't commit",
  ],
  repeat: [
    'repeat',
    'repeated',
    'repeating',
    'same query',
    'same sql',
    'same statement',
    'loop',
    'looping',
    'again',
    'already ran',
    'already run',
    'already executed',
    'duplicate',
    'stop querying',
  ],
});

const PATTERNS: ReadonlyArray<readonly [DbBenchFault, RegExp]> = (Object.entries(DBBENCH_FIX_KEYWORDS) as [DbBenchFault, readonly string[]][]).map(
  ([fault, words]) => [fault, new RegExp(`(?:^|[^a-z0-9_])(?:${words.map(phrasePattern).join('|')})(?![a-z0-9_])`, 'i')] as const,
);

function phrasePattern(phrase: string): string {
  return phrase
    .split(/\s+/)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('\\s+');
}

/** The failure modes whose fix this harness text names. A lone backtick character also names quoting. */
export function faultsNamedByHint(text: string): DbBenchFault[] {
  const named: DbBenchFault[] = [];
  for (const [fault, pattern] of PATTERNS) {
    if (pattern.test(text) || (fault === 'backticks' && text.includes('`'))) named.push(fault);
  }
  return named;
}
