import { describe, expect, it } from 'vitest';

import { formatDuration, formatNumber, formatSigned } from './format.js';

describe('formatNumber', () => {
  it('drops float noise and trailing zeros', () => {
    expect(formatNumber(0.020000000000000004)).toBe('0.02');
    expect(formatNumber(0.1 + 0.2)).toBe('0.3');
    expect(formatNumber(1)).toBe('1');
    expect(formatNumber(2 / 3)).toBe('0.667');
    expect(formatNumber(-1e-9)).toBe('0');
    expect(formatNumber(Number.NaN)).toBe('NaN');
  });

  it('signs deltas', () => {
    expect(formatSigned(0.1)).toBe('+0.1');
    expect(formatSigned(-0.25)).toBe('-0.25');
    expect(formatSigned(0)).toBe('0');
    expect(formatSigned(1e-9)).toBe('0');
  });
});

describe('formatDuration', () => {
  it('picks the unit by size', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(1234)).toBe('1.2 s');
    expect(formatDuration(12_300)).toBe('12 s');
    expect(formatDuration(185_000)).toBe('3 min 05 s');
    expect(formatDuration(3_720_000)).toBe('1 h 02 min');
    expect(formatDuration(-1)).toBe('?');
  });
});
