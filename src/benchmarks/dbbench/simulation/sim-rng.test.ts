import { describe, expect, it } from 'vitest';

import { simChance, simDraw, simHash, simIndex } from './sim-rng.js';

describe('keyed draws', () => {
  it('are pure functions of seed, task and name', () => {
    expect(simDraw(1, 'task', 'fault:backticks')).toBe(simDraw(1, 'task', 'fault:backticks'));
    expect(simDraw(1, 'task', 'fault:backticks')).not.toBe(simDraw(2, 'task', 'fault:backticks'));
    expect(simDraw(1, 'task', 'fault:backticks')).not.toBe(simDraw(1, 'other', 'fault:backticks'));
    expect(simDraw(1, 'task', 'fault:backticks')).not.toBe(simDraw(1, 'task', 'fault:repeat'));
    expect(simHash('a', 'b')).not.toBe(simHash('ab'));
  });

  it('are uniform enough and in range', () => {
    const draws = Array.from({ length: 4000 }, (_, i) => simDraw(0, `t${i}`, 'x'));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.02);
    const buckets = new Array<number>(5).fill(0);
    for (let i = 0; i < 4000; i++) buckets[simIndex(3, `t${i}`, 'pick', 5)]!++;
    for (const count of buckets) expect(Math.abs(count - 800)).toBeLessThan(100);
  });

  it('chance is monotone in the rate', () => {
    for (let i = 0; i < 200; i++) {
      if (simChance(5, `t${i}`, 'f', 0.2)) expect(simChance(5, `t${i}`, 'f', 0.3)).toBe(true);
    }
    expect(simChance(5, 't', 'f', 0)).toBe(false);
    expect(simChance(5, 't', 'f', 1)).toBe(true);
    expect(() => simIndex(0, 't', 'f', 0)).toThrow(RangeError);
  });
});
