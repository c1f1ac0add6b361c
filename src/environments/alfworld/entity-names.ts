/**
 * ALFWorld's object-naming rule (its `Demangler`), applied to the lower-cased entity ids of one game:
 *
 * 1. sort the ids as strings;
 * 2. an id's base name is the text before its first `_bar_`, with `basin` appended when the id contains
 *    "basin" anywhere (`sink_bar_…_bar_sinkbasin` → `sinkbasin`);
 * 3. count the ids per base name;
 * 4. walk the sorted ids and hand out numbers from the top: the first id of a base name gets its count,
 *    the last gets 1 (hence "a drawer 3, a drawer 2, a drawer 1" in id order);
 * 5. ids without `_bar_` (types, `agent1`) keep their text and get no number.
 *
 * Only entities that appear in some fact are named: TextWorld builds its entity table from the facts, so
 * an object declared in `:objects` but mentioned by no fact takes no number from its siblings.
 */
export function demangleEntityNames(ids: Iterable<string>): Map<string, string> {
  const sorted = [...new Set(ids)].sort(compareCodeUnits);
  const counts = new Map<string, number>();
  for (const id of sorted) {
    const base = baseName(id);
    if (base !== undefined) counts.set(base, (counts.get(base) ?? 0) + 1);
  }
  const names = new Map<string, string>();
  for (const id of sorted) {
    const base = baseName(id);
    if (base === undefined) {
      names.set(id, readable(id));
      continue;
    }
    const n = counts.get(base)!;
    counts.set(base, n - 1);
    names.set(id, `${base} ${n}`);
  }
  return names;
}

function baseName(id: string): string | undefined {
  const at = id.indexOf('_bar_');
  if (at < 0) return undefined;
  const base = readable(id.slice(0, at));
  return id.includes('basin') ? `${base}basin` : base;
}

function readable(text: string): string {
  return text.replaceAll('_minus_', '-').replaceAll('_plus_', '+').replaceAll('_dot_', '.').replaceAll('_comma_', ',');
}

/** Python's `sorted` order for str (code points; the ids are ASCII, so UTF-16 units agree). */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
