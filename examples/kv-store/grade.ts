/**
 * The checker: an episode is correct when the final store equals the expected one (every key, every value;
 * nothing more, nothing less) and the submitted answer matches the expected one. Answers are compared after
 * trimming and lower-casing; two numbers are compared as numbers (`505` = `505.0`). The verdict goes into
 * the record's `detail`, which engineers never see.
 */
import type { KvTask } from './tasks.js';

export interface KvVerdict {
  correct: boolean;
  storeCorrect: boolean | null;
  answerCorrect: boolean | null;
  /** Keys whose final value differs from the expected one (missing, extra or changed). */
  wrongKeys: string[];
}

export function normalizeAnswer(text: string): string {
  return text.trim().replace(/^["']|["']$/g, '').trim().toLowerCase();
}

export function answersMatch(given: string, expected: string): boolean {
  const a = normalizeAnswer(given);
  const b = normalizeAnswer(expected);
  if (a === b) return true;
  const x = Number(a);
  const y = Number(b);
  return a !== '' && b !== '' && Number.isFinite(x) && Number.isFinite(y) && x === y;
}

export function gradeKv(task: KvTask, finalStore: Readonly<Record<string, string>>, answer: string): KvVerdict {
  const expected = task.expect.store;
  const wrongKeys = expected === undefined ? [] : [...new Set([...Object.keys(expected), ...Object.keys(finalStore)])].filter((k) => expected[k] !== finalStore[k]).sort();
  const storeCorrect = expected === undefined ? null : wrongKeys.length === 0;
  const answerCorrect = task.expect.answer === undefined ? null : answersMatch(answer, task.expect.answer);
  return { correct: storeCorrect !== false && answerCorrect !== false, storeCorrect, answerCorrect, wrongKeys };
}
