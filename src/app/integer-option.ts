/**
 * The one reader of integer options, whether a flag's text or a config file's number: every command's
 * integer flags (`intOption` schemas, benchmark flags of type `integer`, `demo --seed`, `probe --attempts`)
 * go through it, so a bad value is always refused the same way — naming the flag, saying an integer is
 * required and within which bounds, and quoting what was given (never `NaN`).
 */
import { ConfigError } from '../episode/index.js';

export interface IntegerBounds {
  min?: number;
  max?: number;
}

/** `--flag-name` of a camelCase key. */
export function flagOf(key: string): string {
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** What the option requires, as words: `an integer`, `an integer >= 1`, `an integer from 1 to 256`. */
export function integerRequirement(bounds: IntegerBounds = {}): string {
  const { min, max } = bounds;
  if (min !== undefined && max !== undefined) return `an integer from ${min} to ${max}`;
  if (min !== undefined) return `an integer >= ${min}`;
  if (max !== undefined) return `an integer <= ${max}`;
  return 'an integer';
}

/** The value as an integer within bounds, or undefined. Text must be written as an integer (no `1.0`, `1e3`, hex or blanks). */
export function integerValue(value: unknown, bounds: IntegerBounds = {}): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^[+-]?\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n)) return undefined;
  if (bounds.min !== undefined && n < bounds.min) return undefined;
  if (bounds.max !== undefined && n > bounds.max) return undefined;
  return n;
}

/** The message for a value that is not an acceptable integer. */
export function integerProblem(key: string, value: unknown, bounds: IntegerBounds = {}): string {
  return `${key.startsWith('--') ? key : flagOf(key)} must be ${integerRequirement(bounds)}, got '${String(value)}'.`;
}

/** Reads an integer option or throws a ConfigError (exit 2) naming the flag. */
export function readIntegerOption(key: string, value: unknown, bounds: IntegerBounds = {}): number {
  const n = integerValue(value, bounds);
  if (n === undefined) throw new ConfigError({ message: integerProblem(key, value, bounds), field: key.replace(/^--/, '') });
  return n;
}
