import { describe, expect, it } from 'vitest';

import { DBBENCH_FAULTS } from './fault-profile.js';
import { DBBENCH_FIX_KEYWORDS, faultsNamedByHint } from './hint-keywords.js';

describe('hint keywords', () => {
  it('maps typical harness hints to the mode whose fix they name', () => {
    expect(faultsNamedByHint('Wrap table names that contain spaces in backticks.')).toEqual(['backticks']);
    expect(faultsNamedByHint('Use `My Table` for such names')).toEqual(['backticks']);
    expect(faultsNamedByHint('Execute at least one SQL query before committing.')).toContain('early_commit');
    expect(faultsNamedByHint('Commit values verbatim, keeping their capitalization.')).toEqual(['case_format']);
    expect(faultsNamedByHint('The query failed. Fix the SQL and retry.')).toEqual(['give_up']);
    expect(faultsNamedByHint('You are looping on the same query.')).toEqual(['repeat']);
  });

  it('matches whole words and phrases across spaces, case-insensitively', () => {
    expect(faultsNamedByHint('BACK TICK')).toEqual(['backticks']);
    expect(faultsNamedByHint('showcase staircase')).toEqual([]);
    expect(faultsNamedByHint('try\n again')).toEqual(expect.arrayContaining(['give_up', 'repeat']));
    expect(faultsNamedByHint('Harness blocked this tool call. Choose a safer next step.')).toEqual([]);
  });

  it('has a keyword list for every mode', () => {
    for (const fault of DBBENCH_FAULTS) expect(DBBENCH_FIX_KEYWORDS[fault].length).toBeGreaterThan(3);
  });
});
