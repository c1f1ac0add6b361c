import { pyReprBytes, pyReprFloat, pyReprStr } from './python-repr.js';

/**
 * Just enough of Python to replay AgentBench's `eval()` of answer strings: literals (str, bytes, int,
 * float, True/False/None, Ellipsis), unary signs, and list/tuple/set/dict displays, including a bare
 * top-level tuple such as `"a", "b"`. Anything else (names, calls, arithmetic, comprehensions, complex
 * numbers, f-strings with fields) counts as an `eval` failure; for names and calls that is exactly what
 * Python does (NameError), for arithmetic Python would compute a value, which graders then compare.
 */
export type PyObject =
  | { kind: 'str'; value: string }
  | { kind: 'bytes'; value: string }
  | { kind: 'int'; value: bigint }
  | { kind: 'float'; value: number }
  | { kind: 'bool'; value: boolean }
  | { kind: 'none' }
  | { kind: 'ellipsis' }
  | { kind: 'list' | 'tuple' | 'set'; items: PyObject[] }
  | { kind: 'dict'; entries: [PyObject, PyObject][] };

class EvalFailure extends Error {}

const PY_WHITESPACE = '\t\n\u000b\f\r\u001c\u001d\u001e\u001f \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';

/** Python `s.strip(chars)`; without `chars`, strips what `str.isspace()` calls whitespace. */
export function pyStrip(s: string, chars: string = PY_WHITESPACE): string {
  let start = 0;
  let end = s.length;
  while (start < end && chars.includes(s[start]!)) start++;
  while (end > start && chars.includes(s[end - 1]!)) end--;
  return s.slice(start, end);
}

const DIGITS = String.raw`\d(?:_?\d)*`;
const FLOAT_TEXT = new RegExp(String.raw`^[+-]?(?:(?:${DIGITS}(?:\.(?:${DIGITS})?)?|\.${DIGITS})(?:[eE][+-]?${DIGITS})?|inf|infinity|nan)$`, 'i');

/** Python `float(text)` for a str, or null where Python raises ValueError. */
export function pythonFloatOfString(text: string): number | null {
  const t = pyStrip(text);
  if (!FLOAT_TEXT.test(t)) return null;
  const lower = t.toLowerCase().replace(/_/g, '');
  const sign = lower.startsWith('-') ? -1 : 1;
  const body = lower.replace(/^[+-]/, '');
  if (body === 'nan') return NaN;
  if (body === 'inf' || body === 'infinity') return sign * Infinity;
  return Number(lower);
}

/** Python `float(obj)`, or null where Python raises ValueError/TypeError. */
export function pythonFloat(obj: PyObject): number | null {
  switch (obj.kind) {
    case 'str':
    case 'bytes':
      return pythonFloatOfString(obj.value);
    case 'int': {
      const n = Number(obj.value);
      return Number.isFinite(n) ? n : null;
    }
    case 'float':
      return obj.value;
    case 'bool':
      return obj.value ? 1 : 0;
    default:
      return null;
  }
}

/** Python `repr(obj)`. */
export function pyRepr(obj: PyObject): string {
  switch (obj.kind) {
    case 'str':
      return pyReprStr(obj.value);
    case 'bytes':
      return pyReprBytes(obj.value);
    case 'int':
      return obj.value.toString();
    case 'float':
      return pyReprFloat(obj.value);
    case 'bool':
      return obj.value ? 'True' : 'False';
    case 'none':
      return 'None';
    case 'ellipsis':
      return 'Ellipsis';
    case 'list':
      return `[${obj.items.map(pyRepr).join(', ')}]`;
    case 'tuple':
      return obj.items.length === 1 ? `(${pyRepr(obj.items[0]!)},)` : `(${obj.items.map(pyRepr).join(', ')})`;
    case 'set':
      return obj.items.length === 0 ? 'set()' : `{${obj.items.map(pyRepr).join(', ')}}`;
    case 'dict':
      return `{${obj.entries.map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(', ')}}`;
  }
}

/** Python `str(obj)`. */
export function pyStr(obj: PyObject): string {
  return obj.kind === 'str' ? obj.value : pyRepr(obj);
}

function numericValue(obj: PyObject): number | bigint | null {
  if (obj.kind === 'int') return obj.value;
  if (obj.kind === 'float') return obj.value;
  if (obj.kind === 'bool') return obj.value ? 1n : 0n;
  return null;
}

/** Python `a == b` for the values a literal can produce. */
export function pyEquals(a: PyObject, b: PyObject): boolean {
  const na = numericValue(a);
  const nb = numericValue(b);
  if (na !== null || nb !== null) {
    if (na === null || nb === null) return false;
    if (typeof na === 'bigint' && typeof nb === 'bigint') return na === nb;
    return Number(na) === Number(nb);
  }
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'str':
    case 'bytes':
      return a.value === (b as typeof a).value;
    case 'none':
    case 'ellipsis':
      return true;
    case 'list':
    case 'tuple': {
      const items = (b as typeof a).items;
      return a.items.length === items.length && a.items.every((x, i) => pyEquals(x, items[i]!));
    }
    case 'set': {
      const items = (b as typeof a).items;
      return a.items.length === items.length && a.items.every((x) => items.some((y) => pyEquals(x, y)));
    }
    case 'dict': {
      const entries = (b as typeof a).entries;
      return (
        a.entries.length === entries.length &&
        a.entries.every(([k, v]) => entries.some(([k2, v2]) => pyEquals(k, k2) && pyEquals(v, v2)))
      );
    }
    default:
      return false;
  }
}

/** Whether Python could put the value in a set (`hash()` does not raise). */
export function isHashable(obj: PyObject): boolean {
  if (obj.kind === 'list' || obj.kind === 'set' || obj.kind === 'dict') return false;
  if (obj.kind === 'tuple') return obj.items.every(isHashable);
  return true;
}

function dedupe(items: PyObject[]): PyObject[] {
  const out: PyObject[] = [];
  for (const item of items) if (!out.some((x) => pyEquals(x, item))) out.push(item);
  return out;
}

class LiteralParser {
  private pos = 0;
  constructor(private readonly src: string) {}

  parseAll(): PyObject {
    const value = this.parseTopLevel();
    this.skip();
    if (this.pos < this.src.length) throw new EvalFailure('trailing input');
    return value;
  }

  private skip(): void {
    for (;;) {
      const ch = this.src[this.pos];
      if (ch === undefined) return;
      if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f') this.pos++;
      else if (ch === '\\' && this.src[this.pos + 1] === '\n') this.pos += 2;
      else if (ch === '#') {
        while (this.pos < this.src.length && this.src[this.pos] !== '\n') this.pos++;
      } else return;
    }
  }

  private peek(): string | undefined {
    this.skip();
    return this.src[this.pos];
  }

  private eat(ch: string): boolean {
    if (this.peek() === ch) {
      this.pos++;
      return true;
    }
    return false;
  }

  private parseTopLevel(): PyObject {
    const first = this.parseExpr();
    if (this.peek() !== ',') return first;
    const items = [first];
    while (this.eat(',')) {
      const next = this.peek();
      if (next === undefined) break;
      items.push(this.parseExpr());
    }
    return { kind: 'tuple', items };
  }

  /** Comma-separated items up to `close`; returns the items and whether a comma was seen. */
  private parseItems(close: string): { items: PyObject[]; comma: boolean } {
    const items: PyObject[] = [];
    let comma = false;
    while (!this.eat(close)) {
      if (items.length > 0) {
        if (!this.eat(',')) throw new EvalFailure('expected comma');
        comma = true;
        if (this.eat(close)) break;
      }
      items.push(this.parseExpr());
    }
    return { items, comma };
  }

  private parseExpr(): PyObject {
    const ch = this.peek();
    if (ch === '-' || ch === '+' || ch === '~') {
      this.pos++;
      const operand = this.parseExpr();
      if (operand.kind === 'int') return { kind: 'int', value: ch === '-' ? -operand.value : ch === '~' ? -operand.value - 1n : operand.value };
      if (operand.kind === 'bool') {
        const v = operand.value ? 1n : 0n;
        return { kind: 'int', value: ch === '-' ? -v : ch === '~' ? -v - 1n : v };
      }
      if (operand.kind === 'float' && ch !== '~') return { kind: 'float', value: ch === '-' ? -operand.value : operand.value };
      throw new EvalFailure('bad operand for unary operator');
    }
    return this.parseAtom();
  }

  private parseAtom(): PyObject {
    const ch = this.peek();
    if (ch === undefined) throw new EvalFailure('unexpected end');
    if (ch === '(') {
      this.pos++;
      const { items, comma } = this.parseItems(')');
      if (items.length === 1 && !comma) return items[0]!;
      return { kind: 'tuple', items };
    }
    if (ch === '[') {
      this.pos++;
      return { kind: 'list', items: this.parseItems(']').items };
    }
    if (ch === '{') return this.parseBrace();
    if (/[0-9.]/.test(ch)) {
      if (this.src.startsWith('...', this.pos)) {
        this.pos += 3;
        return { kind: 'ellipsis' };
      }
      return this.parseNumber();
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.src.slice(this.pos));
    if (word) {
      const quoteAt = this.src[this.pos + word[0].length];
      if ((quoteAt === "'" || quoteAt === '"') && /^(?:[rRuUbBfF]|[bB][rR]|[rR][bB]|[fF][rR]|[rR][fF])$/.test(word[0])) {
        return this.parseStrings();
      }
      this.pos += word[0].length;
      if (word[0] === 'True') return { kind: 'bool', value: true };
      if (word[0] === 'False') return { kind: 'bool', value: false };
      if (word[0] === 'None') return { kind: 'none' };
      if (word[0] === 'Ellipsis') return { kind: 'ellipsis' };
      throw new EvalFailure(`name '${word[0]}' is not defined`);
    }
    if (ch === "'" || ch === '"') return this.parseStrings();
    throw new EvalFailure('invalid syntax');
  }

  private parseBrace(): PyObject {
    this.pos++;
    if (this.eat('}')) return { kind: 'dict', entries: [] };
    const first = this.parseExpr();
    if (this.eat(':')) {
      const entries: [PyObject, PyObject][] = [[first, this.parseExpr()]];
      while (!this.eat('}')) {
        if (!this.eat(',')) throw new EvalFailure('expected comma');
        if (this.eat('}')) break;
        const key = this.parseExpr();
        if (!this.eat(':')) throw new EvalFailure('expected colon');
        entries.push([key, this.parseExpr()]);
      }
      for (const [key] of entries) if (!isHashable(key)) throw new EvalFailure('unhashable key');
      const unique: [PyObject, PyObject][] = [];
      for (const [k, v] of entries) {
        const at = unique.findIndex(([k2]) => pyEquals(k, k2));
        if (at >= 0) unique[at]![1] = v;
        else unique.push([k, v]);
      }
      return { kind: 'dict', entries: unique };
    }
    const items = [first];
    while (!this.eat('}')) {
      if (!this.eat(',')) throw new EvalFailure('expected comma');
      if (this.eat('}')) break;
      items.push(this.parseExpr());
    }
    if (!items.every(isHashable)) throw new EvalFailure('unhashable set item');
    return { kind: 'set', items: dedupe(items) };
  }

  private parseNumber(): PyObject {
    const rest = this.src.slice(this.pos);
    const radix = /^0(?:[xX](?:_?[0-9a-fA-F])+|[oO](?:_?[0-7])+|[bB](?:_?[01])+)/.exec(rest);
    if (radix) {
      this.pos += radix[0].length;
      this.rejectIdentifierTail();
      return { kind: 'int', value: BigInt(radix[0].replace(/_/g, '').toLowerCase().replace(/^0o/, '0o')) };
    }
    const m = new RegExp(`^(?:${DIGITS}(?:\\.(?:${DIGITS})?)?|\\.${DIGITS})(?:[eE][+-]?${DIGITS})?`).exec(rest);
    if (!m) throw new EvalFailure('invalid number');
    this.pos += m[0].length;
    if (/^[jJ]/.test(this.src.slice(this.pos))) throw new EvalFailure('complex numbers are not supported');
    this.rejectIdentifierTail();
    const text = m[0].replace(/_/g, '');
    if (/[.eE]/.test(text)) return { kind: 'float', value: Number(text) };
    if (/^0\d/.test(text) && /[1-9]/.test(text)) throw new EvalFailure('leading zeros in decimal integer literals are not permitted');
    return { kind: 'int', value: BigInt(text) };
  }

  private rejectIdentifierTail(): void {
    if (/^[A-Za-z_0-9]/.test(this.src.slice(this.pos))) throw new EvalFailure('invalid decimal literal');
  }

  /** One or more adjacent string literals, concatenated. */
  private parseStrings(): PyObject {
    let result: PyObject | null = null;
    for (;;) {
      const ch = this.peek();
      const prefix = ch === undefined ? null : /^(?:[rRuUbBfF]|[bB][rR]|[rR][bB]|[fF][rR]|[rR][fF])?(?=['"])/.exec(this.src.slice(this.pos));
      if (!prefix) break;
      this.pos += prefix[0].length;
      const lit = this.parseOneString(prefix[0].toLowerCase());
      if (result === null) result = lit;
      else if (result.kind !== lit.kind) throw new EvalFailure('cannot mix bytes and nonbytes literals');
      else result = { kind: lit.kind, value: (result as { value: string }).value + (lit as { value: string }).value } as PyObject;
    }
    if (result === null) throw new EvalFailure('expected string');
    return result;
  }

  private parseOneString(prefix: string): PyObject {
    const raw = prefix.includes('r');
    const bytes = prefix.includes('b');
    const fstring = prefix.includes('f');
    const quoteChar = this.src[this.pos]!;
    const triple = this.src.startsWith(quoteChar.repeat(3), this.pos);
    const quote = triple ? quoteChar.repeat(3) : quoteChar;
    this.pos += quote.length;
    let out = '';
    for (;;) {
      if (this.pos >= this.src.length) throw new EvalFailure('unterminated string');
      if (this.src.startsWith(quote, this.pos)) {
        this.pos += quote.length;
        break;
      }
      const ch = this.src[this.pos]!;
      if (ch === '\n' && !triple) throw new EvalFailure('unterminated string');
      if (ch === '\\') {
        const next = this.src[this.pos + 1];
        if (next === undefined) throw new EvalFailure('unterminated string');
        if (raw) {
          out += ch + next;
          this.pos += 2;
          continue;
        }
        out += this.parseEscape(bytes);
        continue;
      }
      if (bytes && ch.charCodeAt(0) > 0x7f) throw new EvalFailure('bytes can only contain ASCII literal characters');
      out += ch;
      this.pos++;
    }
    if (fstring) {
      if (/[{}]/.test(out.replace(/\{\{|\}\}/g, ''))) throw new EvalFailure('f-string fields are not supported');
      out = out.replace(/\{\{/g, '{').replace(/\}\}/g, '}');
    }
    return bytes ? { kind: 'bytes', value: out } : { kind: 'str', value: out };
  }

  private parseEscape(bytes: boolean): string {
    const next = this.src[this.pos + 1]!;
    this.pos += 2;
    const simple: Record<string, string> = { '\n': '', '\\': '\\', "'": "'", '"': '"', a: '\u0007', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\u000b' };
    if (next in simple) return simple[next]!;
    if (/[0-7]/.test(next)) {
      let digits = next;
      while (digits.length < 3 && /[0-7]/.test(this.src[this.pos] ?? '')) digits += this.src[this.pos++];
      const code = parseInt(digits, 8);
      return String.fromCodePoint(bytes ? code & 0xff : code);
    }
    const hexLen = next === 'x' ? 2 : !bytes && next === 'u' ? 4 : !bytes && next === 'U' ? 8 : 0;
    if (hexLen > 0) {
      const hex = this.src.slice(this.pos, this.pos + hexLen);
      if (!new RegExp(`^[0-9a-fA-F]{${hexLen}}$`).test(hex)) throw new EvalFailure('truncated escape');
      this.pos += hexLen;
      const code = parseInt(hex, 16);
      if (code > 0x10ffff) throw new EvalFailure('illegal Unicode character');
      return String.fromCodePoint(code);
    }
    if (!bytes && next === 'N') throw new EvalFailure('named escapes are not supported');
    return `\\${next}`;
  }
}

/** Python `eval(text)` restricted to literals; null where eval would raise (or the input is unsupported). */
export function evalPythonLiteral(text: string): PyObject | null {
  // eval() strips leading spaces and tabs.
  const source = text.replace(/^[ \t]+/, '');
  try {
    return new LiteralParser(source).parseAll();
  } catch (error) {
    if (error instanceof EvalFailure || error instanceof RangeError || error instanceof SyntaxError) return null;
    throw error;
  }
}

/** Python `list(obj)`, or null where it raises TypeError. */
export function pyList(obj: PyObject): PyObject[] | null {
  switch (obj.kind) {
    case 'list':
    case 'tuple':
    case 'set':
      return obj.items;
    case 'dict':
      return obj.entries.map(([k]) => k);
    case 'str':
      return Array.from(obj.value, (ch) => ({ kind: 'str', value: ch }) as PyObject);
    case 'bytes':
      return Array.from(obj.value, (ch) => ({ kind: 'int', value: BigInt(ch.charCodeAt(0) & 0xff) }) as PyObject);
    default:
      return null;
  }
}
