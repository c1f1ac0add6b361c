/**
 * A PDDL s-expression: a symbol or a parenthesised list. Symbols are lower-cased as Fast Downward's reader
 * does, so `SinkBasin_bar_…` and `sinkbasin_bar_…` are the same entity everywhere after parsing.
 */
export type SExpression = string | SExpression[];

/** A parse failure: what went wrong and the 1-based line it was found on. */
export interface SExpressionError {
  message: string;
  line: number;
}

export type SExpressionResult = { ok: true; value: SExpression[] } | { ok: false; error: SExpressionError };

/**
 * Reads every top-level s-expression in `text`. Comments run from `;` to the end of the line. Tokens are
 * split on whitespace and parentheses only, exactly like Fast Downward's tokenizer: a comma stays part of
 * its token (`location,` is one symbol), which matters for the Alfred domain (see parse-domain.ts).
 */
export function parseSExpressions(text: string): SExpressionResult {
  const stack: SExpression[][] = [[]];
  const openLines: number[] = [];
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\n') {
      line++;
      i++;
    } else if (c === ';') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '(') {
      stack.push([]);
      openLines.push(line);
      i++;
    } else if (c === ')') {
      if (stack.length === 1) return { ok: false, error: { message: "unexpected ')'", line } };
      const done = stack.pop()!;
      openLines.pop();
      stack[stack.length - 1]!.push(done);
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
      i++;
    } else {
      let j = i;
      while (j < text.length && !isDelimiter(text[j]!)) j++;
      stack[stack.length - 1]!.push(text.slice(i, j).toLowerCase());
      i = j;
    }
  }
  if (stack.length > 1) return { ok: false, error: { message: "unclosed '('", line: openLines[openLines.length - 1] ?? line } };
  return { ok: true, value: stack[0]! };
}

function isDelimiter(c: string): boolean {
  return c === '(' || c === ')' || c === ';' || c === ' ' || c === '\n' || c === '\t' || c === '\r' || c === '\f' || c === '\v';
}

export function isList(x: SExpression | undefined): x is SExpression[] {
  return Array.isArray(x);
}

export function isSymbol(x: SExpression | undefined): x is string {
  return typeof x === 'string';
}

/** Short text of an expression for error messages. */
export function showSExpression(x: SExpression, max = 80): string {
  const text = typeof x === 'string' ? x : `(${x.map((y) => showSExpression(y, max)).join(' ')})`;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
