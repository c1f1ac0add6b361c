import { describe, expect, it } from 'vitest';

import { ConfigError } from '../episode/index.js';
import { integerProblem, integerValue, readIntegerOption } from './integer-option.js';
import { intOption } from './options.js';

describe('the shared integer reader', () => {
  it('reads integers written as integers, within bounds', () => {
    expect(integerValue('7')).toBe(7);
    expect(integerValue(' -3 ')).toBe(-3);
    expect(integerValue(12, { min: 1, max: 20 })).toBe(12);
    for (const text of ['1.5', '1e3', '0x10', '', ' ', 'abc', '2.0', 'NaN', 'Infinity']) expect(integerValue(text), text).toBeUndefined();
    expect(integerValue(1.5)).toBeUndefined();
    expect(integerValue('0', { min: 1 })).toBeUndefined();
    expect(integerValue('21', { min: 1, max: 20 })).toBeUndefined();
    expect(integerValue('9007199254740993')).toBeUndefined();
  });

  it('names the flag and what is required', () => {
    expect(integerProblem('goalSeed', '1.5')).toBe("--goal-seed must be an integer, got '1.5'.");
    expect(integerProblem('sqliteWorkers', '0', { min: 1 })).toBe("--sqlite-workers must be an integer >= 1, got '0'.");
    expect(integerProblem('--attempts', 'x', { min: 1, max: 20 })).toBe("--attempts must be an integer from 1 to 20, got 'x'.");
    expect(() => readIntegerOption('seed', 'abc', { min: 0 })).toThrow(ConfigError);
    expect(() => readIntegerOption('seed', 'abc', { min: 0 })).toThrow("--seed must be an integer >= 0, got 'abc'.");
  });

  it('is what the command schemas use', () => {
    const schema = intOption('batchSize', 1, 100);
    expect(schema.parse('10')).toBe(10);
    const result = schema.safeParse('2.5');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(integerProblem('batchSize', '2.5', { min: 1, max: 100 }));
  });
});
