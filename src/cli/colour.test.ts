import Table from 'cli-table3';
import { describe, expect, it } from 'vitest';

import { colourEnabled, tableStyle } from './colour.js';

const tty = { isTTY: true };
const pipe = { isTTY: false };

describe('colourEnabled', () => {
  it('colours a terminal and not a pipe', () => {
    expect(colourEnabled(tty, {})).toBe(true);
    expect(colourEnabled(pipe, {})).toBe(false);
  });

  it('never colours with NO_COLOR, even on a terminal; an empty NO_COLOR does not count', () => {
    expect(colourEnabled(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colourEnabled(tty, { NO_COLOR: '' })).toBe(true);
  });

  it('ignores CI (which colours pipes in the table library) and honours FORCE_COLOR and TERM=dumb', () => {
    expect(colourEnabled(pipe, { CI: 'true' })).toBe(false);
    expect(colourEnabled(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(colourEnabled(tty, { FORCE_COLOR: '0' })).toBe(false);
    expect(colourEnabled(tty, { TERM: 'dumb' })).toBe(false);
    expect(colourEnabled(pipe, { NO_COLOR: 'x', FORCE_COLOR: '1' })).toBe(false);
  });
});

describe('tableStyle', () => {
  it('gives a table without escape codes for a pipe, even when the table library would colour', () => {
    const table = new Table({ head: ['a'], style: tableStyle(pipe, {}) });
    table.push(['1']);
    expect(table.toString()).not.toContain('\u001b[');
  });
});
