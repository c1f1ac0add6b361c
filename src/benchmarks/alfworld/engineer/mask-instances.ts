/**
 * Masks ALFWorld instance numbers (`cabinet 4`, `sinkbasin 1`) in failure evidence. The original packet
 * keeps them and relies on the prompt's no-leak line; here the engineer never sees them, so a patch cannot
 * hard-code a numbered instance it read in a trace (the validator also rejects such strings in code).
 *
 * The mask keeps the structure a reader needs: within one trace every distinct instance of a name gets
 * its own letter in order of first appearance (`cabinet 6` → `cabinet [a]`, `cabinet 5` → `cabinet [b]`,
 * and `cabinet 6` again → `cabinet [a]`), so revisits, loops and "a different cabinet" stay visible.
 */

/** A lower-case object or receptacle name followed by an instance number of one to three digits. */
const INSTANCE = /\b([a-z]+) (\d{1,3})\b/g;

/** Words that ALFWorld texts put before a number that is not an instance (counts, locations, steps). */
const NOT_INSTANCE_NAMES = new Set(['loc', 'step', 'steps', 'round', 'rounds', 'page', 'trace', 'than', 'of', 'x', 'in', 'on', 'at', 'to', 'and', 'or', 'the', 'a', 'an']);

/** Letters for the nth instance of a name: a…z, then aa, ab, … */
export function instanceLabel(n: number): string {
  let label = '';
  let k = n;
  do {
    label = String.fromCharCode(97 + (k % 26)) + label;
    k = Math.floor(k / 26) - 1;
  } while (k >= 0);
  return label;
}

export type InstanceMasker = (text: string) => string;

/** A masker for one trace: the same instance gets the same letter everywhere it is applied. */
export function createInstanceMasker(): InstanceMasker {
  const byName = new Map<string, Map<string, string>>();
  return (text) =>
    text.replace(INSTANCE, (whole, name: string, number: string) => {
      if (NOT_INSTANCE_NAMES.has(name)) return whole;
      let labels = byName.get(name);
      if (!labels) {
        labels = new Map();
        byName.set(name, labels);
      }
      let label = labels.get(number);
      if (label === undefined) {
        label = instanceLabel(labels.size);
        labels.set(number, label);
      }
      return `${name} [${label}]`;
    });
}
