import { describe, expect, it } from 'vitest';

import { at2Cell, at2Heading, at2Text, strategyNote, strategyOf } from './strategy-parts.js';

const s = { tasks: 5, success1: 2, success2: 3, successAt1: 0.4, successAt2: 0.6, retried: 3, rescued: 1, reflectionErrors: 0, retryInfra: 0 };

describe('strategy parts of the report', () => {
  it('names no strategy for the plain target and renders nothing for it', () => {
    expect(strategyOf({})).toBeNull();
    expect(strategyOf(undefined)).toBeNull();
    expect(strategyOf({ strategy: 'react' })).toBe('react');
    expect(String(strategyNote(null, 'x'))).toBe('');
  });

  it('labels success@2 as its own, unranked figure; only Reflection\'s note mentions it', () => {
    expect(at2Heading('patched')).toBe('patched success@2 — not ranked');
    expect(at2Text(s)).toBe('3/5 (60.0%); 1/3 rescued');
    expect(String(at2Cell(s, 'x', 'a/report.html'))).toBe('<td class="num at2" data-cell="x"><a href="a/report.html">3/5 (60.0%); 1/3 rescued</a></td>');
    expect(String(at2Cell(null, 'x'))).toContain('>—<');
    expect(String(strategyNote('reflection', 'every run'))).toMatch(/success@2 — not ranked.*never paired or ranked/);
    expect(String(strategyNote('react', 'every run'))).not.toContain('success@2');
  });
});
