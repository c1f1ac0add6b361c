/**
 * A JSON decoder with the behaviour of CPython's `json` module (C scanner, `strict=True`), because the
 * original finds patches with `json.JSONDecoder().raw_decode` at every `{` and reads patch files with
 * `json.loads`. Differences from `JSON.parse` that change verdicts:
 * - `NaN`, `Infinity` and `-Infinity` are accepted;
 * - integers and floats stay distinct (`1` is an int, `1.0` a float; `str()` prints them differently);
 * - raw_decode stops after the first value, so trailing text is fine;
 * - objects keep Python dict order (first position, last value for duplicate keys; a `Map`, so
 *   `"__proto__"` and numeric keys behave like ordinary keys);
 * - an integer literal with more than 4300 digits raises `ValueError` (Python 3.11+), and deep nesting
 *   raises `RecursionError`; neither is a `JSONDecodeError`, so the original's candidate scan does not
 *   swallow them and the whole response is rejected.
 * Error messages and positions follow Python 3.11 (`Expecting ',' delimiter: line 1 column 7 (char 6)`).
 */

export type PyValue = null | boolean | number | bigint | string | PyValue[] | PyDict;
/** A Python dict decoded from JSON. Floats are `number`, ints are `bigint`. */
export type PyDict = Map<string, PyValue>;

export type PyJsonError =
  | { kind: 'decode'; exception: 'JSONDecodeError'; reason: string; position: number; message: string }
  | { kind: 'int_digits'; exception: 'ValueError'; message: string }
  | { kind: 'recursion'; exception: 'RecursionError'; message: string };

export type PyDecodeResult = { ok: true; value: PyValue; end: number } | { ok: false; error: PyJsonError };

/**
 * Nesting depth at which CPython's C scanner hits the recursion limit. Approximate: it depends on the
 * caller's stack depth (about 997 at top level and ~977 twenty frames down on 3.11) and on the Python
 * version (3.12+ uses a separate C recursion limit).
 */
export const PY_JSON_MAX_DEPTH = 980;
/** `sys.get_int_max_str_digits()` default since Python 3.11. */
export const PY_INT_MAX_STR_DIGITS = 4300;

export function isPyDict(value: unknown): value is PyDict {
  return value instanceof Map;
}

/** `json.JSONDecoder().raw_decode(text, index)`: decode one value starting exactly at `index`. */
export function pyRawDecode(text: string, index = 0): PyDecodeResult {
  const scanner = new Scanner(text, undefined);
  try {
    const [value, end] = scanner.scanOnce(index, 0);
    return { ok: true, value, end };
  } catch (error) {
    if (error instanceof ScanFailure) return { ok: false, error: error.toError(text) };
    throw error;
  }
}

/** A candidate decode: the value, or the kind of failure with its full error built only on request. */
export type CandidateDecodeResult =
  | { ok: true; value: PyValue; end: number }
  | { ok: false; kind: PyJsonError['kind']; error(): PyJsonError };

/**
 * `raw_decode` at many `{` positions of one text, as the original's candidate scan does, in time linear in
 * the text. A plain loop is quadratic twice over: every failure's message counts lines from the start of
 * the text, and a `{` nested n levels deep is decoded again by each of its n enclosing candidates. Here
 * error messages are built only when asked for, and every object that an earlier decode entered is
 * remembered: finished ones with their value and end, and those still open when that decode failed as
 * failing in the same way. JSON is context-free and a nested start is shallower than its enclosing one,
 * so these are exactly the results a fresh decode at that position gives (the same `Map` instance is
 * returned; callers must not mutate decoded values).
 */
export function createObjectDecoder(text: string): (index: number) => CandidateDecodeResult {
  const memo = new Map<number, ObjectMemo>();
  const scanner = new Scanner(text, memo);
  const failed = (failure: ScanFailure): CandidateDecodeResult => new CandidateFailure(failure, text);
  return (index) => {
    const known = memo.get(index);
    if (known instanceof ScanFailure) return failed(known);
    if (known !== undefined) return { ok: true, value: known.value, end: known.end };
    if (text[index] === '{') {
      // The common stray `{` (not followed by a key or `}`) fails here without an exception.
      const next = skipJsonWhitespace(text, index + 1);
      if (text[next] !== '"' && text[next] !== '}') return failed(new ScanFailure('decode', 'Expecting property name enclosed in double quotes', next));
    }
    try {
      const [value, end] = scanner.scanOnce(index, 0);
      return { ok: true, value, end };
    } catch (error) {
      if (error instanceof ScanFailure) return failed(error);
      throw error;
    }
  };
}

// A class, not an object with a closure: millions of these are made for a text full of stray braces.
class CandidateFailure {
  readonly ok = false;
  readonly kind: PyJsonError['kind'];
  constructor(
    private readonly failure: ScanFailure,
    private readonly text: string,
  ) {
    this.kind = failure.kind;
  }

  error(): PyJsonError {
    return this.failure.toError(this.text);
  }
}

type ObjectMemo = { value: PyDict; end: number } | ScanFailure;

/** `json.loads(text)`: BOM check, surrounding JSON whitespace allowed, no trailing data. */
export function pyJsonLoads(text: string): { ok: true; value: PyValue } | { ok: false; error: PyJsonError } {
  if (text.startsWith('\ufeff')) {
    return { ok: false, error: decodeError(text, 'Unexpected UTF-8 BOM (decode using utf-8-sig)', 0) };
  }
  const decoded = pyRawDecode(text, skipJsonWhitespace(text, 0));
  if (!decoded.ok) return decoded;
  const end = skipJsonWhitespace(text, decoded.end);
  if (end !== text.length) return { ok: false, error: decodeError(text, 'Extra data', end) };
  return { ok: true, value: decoded.value };
}

/**
 * Converts an already-parsed JS value (for example from `JSON.parse`) to a `PyValue`. `JSON.parse`
 * loses the int/float distinction, so integral finite numbers become ints; objects keep JS key order,
 * which puts integer-like keys first.
 */
export function fromJsValue(value: unknown): PyValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean' || typeof value === 'string' || typeof value === 'bigint') return value;
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (value instanceof Map) {
    const out: PyDict = new Map();
    for (const [key, item] of value) out.set(String(key), fromJsValue(item));
    return out;
  }
  if (Array.isArray(value)) return value.map(fromJsValue);
  if (typeof value === 'object') {
    const out: PyDict = new Map();
    for (const [key, item] of Object.entries(value)) out.set(key, fromJsValue(item));
    return out;
  }
  return null;
}

/** A plain JSON-compatible JS value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Converts a `PyValue` to plain JS. Ints become numbers (lossy beyond 2^53). */
export function toJsValue(value: PyValue): JsonValue {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(toJsValue);
  if (isPyDict(value)) {
    const out: { [key: string]: JsonValue } = {};
    for (const [key, item] of value) {
      Object.defineProperty(out, key, { value: toJsValue(item), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

/** Python's `dict.get(key, default)`. */
export function pyGet(dict: PyDict, key: string, fallback: PyValue = null): PyValue {
  return dict.has(key) ? (dict.get(key) as PyValue) : fallback;
}

class ScanFailure {
  constructor(
    readonly kind: PyJsonError['kind'],
    readonly reason: string,
    readonly position: number,
  ) {}

  toError(text: string): PyJsonError {
    if (this.kind === 'decode') return decodeError(text, this.reason, this.position);
    if (this.kind === 'int_digits') return { kind: 'int_digits', exception: 'ValueError', message: this.reason };
    return { kind: 'recursion', exception: 'RecursionError', message: this.reason };
  }
}

function decodeError(text: string, reason: string, position: number): PyJsonError {
  const before = text.slice(0, position);
  const pos = codePoints(before);
  const lastNewline = before.lastIndexOf('\n');
  let line = 1;
  for (let at = before.indexOf('\n'); at >= 0; at = before.indexOf('\n', at + 1)) line++;
  const column = lastNewline < 0 ? pos + 1 : pos - codePoints(before.slice(0, lastNewline));
  return {
    kind: 'decode',
    exception: 'JSONDecodeError',
    reason,
    position,
    message: `${reason}: line ${line} column ${column} (char ${pos})`,
  };
}

function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

function skipJsonWhitespace(text: string, index: number): number {
  let i = index;
  while (i < text.length && isJsonWhitespace(text.charCodeAt(i))) i++;
  return i;
}

function isJsonWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

class Scanner {
  constructor(
    private readonly text: string,
    private readonly objects: Map<number, ObjectMemo> | undefined,
  ) {}

  scanOnce(index: number, depth: number): [PyValue, number] {
    const s = this.text;
    if (index >= s.length) throw new ScanFailure('decode', 'Expecting value', index);
    const ch = s[index];
    if (ch === '"') return this.scanString(index + 1);
    if (ch === '{') return this.objects === undefined ? this.parseObject(index + 1, depth + 1) : this.parseRememberedObject(index, depth + 1);
    if (ch === '[') return this.parseArray(index + 1, depth + 1);
    if (ch === 'n' && s.startsWith('null', index)) return [null, index + 4];
    if (ch === 't' && s.startsWith('true', index)) return [true, index + 4];
    if (ch === 'f' && s.startsWith('false', index)) return [false, index + 5];
    if (ch === 'N' && s.startsWith('NaN', index)) return [NaN, index + 3];
    if (ch === 'I' && s.startsWith('Infinity', index)) return [Infinity, index + 8];
    if (ch === '-' && s.startsWith('-Infinity', index)) return [-Infinity, index + 9];
    return this.scanNumber(index);
  }

  private scanNumber(start: number): [PyValue, number] {
    const s = this.text;
    let i = start;
    if (s[i] === '-') {
      i++;
      if (i >= s.length) throw new ScanFailure('decode', 'Expecting value', start);
    }
    const first = s.charCodeAt(i);
    if (first >= 0x31 && first <= 0x39) {
      i++;
      while (i < s.length && isDigit(s.charCodeAt(i))) i++;
    } else if (first === 0x30) {
      i++;
    } else {
      throw new ScanFailure('decode', 'Expecting value', start);
    }
    let isFloat = false;
    if (i < s.length - 1 && s[i] === '.' && isDigit(s.charCodeAt(i + 1))) {
      isFloat = true;
      i += 2;
      while (i < s.length && isDigit(s.charCodeAt(i))) i++;
    }
    if (i < s.length - 1 && (s[i] === 'e' || s[i] === 'E')) {
      const expStart = i;
      i++;
      if (i < s.length - 1 && (s[i] === '-' || s[i] === '+')) i++;
      while (i < s.length && isDigit(s.charCodeAt(i))) i++;
      if (isDigit(s.charCodeAt(i - 1))) isFloat = true;
      else i = expStart;
    }
    const literal = s.slice(start, i);
    if (isFloat) return [Number(literal), i];
    const digits = literal.startsWith('-') ? literal.length - 1 : literal.length;
    if (digits > PY_INT_MAX_STR_DIGITS) {
      throw new ScanFailure(
        'int_digits',
        `Exceeds the limit (${PY_INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${digits} digits; use sys.set_int_max_str_digits() to increase the limit`,
        start,
      );
    }
    return [BigInt(literal), i];
  }

  /** `index` is just past the opening quote. */
  private scanString(index: number): [string, number] {
    const s = this.text;
    const begin = index - 1;
    let out = '';
    let i = index;
    for (;;) {
      let chunkEnd = i;
      while (chunkEnd < s.length) {
        const code = s.charCodeAt(chunkEnd);
        if (code === 0x22 || code === 0x5c) break;
        if (code <= 0x1f) throw new ScanFailure('decode', 'Invalid control character at', chunkEnd);
        chunkEnd++;
      }
      if (chunkEnd >= s.length) throw new ScanFailure('decode', 'Unterminated string starting at', begin);
      out += s.slice(i, chunkEnd);
      if (s[chunkEnd] === '"') return [out, chunkEnd + 1];
      // backslash escape
      i = chunkEnd + 1;
      if (i >= s.length) throw new ScanFailure('decode', 'Unterminated string starting at', begin);
      const esc = s[i] ?? '';
      if (esc !== 'u') {
        const mapped = SIMPLE_ESCAPES[esc];
        if (mapped === undefined) throw new ScanFailure('decode', 'Invalid \\escape', i - 1);
        out += mapped;
        i++;
        continue;
      }
      if (i + 5 >= s.length) throw new ScanFailure('decode', 'Invalid \\uXXXX escape', i);
      let code = this.readHex4(i + 1, i);
      i += 5;
      if (code >= 0xd800 && code <= 0xdbff && i + 6 < s.length && s[i] === '\\' && s[i + 1] === 'u') {
        const low = this.readHex4(i + 2, i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          i += 6;
        }
      }
      out += String.fromCodePoint(code);
    }
  }

  private readHex4(at: number, errorAt: number): number {
    const hexText = this.text.slice(at, at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(hexText)) throw new ScanFailure('decode', 'Invalid \\uXXXX escape', errorAt);
    return Number.parseInt(hexText, 16);
  }

  private parseRememberedObject(start: number, depth: number): [PyDict, number] {
    try {
      const [value, end] = this.parseObject(start + 1, depth);
      this.objects?.set(start, { value, end });
      return [value, end];
    } catch (error) {
      if (error instanceof ScanFailure && error.kind === 'decode') this.objects?.set(start, error);
      throw error;
    }
  }

  private parseObject(index: number, depth: number): [PyDict, number] {
    if (depth > PY_JSON_MAX_DEPTH) {
      throw new ScanFailure(
        'recursion',
        'maximum recursion depth exceeded while decoding a JSON object from a unicode string',
        index,
      );
    }
    const s = this.text;
    const out: PyDict = new Map();
    let i = skipJsonWhitespace(s, index);
    if (i < s.length && s[i] === '}') return [out, i + 1];
    for (;;) {
      if (i >= s.length || s[i] !== '"') {
        throw new ScanFailure('decode', 'Expecting property name enclosed in double quotes', i);
      }
      const [key, afterKey] = this.scanString(i + 1);
      i = skipJsonWhitespace(s, afterKey);
      if (i >= s.length || s[i] !== ':') throw new ScanFailure('decode', "Expecting ':' delimiter", i);
      i = skipJsonWhitespace(s, i + 1);
      const [value, afterValue] = this.scanOnce(i, depth);
      out.set(key, value);
      i = skipJsonWhitespace(s, afterValue);
      if (i < s.length && s[i] === '}') return [out, i + 1];
      if (i >= s.length || s[i] !== ',') throw new ScanFailure('decode', "Expecting ',' delimiter", i);
      i = skipJsonWhitespace(s, i + 1);
    }
  }

  private parseArray(index: number, depth: number): [PyValue[], number] {
    if (depth > PY_JSON_MAX_DEPTH) {
      throw new ScanFailure(
        'recursion',
        'maximum recursion depth exceeded while decoding a JSON array from a unicode string',
        index,
      );
    }
    const s = this.text;
    const out: PyValue[] = [];
    let i = skipJsonWhitespace(s, index);
    if (i < s.length && s[i] === ']') return [out, i + 1];
    for (;;) {
      const [value, afterValue] = this.scanOnce(i, depth);
      out.push(value);
      i = skipJsonWhitespace(s, afterValue);
      if (i < s.length && s[i] === ']') return [out, i + 1];
      if (i >= s.length || s[i] !== ',') throw new ScanFailure('decode', "Expecting ',' delimiter", i);
      i = skipJsonWhitespace(s, i + 1);
    }
  }
}
