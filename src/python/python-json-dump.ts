import { pyFloatRepr } from './python-text.js';

/** A value to write: plain objects keep their key order; a Map keeps its insertion order even for integer-like keys. */
export type PyJsonOut = null | boolean | number | string | readonly PyJsonOut[] | { readonly [key: string]: PyJsonOut | undefined } | ReadonlyMap<string, PyJsonOut>;

/** Options of {@link pyJsonDumps}. */
export interface PyJsonDumpOptions {
  /** Spaces per level (Python's `indent`); default 2. */
  indent?: number;
  /**
   * Keys whose numbers Python held as floats, so an integral value prints as `14.0`. JavaScript has one
   * number type, so the writer must be told; a non-integral number is always a float.
   */
  floatKeys?: ReadonlySet<string>;
}

/**
 * Python's `json.dumps(value, indent=N)` with its defaults (`ensure_ascii`, separators `,` and `: `,
 * insertion order): the text the original release writes for its results files, byte for byte.
 * `undefined` object entries are skipped, as if the key were absent.
 */
export function pyJsonDumps(value: PyJsonOut, options: PyJsonDumpOptions = {}): string {
  const indent = ' '.repeat(options.indent ?? 2);
  const floatKeys = options.floatKeys ?? new Set<string>();
  const write = (v: PyJsonOut, depth: number, key: string | undefined): string => {
    if (v === null) return 'null';
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (typeof v === 'number') return numberText(v, key !== undefined && floatKeys.has(key));
    if (typeof v === 'string') return stringText(v);
    const inner = indent.repeat(depth + 1);
    const outer = indent.repeat(depth);
    if (isArray(v)) {
      if (v.length === 0) return '[]';
      return `[\n${v.map((item) => inner + write(item, depth + 1, key)).join(',\n')}\n${outer}]`;
    }
    const entries = v instanceof Map ? [...v.entries()] : Object.entries(v);
    const present = entries.filter((entry): entry is [string, PyJsonOut] => entry[1] !== undefined);
    if (present.length === 0) return '{}';
    return `{\n${present.map(([k, item]) => `${inner}${stringText(k)}: ${write(item, depth + 1, k)}`).join(',\n')}\n${outer}}`;
  };
  return write(value, 0, undefined);
}

function isArray(value: PyJsonOut): value is readonly PyJsonOut[] {
  return Array.isArray(value);
}

function numberText(value: number, isFloat: boolean): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  if (isFloat || !Number.isInteger(value)) return pyFloatRepr(value);
  return BigInt(value).toString();
}

/** JSON string with every character outside printable ASCII escaped as `\uXXXX` (Python's `ensure_ascii`). */
function stringText(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
