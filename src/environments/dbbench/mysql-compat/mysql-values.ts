import { shortestDigits } from '../python-repr.js';

/**
 * MySQL value conversions that SQLite does differently: number ↔ string, and the accent- and
 * case-insensitive comparison of `utf8mb4_0900_ai_ci` (approximated, see `foldText`).
 */

const DBL_DIG = 15;

/**
 * How MySQL prints a DOUBLE (`my_gcvt`): the shortest round-trip digits, in fixed notation unless the
 * exponent is large (`1e15`, `1.125899906842624e15`, `1e-15`). Integral values print without `.0`.
 */
export function mysqlDoubleText(value: number): string {
  if (!Number.isFinite(value)) return '0';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const sign = value < 0 ? '-' : '';
  const { digits, decpt } = shortestDigits(value);
  const len = digits.length;
  if (decpt >= -DBL_DIG + 1 && (decpt <= DBL_DIG || len > decpt)) {
    if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
    if (decpt >= len) return `${sign}${digits}${'0'.repeat(decpt - len)}`;
    return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  }
  const exp = decpt - 1;
  const mantissa = len > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${mantissa}e${exp < 0 ? '-' : ''}${Math.abs(exp)}`;
}

/** How MySQL turns a number into text (CONCAT, storing into a TEXT column): integers exactly, doubles by `my_gcvt`. */
export function mysqlNumberText(value: number | bigint): string {
  if (typeof value === 'bigint') return value.toString();
  return mysqlDoubleText(value);
}

const NUMERIC_PREFIX = /^[ \t\n\r\f\v]*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/;

/**
 * MySQL's string → DOUBLE conversion (comparison with a number, arithmetic): the longest numeric
 * prefix after leading whitespace, else 0. `'1,174'` → 1, `'abc'` → 0, `' 12x'` → 12, `'1e3'` → 1000.
 */
export function mysqlStringToDouble(text: string): number {
  const m = NUMERIC_PREFIX.exec(text);
  if (!m) return 0;
  const value = Number(m[1]);
  if (value === Infinity) return Number.MAX_VALUE;
  if (value === -Infinity) return -Number.MAX_VALUE;
  return value;
}

/** True when the whole text (after trimming spaces) is a number, i.e. the conversion loses nothing. */
export function isCleanNumber(text: string): boolean {
  const m = NUMERIC_PREFIX.exec(text);
  return m !== null && m[0].length === text.trimEnd().length && text.trim() !== '';
}

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

/** MySQL's string → BIGINT conversion for `CAST(… AS SIGNED)`: the integer prefix, clamped. */
export function mysqlStringToInt(text: string): bigint {
  const m = /^[ \t\n\r\f\v]*([+-]?\d+)/.exec(text);
  if (!m) return 0n;
  const value = BigInt(m[1]!);
  return value > INT64_MAX ? INT64_MAX : value < INT64_MIN ? INT64_MIN : value;
}

/** A double rounded half away from zero and clamped to the BIGINT range (MySQL's DOUBLE → integer cast). */
export function doubleToInt(value: number): bigint {
  if (Number.isNaN(value)) return 0n;
  if (value >= 9.223372036854776e18) return INT64_MAX;
  if (value <= -9.223372036854776e18) return INT64_MIN;
  return BigInt(value < 0 ? -Math.round(-value) : Math.round(value));
}

/** Wraps a signed value into `UNSIGNED` (BIGINT UNSIGNED) as MySQL does. */
export function toUnsigned(value: bigint): bigint {
  return BigInt.asUintN(64, value);
}

// ---------------------------------------------------------------------------------------------
// Decimal text helpers (exact, string based).

interface DecimalParts {
  negative: boolean;
  digits: string; // no leading zeros, may be ''
  exponent: number; // value = digits × 10^exponent
}

function parseDecimal(text: string): DecimalParts | null {
  const m = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?/.exec(text);
  if (!m || ((m[2] ?? '') === '' && (m[3] ?? '') === '')) return null;
  const frac = m[3] ?? '';
  const digits = `${m[2]}${frac}`.replace(/^0+/, '');
  return { negative: m[1] === '-', digits, exponent: Number(m[4] ?? '0') - frac.length };
}

/**
 * A number or numeric text rounded half away from zero to `scale` decimals, in plain notation, as MySQL's
 * DECIMAL prints it: `decimalText(1.005, 2)` → `1.01`, `decimalText('2', 2)` → `2.00`.
 */
export function decimalText(value: number | bigint | string, scale: number): string {
  let text: string;
  if (typeof value === 'bigint') text = value.toString();
  else if (typeof value === 'number') {
    if (!Number.isFinite(value)) return (0).toFixed(scale);
    text = value === 0 ? '0' : `${value < 0 ? '-' : ''}${shortestText(Math.abs(value))}`;
  } else text = value;
  const parts = parseDecimal(text) ?? { negative: false, digits: '', exponent: 0 };
  let { digits } = parts;
  const { exponent } = parts;
  // Align so that the last digit has weight 10^-scale.
  const shift = exponent + scale;
  if (shift >= 0) digits = digits + '0'.repeat(shift);
  else {
    const cut = digits.length + shift;
    const kept = cut > 0 ? digits.slice(0, cut) : '';
    const first = cut >= 0 ? digits[cut] : undefined;
    const roundUp = first !== undefined && first >= '5';
    digits = roundUp ? (BigInt(kept || '0') + 1n).toString() : kept;
  }
  digits = digits.replace(/^0+/, '');
  const padded = digits.padStart(scale + 1, '0');
  const intPart = padded.slice(0, padded.length - scale);
  const fracPart = scale > 0 ? `.${padded.slice(padded.length - scale)}` : '';
  const isZero = /^0*$/.test(digits);
  return `${parts.negative && !isZero ? '-' : ''}${intPart}${fracPart}`;
}

function shortestText(value: number): string {
  const { digits, decpt } = shortestDigits(value);
  return `0.${digits}e${decpt}`;
}

/** Number of digits after the point in a numeric literal such as `1.50` (2) or `7` (0). */
export function literalScale(text: string): number {
  const m = /\.(\d*)/.exec(text);
  return m ? m[1]!.length : 0;
}

// ---------------------------------------------------------------------------------------------
// Collation: an approximation of utf8mb4_0900_ai_ci (accent- and case-insensitive, NO PAD).

const LETTER_EXPANSIONS: Record<string, string> = {
  ß: 'ss',
  ẞ: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  ħ: 'h',
  ŧ: 't',
  ı: 'i',
  þ: 'th',
};
const EXPANSION_RE = new RegExp(`[${Object.keys(LETTER_EXPANSIONS).join('')}]`, 'gu');

const foldCache = new Map<string, string>();

/**
 * The primary-strength key used for `=`, `LIKE` and `IN`: compatibility decomposition, accents and
 * ignorable format characters removed, lower-cased, a few letters expanded (`ß` → `ss`, `æ` → `ae`,
 * `ø` → `o`). Trailing spaces are kept (the 0900 collations are NO PAD).
 */
export function foldText(text: string): string {
  const cached = foldCache.get(text);
  if (cached !== undefined) return cached;
  const folded = text
    .normalize('NFKD')
    .replace(/[\p{M}\p{Cf}]/gu, '')
    .toLowerCase()
    .replace(EXPANSION_RE, (ch) => LETTER_EXPANSIONS[ch] ?? ch);
  if (foldCache.size > 50_000) foldCache.clear();
  foldCache.set(text, folded);
  return folded;
}

// UCA order of ASCII punctuation and symbols: all of them sort before digits, digits before letters.
const PUNCT_ORDER = ' _-,;:!?.\'"()[]{}@*/\\&#%`^+<=>|~$';
const PUNCT_KEY = new Map<string, string>(Array.from(PUNCT_ORDER, (ch, i) => [ch, String.fromCharCode(1 + i)]));
const OTHER_PUNCT_KEY = String.fromCharCode(1 + PUNCT_ORDER.length);

/** A binary-comparable sort key for ORDER BY / `<` on strings (fold, then punctuation before digits before letters). */
export function sortKeyText(text: string): string {
  let out = '';
  for (const ch of foldText(text)) {
    const mapped = PUNCT_KEY.get(ch);
    if (mapped !== undefined) out += mapped;
    else if (ch.codePointAt(0)! > 0x7f && /[\p{P}\p{S}\p{Z}]/u.test(ch)) out += OTHER_PUNCT_KEY;
    else out += ch;
  }
  return out;
}

/** Three-way comparison of two strings under the default collation (or binary when `binary`). */
export function compareText(a: string, b: string, binary = false): number {
  if (binary) return a === b ? 0 : codePointCompare(a, b);
  const fa = foldText(a);
  const fb = foldText(b);
  if (fa === fb) return 0;
  const ka = sortKeyText(a);
  const kb = sortKeyText(b);
  if (ka !== kb) return codePointCompare(ka, kb);
  return codePointCompare(fa, fb);
}

function codePointCompare(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const cx = x.value.codePointAt(0)!;
    const cy = y.value.codePointAt(0)!;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

/** UTF-8 byte length, which is what MySQL's LENGTH() counts. */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
