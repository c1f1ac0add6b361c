import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import { loadDbBenchSplit, parseJsonKeepingFloats } from './load-tasks.js';

describe('DBBench task loading', () => {
  it('keeps floats apart from ints, as Python does', () => {
    expect(parseJsonKeepingFloats(String.raw`[1, 2.0, -3e5, "4.0", "a\"b 1.5", "c\\"]`)).toEqual([1, { type: 'float', value: 2 }, { type: 'float', value: -300000 }, '4.0', 'a"b 1.5', 'c\\']);
  });

  it('loads every shipped split with the documented task mix', () => {
    const dataDir = resolveDataDir();
    const dev = loadDbBenchSplit(dataDir, 'dev');
    const std = loadDbBenchSplit(dataDir, 'standard');
    const v02 = loadDbBenchSplit(dataDir, 'standard.v0.2');
    expect([dev.length, std.length, v02.length]).toEqual([60, 300, 300]);
    expect(dev.filter((t) => t.kind === 'mutation').length).toBe(40);
    expect(std.filter((t) => t.kind === 'mutation').length).toBe(200);
    expect(std.every((t) => t.kind === 'query' || /^\[\('[0-9a-f]{32}',\)\]$/.test(t.answerMd5 ?? ''))).toBe(true);
    const floats = std.flatMap((t) => t.table.rows.flat()).filter((c) => typeof c === 'object' && c !== null);
    expect(floats.length).toBeGreaterThan(0);
  });

  it('names the split choices for an unknown split', () => {
    expect(() => loadDbBenchSplit(resolveDataDir(), 'test')).toThrow(/Allowed: dev, standard, standard.v0.2/);
  });
});
