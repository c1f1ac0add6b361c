import { describe, expect, it } from 'vitest';

import { createInstanceMasker, instanceLabel } from './mask-instances.js';

describe('instance masking', () => {
  it('gives each distinct instance of a name its own letter, in order of first appearance, across calls', () => {
    const mask = createInstanceMasker();
    expect(mask('you see a cabinet 6, a cabinet 5, a sinkbasin 1, and a cabinet 6.')).toBe('you see a cabinet [a], a cabinet [b], a sinkbasin [a], and a cabinet [a].');
    expect(mask('go to cabinet 5')).toBe('go to cabinet [b]');
    expect(mask('take apple 2 from cabinet 11')).toBe('take apple [a] from cabinet [c]');
  });

  it('starts afresh for another trace', () => {
    createInstanceMasker()('cabinet 1 cabinet 2');
    expect(createInstanceMasker()('cabinet 2')).toBe('cabinet [a]');
  });

  it('leaves numbers that are not instances alone', () => {
    const mask = createInstanceMasker();
    const text = 'You arrive at loc 12. step 3 of round 4; "go to desk 1" x3; Page 1; 20 actions; 4000 chars';
    expect(mask(text)).toBe('You arrive at loc 12. step 3 of round 4; "go to desk [a]" x3; Page 1; 20 actions; 4000 chars');
  });

  it('labels a…z, then aa, ab', () => {
    expect([0, 1, 25, 26, 27, 51, 52].map(instanceLabel)).toEqual(['a', 'b', 'z', 'aa', 'ab', 'az', 'ba']);
  });
});
