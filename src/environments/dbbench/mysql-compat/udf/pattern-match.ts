import { udfError } from '../errors.js';
import { foldText } from '../mysql-values.js';
import { chars, toStr, type SqlValue } from './sql-value.js';

/** LIKE and the REGEXP family, with compiled patterns cached. */

const likeCache = new Map<string, RegExp>();

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

export function like(binary: boolean, x: SqlValue, pattern: SqlValue, escape?: SqlValue): number | null {
  const subject = toStr(x);
  const pat = toStr(pattern);
  if (subject === null || pat === null) return null;
  const esc = escape === undefined ? '\\' : (toStr(escape) ?? '\\');
  const key = `${binary ? 1 : 0}\u0000${esc}\u0000${pat}`;
  let re = likeCache.get(key);
  if (!re) {
    let source = '';
    let literal = '';
    const flush = (): void => {
      source += escapeRegex(binary ? literal : foldText(literal));
      literal = '';
    };
    const list = chars(pat);
    for (let i = 0; i < list.length; i++) {
      const ch = list[i]!;
      if (esc !== '' && ch === esc && i + 1 < list.length) {
        literal += list[++i];
        continue;
      }
      if (ch === '%' || ch === '_') {
        flush();
        source += ch === '%' ? '.*' : '.';
        continue;
      }
      literal += ch;
    }
    flush();
    re = new RegExp(`^${source}$`, 'su');
    if (likeCache.size > 5000) likeCache.clear();
    likeCache.set(key, re);
  }
  return re.test(binary ? subject : foldText(subject)) ? 1 : 0;
}

const POSIX_CLASSES: Record<string, string> = {
  alpha: '\\p{L}',
  digit: '0-9',
  alnum: '\\p{L}\\p{N}',
  upper: '\\p{Lu}',
  lower: '\\p{Ll}',
  space: '\\s',
  blank: ' \\t',
  punct: '\\p{P}',
  xdigit: '0-9A-Fa-f',
  cntrl: '\\p{Cc}',
  print: '\\P{C}',
  graph: '\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}',
};

const regexCache = new Map<string, RegExp>();

/** Compiles an ICU-style pattern as MySQL 8 does (case-insensitive unless `binary` or match type `c`). */
export function compileRegex(pattern: string, caseSensitive: boolean, global = false): RegExp {
  const key = `${caseSensitive ? 1 : 0}${global ? 1 : 0}\u0000${pattern}`;
  const hit = regexCache.get(key);
  if (hit) return hit;
  let source = pattern
    .replace(/\[\[:<:\]\]/g, '\\b')
    .replace(/\[\[:>:\]\]/g, '\\b')
    .replace(/\[:(\w+):\]/g, (m, name: string) => POSIX_CLASSES[name] ?? m)
    .replace(/^\(\?i\)/, '');
  source = source.replace(/\\Q(.*?)(?:\\E|$)/g, (_m, lit: string) => escapeRegex(lit));
  const flags = `${caseSensitive ? '' : 'i'}${global ? 'g' : ''}`;
  let re: RegExp;
  try {
    re = new RegExp(source, `${flags}u`);
  } catch {
    try {
      re = new RegExp(source, flags);
    } catch {
      throw udfError(3685, 'HY000', 'Illegal argument to a regular expression.');
    }
  }
  if (regexCache.size > 2000) regexCache.clear();
  regexCache.set(key, re);
  return re;
}

export function regexpLike(binary: boolean, x: SqlValue, pattern: SqlValue, matchType?: SqlValue): number | null {
  const subject = toStr(x);
  const pat = toStr(pattern);
  if (subject === null || pat === null) return null;
  const mt = toStr(matchType ?? null) ?? '';
  const caseSensitive = binary || (mt.includes('c') && !mt.includes('i'));
  return compileRegex(pat, caseSensitive).test(subject) ? 1 : 0;
}

export function regexpReplace(x: SqlValue, pattern: SqlValue, replacement: SqlValue): string | null {
  const s = toStr(x);
  const p = toStr(pattern);
  const r = toStr(replacement);
  if (s === null || p === null || r === null) return null;
  return s.replace(compileRegex(p, false, true), r.replace(/\$/g, '$$$$').replace(/\\(\d)/g, '$$$1'));
}

export function regexpSubstr(x: SqlValue, pattern: SqlValue): string | null {
  const s = toStr(x);
  const p = toStr(pattern);
  if (s === null || p === null) return null;
  const m = compileRegex(p, false).exec(s);
  return m ? m[0] : null;
}

export function regexpInstr(x: SqlValue, pattern: SqlValue): number | null {
  const s = toStr(x);
  const p = toStr(pattern);
  if (s === null || p === null) return null;
  const m = compileRegex(p, false).exec(s);
  return m ? chars(s.slice(0, m.index)).length + 1 : 0;
}
