import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import { DbBenchTaskFileError, loadDbBenchFile, loadDbBenchSplit, loadReadableDbBenchSplits, parseJsonKeepingFloats } from './load-tasks.js';

const root = mkdtempSync(path.join(tmpdir(), 'dbbench-load-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

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

  it('a bad line is a DbBenchTaskFileError naming file:line, and breaks only the splits of that file', () => {
    const dataDir = resolveDataDir();
    const data = path.join(root, 'data');
    mkdirSync(path.join(data, 'dbbench'), { recursive: true });
    symlinkSync(path.join(dataDir, 'dbbench', 'dev.jsonl'), path.join(data, 'dbbench', 'dev.jsonl'));
    const lines = readFileSync(path.join(dataDir, 'dbbench', 'standard.jsonl'), 'utf8').split('\n');
    const bad = path.join(data, 'dbbench', 'standard.jsonl');
    writeFileSync(bad, [...lines.slice(0, 9), '{"description": 3, "label": []}', ...lines.slice(9)].join('\n'));
    let error: unknown;
    try {
      loadDbBenchFile(bad);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DbBenchTaskFileError);
    expect(error).toMatchObject({ code: 'config_error', file: bad, line: 10, message: `${bad}:10: field 'description' must be a string` });
    const { loaded, unreadable } = loadReadableDbBenchSplits(data, ['dev', 'standard', 'standard.v0.2']);
    expect(loaded.map((l) => [l.split, l.tasks.length])).toEqual([['dev', 60]]);
    expect(unreadable.map((u) => [u.split, u.error.line])).toEqual([['standard', 10], ['standard.v0.2', undefined]]);
    expect(unreadable[1]!.error.message).toMatch(/Cannot read DBBench task file .*standard\.v0\.2\.jsonl/);
  });
});
