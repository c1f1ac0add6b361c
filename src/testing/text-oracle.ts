/**
 * Inputs for checking a linear-time text rule against the regex it replaced: short random strings drawn
 * from the characters and words the regex cares about (seeded, so a failure names a reproducible case),
 * and the realistic strings of the shipped data.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** `count` strings of up to `maxPieces` pieces drawn from `pieces` by a seeded generator (mulberry32). */
export function seededTexts(seed: number, pieces: readonly string[], count = 4000, maxPieces = 14): string[] {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const length = Math.floor(next() * (maxPieces + 1));
    let text = '';
    for (let k = 0; k < length; k++) text += pieces[Math.floor(next() * pieces.length)];
    out.push(text);
  }
  return out;
}

/** Every DBBench task line of the shipped files, parsed. */
export function dbbenchTasks(dataDir: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const file of ['dev.jsonl', 'standard.jsonl', 'standard.v0.2.jsonl']) {
    for (const line of readFileSync(path.join(dataDir, 'dbbench', file), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      try {
        out.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // A malformed line is the split builder's to report, not a text case.
      }
    }
  }
  return out;
}

/** The human WebShop goal instructions (the first `limit`). */
export function webshopInstructions(dataDir: string, limit = 3000): string[] {
  const goals = JSON.parse(readFileSync(path.join(dataDir, 'webshop', 'human_goals.json'), 'utf8')) as unknown[];
  return goals.slice(0, limit).filter((g): g is string => typeof g === 'string');
}
