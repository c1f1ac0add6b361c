import { describe, expect, it } from 'vitest';

import { specForBench } from './experiment-cells.js';

describe('specForBench', () => {
  it('turns sim:any into each benchmark\'s simulated target and leaves other SPECs alone', () => {
    expect(specForBench('sim:any', 'alfworld')).toBe('sim:alfworld');
    expect(specForBench('sim:any?seed=2&comply=0.5', 'dbbench')).toBe('sim:dbbench?seed=2&comply=0.5');
    expect(specForBench('sim:anything', 'dbbench')).toBe('sim:anything');
    expect(specForBench('openai:http://h/v1#m', 'webshop')).toBe('openai:http://h/v1#m');
  });
});
