/**
 * Answer values for the simulated target's mistakes: a plausible wrong guess, and the gold answer
 * spoiled in case or format. Both are checked to be wrong under the graders the project may use (the
 * v0.2 exact rules and the FC normalising rules; strings compare case-sensitively in both), so a drawn
 * mistake is a real failure and never an accidental success.
 */

import { trimBothOf } from '../../../python/text-scan.js';

const NONE_WORDS = new Set(['none', 'null', 'nan', 'inf', '']);

function asNumber(value: string): number | undefined {
  const text = value.trim();
  if (text === '' || !/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** The FC grader's normalisation of one value, roughly: quotes and spaces stripped, none-words to 0, % and commas dropped. */
function fcNormalize(value: string): string {
  let text = trimBothOf(value.trim(), `'"`).trim();
  if (NONE_WORDS.has(text.toLowerCase())) return '0';
  text = text.replace(/%$/, '').replace(/,/g, '').trim();
  return text;
}

/** Could these two values be judged equal by some grader in use? */
export function valuesMayMatch(a: string, b: string): boolean {
  if (a === b) return true;
  const na = fcNormalize(a);
  const nb = fcNormalize(b);
  if (na === nb) return true;
  const xa = asNumber(na);
  const xb = asNumber(nb);
  return xa !== undefined && xb !== undefined && Math.abs(xa - xb) <= 0.01;
}

/** Could this answer list be judged equal to the label by some grader in use (sets, or multisets of numbers)? */
export function answersMayMatch(answers: readonly string[], label: readonly string[]): boolean {
  if (answers.length === 1 && label.length === 1) return valuesMayMatch(answers[0] ?? '', label[0] ?? '');
  return label.every((l) => answers.some((a) => valuesMayMatch(a, l))) && answers.every((a) => label.some((l) => valuesMayMatch(a, l)));
}

export function isNoneLike(label: readonly string[]): boolean {
  return label.length === 1 && NONE_WORDS.has((label[0] ?? '').trim().toLowerCase());
}

/**
 * A task-file cell as text: strings as they are, numbers as JavaScript prints them, and the loader's
 * float cells (`{ type: 'float', value }`) as Python prints a float (`82562.0`). Other shapes: undefined.
 */
export function cellText(cell: unknown): string | undefined {
  if (typeof cell === 'string') return cell;
  if (typeof cell === 'number' && Number.isFinite(cell)) return String(cell);
  if (typeof cell === 'object' && cell !== null && (cell as { type?: unknown }).type === 'float') {
    const value = (cell as { value?: unknown }).value;
    if (typeof value === 'number' && Number.isFinite(value)) return Number.isInteger(value) ? `${value}.0` : String(value);
  }
  return undefined;
}

/** Table cells as the target would read them from a result, one string per cell. */
export function cellTexts(rows: readonly (readonly unknown[])[]): string[] {
  const out: string[] = [];
  for (const row of rows) {
    for (const cell of row) {
      const text = cellText(cell)?.trim();
      if (text !== undefined && text !== '' && text.length <= 60 && !text.includes('\n')) out.push(text);
    }
  }
  return out;
}

/**
 * A wrong but plausible answer: a cell of the table (a numeric one when the gold answer is a number),
 * chosen by `pick` among the candidates; a fallback value when the table offers none.
 */
export function plausibleWrongAnswer(label: readonly string[], rows: readonly (readonly unknown[])[], pick: (n: number) => number): string[] {
  const numericGold = label.length === 1 && asNumber(label[0] ?? '') !== undefined;
  const cells = [...new Set(cellTexts(rows))];
  const wrong = cells.filter(
    (cell) =>
      !label.some((l) => valuesMayMatch(cell, l) || cell.toLowerCase() === l.toLowerCase()) && !NONE_WORDS.has(cell.toLowerCase()) && cell !== '0',
  );
  const preferred = numericGold ? wrong.filter((cell) => asNumber(cell) !== undefined) : wrong.filter((cell) => asNumber(cell) === undefined);
  const pool = preferred.length > 0 ? preferred : wrong;
  if (pool.length > 0) return [pool[pick(pool.length)] ?? pool[0] ?? 'Unknown'];
  const n = asNumber(label[0] ?? '');
  return [n !== undefined ? String(n + 7) : 'Unknown'];
}

/**
 * The gold answer committed carelessly: a string in the wrong case (lower-cased, or capitalised when it
 * has no capitals), an en dash typed as a hyphen, or the value wrapped in a sentence ("The answer is 3").
 * Only the first value that can be spoiled is changed. Returns undefined if nothing can be spoiled.
 */
export function spoilAnswer(label: readonly string[]): string[] | undefined {
  if (label.length === 0) return undefined;
  if (isNoneLike(label)) return ['No matching rows'];
  for (let i = 0; i < label.length; i++) {
    const value = label[i] ?? '';
    const spoiled = spoilOne(value);
    if (spoiled === undefined) continue;
    const answers = [...label];
    answers[i] = spoiled;
    if (!answersMayMatch(answers, label)) return answers;
  }
  return undefined;
}

function spoilOne(value: string): string | undefined {
  if (asNumber(value) !== undefined) return `The answer is ${value}`;
  if (/[A-Z]/.test(value)) return value.toLowerCase();
  const first = value.search(/[a-z]/);
  if (first >= 0) return value.slice(0, first) + value.charAt(first).toUpperCase() + value.slice(first + 1);
  if (value.includes('\u2013')) return value.replace(/\u2013/g, '-');
  if (value.trim() === '') return undefined;
  return `The answer is ${value}`;
}
