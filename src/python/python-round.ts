/**
 * Python's `round(x, digits)` for a float: the decimal nearest to the exact binary value of x, ties to
 * even, read back as a float. It differs from `Number(x.toFixed(digits))`, which sends exact ties away
 * from zero (`round(0.125, 2)` is 0.12 in Python, `0.125.toFixed(2)` is "0.13"). Results files written by
 * the original (its summary means and sds) are rounded this way. `digits` is an integer in [0, 20].
 */
export function pyRound(x: number, digits: number): number {
  if (!Number.isInteger(digits) || digits < 0 || digits > 20) throw new RangeError(`pyRound digits must be an integer in [0, 20]; got ${digits}.`);
  if (!Number.isFinite(x) || x === 0 || Math.abs(x) >= 1e21) return x;
  const negative = x < 0;
  // A double at or above 2^-48 has at most 100 fraction digits, so toFixed(100) is its exact expansion;
  // anything smaller rounds to zero at 20 digits or fewer and can never be an exact tie.
  const magnitude = Math.abs(x);
  if (magnitude < 2 ** -48) return negative ? -0 : 0;
  const exact = magnitude.toFixed(100);
  const point = exact.indexOf('.');
  const kept = exact.slice(0, point + 1 + digits);
  const rest = exact.slice(point + 1 + digits);
  const firstDropped = rest.charCodeAt(0) - 48;
  const isTie = firstDropped === 5 && /^50*$/.test(rest);
  const lastKept = kept.charCodeAt(kept.endsWith('.') ? kept.length - 2 : kept.length - 1) - 48;
  const roundUp = firstDropped > 5 || (firstDropped === 5 && !isTie) || (isTie && lastKept % 2 === 1);
  const result = Number(roundUp ? incrementDecimal(kept) : kept);
  return negative ? -result : result;
}

/** Adds one unit in the last place of a non-negative decimal string ("0.19" → "0.20", "9." → "10."). */
function incrementDecimal(text: string): string {
  const chars = text.split('');
  for (let i = chars.length - 1; i >= 0; i--) {
    const ch = chars[i]!;
    if (ch === '.') continue;
    if (ch !== '9') {
      chars[i] = String.fromCharCode(ch.charCodeAt(0) + 1);
      return chars.join('');
    }
    chars[i] = '0';
  }
  return `1${chars.join('')}`;
}
