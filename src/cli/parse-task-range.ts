import { ConfigError } from '../episode/index.js';

/**
 * Parses a task selection: `0:60` (half-open range), `7`, `1,3,9`, or a mix such as `0:5,10:12`.
 * Indices are absolute positions in the split file and must lie inside it.
 */
export function parseTaskRange(text: string, size: number): number[] {
  const out: number[] = [];
  const seen = new Set<number>();
  const bad = (why: string) =>
    new ConfigError({ message: `--tasks '${text}': ${why}. Use START:END (end exclusive), single indices, or a comma list; the split has ${size} tasks (0..${size - 1}).`, field: 'tasks' });
  for (const part of text.split(',').map((p) => p.trim())) {
    if (part === '') throw bad('empty item');
    const m = /^(\d*):(\d*)$/.exec(part);
    let lo: number;
    let hi: number;
    if (m) {
      lo = m[1] === '' ? 0 : Number(m[1]);
      hi = m[2] === '' ? size : Number(m[2]);
    } else if (/^\d+$/.test(part)) {
      lo = Number(part);
      hi = lo + 1;
    } else {
      throw bad(`'${part}' is not an index or a range`);
    }
    if (hi <= lo) throw bad(`'${part}' is an empty range`);
    if (hi > size) throw bad(`'${part}' goes past the end of the split`);
    for (let i = lo; i < hi; i++) {
      if (!seen.has(i)) {
        seen.add(i);
        out.push(i);
      }
    }
  }
  return out;
}
