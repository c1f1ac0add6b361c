import { describe, expect, it } from 'vitest';

import { parseTaskRange } from './parse-task-range.js';

describe('parseTaskRange', () => {
  it('reads ranges, single indices and lists without duplicates', () => {
    expect(parseTaskRange('0:3', 10)).toEqual([0, 1, 2]);
    expect(parseTaskRange('7', 10)).toEqual([7]);
    expect(parseTaskRange('1,3,1,2:4', 10)).toEqual([1, 3, 2]);
    expect(parseTaskRange(':2', 10)).toEqual([0, 1]);
    expect(parseTaskRange('8:', 10)).toEqual([8, 9]);
  });

  it('rejects ranges outside the split and malformed items with the allowed forms', () => {
    expect(() => parseTaskRange('0:61', 60)).toThrow(/past the end.*60 tasks/);
    expect(() => parseTaskRange('abc', 60)).toThrow(/not an index or a range/);
    expect(() => parseTaskRange('5:5', 60)).toThrow(/empty range/);
  });
});
