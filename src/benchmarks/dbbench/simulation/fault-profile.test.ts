import { describe, expect, it } from 'vitest';

import { isHarnessError } from '../../../episode/index.js';
import {
  DEFAULT_DBBENCH_COMPLY,
  DEFAULT_DBBENCH_FAULT_RATES,
  DEFAULT_DBBENCH_SIM_SPLITS,
  parseDbBenchSimQuery,
  parseFaultSpec,
  validateDbBenchSimSettings,
  defaultDbBenchSimSettings,
} from './fault-profile.js';

function configErrorOf(fn: () => unknown): { message: string; field?: string } {
  try {
    fn();
  } catch (error) {
    expect(isHarnessError(error) && error.code).toBe('config_error');
    return error as { message: string; field?: string };
  }
  throw new Error('expected a ConfigError');
}

describe('faults= spec', () => {
  it('changes only the named rates, starting from the defaults', () => {
    expect(parseFaultSpec('backticks:0.3,early_commit:0.1')).toEqual({ ...DEFAULT_DBBENCH_FAULT_RATES, backticks: 0.3, early_commit: 0.1 });
  });

  it('none, all and default apply left to right; aliases and dashes are accepted', () => {
    expect(parseFaultSpec('none')).toEqual({ backticks: 0, early_commit: 0, case_format: 0, give_up: 0, repeat: 0 });
    expect(parseFaultSpec('none,give-up:1,case:0.5')).toEqual({ backticks: 0, early_commit: 0, case_format: 0.5, give_up: 1, repeat: 0 });
    expect(parseFaultSpec('all:0.2,loop:0')).toEqual({ backticks: 0.2, early_commit: 0.2, case_format: 0.2, give_up: 0.2, repeat: 0 });
    expect(parseFaultSpec('none,default')).toEqual(DEFAULT_DBBENCH_FAULT_RATES);
  });

  it('names the bad item and the allowed forms', () => {
    expect(configErrorOf(() => parseFaultSpec('bogus:0.1')).message).toMatch(/Unknown DBBench fault 'bogus'.*Allowed: none, default, all:R, backticks:R/);
    expect(configErrorOf(() => parseFaultSpec('backticks')).message).toMatch(/NAME:RATE/);
    expect(configErrorOf(() => parseFaultSpec('backticks:1.5')).message).toMatch(/between 0 and 1/);
    expect(configErrorOf(() => parseFaultSpec('')).field).toBe('faults');
  });
});

describe('sim:dbbench query', () => {
  it('reads seed, faults, comply and split, keeping defaults for the rest', () => {
    expect(parseDbBenchSimQuery('')).toEqual(defaultDbBenchSimSettings());
    const settings = parseDbBenchSimQuery('?seed=42&faults=none,repeat:0.5&comply=0.6&split=standard.v0.2');
    expect(settings.seed).toBe(42);
    expect(settings.faults.repeat).toBe(0.5);
    expect(settings.faults.backticks).toBe(0);
    expect(settings.comply).toBe(0.6);
    expect(settings.splits).toEqual(['standard.v0.2', ...DEFAULT_DBBENCH_SIM_SPLITS]);
    expect(parseDbBenchSimQuery(new URLSearchParams({ seed: '1' })).comply).toBe(DEFAULT_DBBENCH_COMPLY);
  });

  it('rejects unknown parameters, bad seeds, repeated keys and unknown splits', () => {
    expect(configErrorOf(() => parseDbBenchSimQuery('temperature=1')).message).toMatch(/Unknown parameter 'temperature'.*Allowed: seed, faults, comply, split/);
    expect(configErrorOf(() => parseDbBenchSimQuery('seed=-1')).field).toBe('seed');
    expect(configErrorOf(() => parseDbBenchSimQuery('seed=1.5')).field).toBe('seed');
    expect(configErrorOf(() => parseDbBenchSimQuery('seed=1&seed=2')).message).toMatch(/twice/);
    expect(configErrorOf(() => parseDbBenchSimQuery('split=train')).message).toMatch(/Unknown DBBench split 'train'/);
    expect(configErrorOf(() => parseDbBenchSimQuery('comply=yes')).field).toBe('comply');
  });

  it('validates programmatic settings the same way', () => {
    expect(() => validateDbBenchSimSettings({ ...defaultDbBenchSimSettings(), comply: 2 })).toThrow(/between 0 and 1/);
    expect(() => validateDbBenchSimSettings({ ...defaultDbBenchSimSettings(), splits: [] })).toThrow(/at least one split/);
  });
});
