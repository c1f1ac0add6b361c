import { describe, expect, it } from 'vitest';

import { addInterval, dateFormat, formatDateValue, parseMysqlDate, strToDate, timestampDiff, type DateParts } from './mysql-dates.js';

const d = (text: string): DateParts => parseMysqlDate(text)!;

describe('MySQL date handling', () => {
  it('parses the string forms MySQL accepts and rejects the rest', () => {
    expect(formatDateValue(d('2020-01-02'))).toBe('2020-01-02');
    expect(formatDateValue(d('2020/1/2 3:04:05'))).toBe('2020-01-02 03:04:05');
    expect(formatDateValue(d('20200102'))).toBe('2020-01-02');
    expect(formatDateValue(d('99-12-31'))).toBe('1999-12-31');
    expect(parseMysqlDate('March 19, 1998')).toBeNull();
    expect(parseMysqlDate('2021-02-29')).toBeNull();
  });

  it('implements STR_TO_DATE leniently, like MySQL', () => {
    expect(formatDateValue(strToDate('March 19, 1998', '%M %d, %Y')!)).toBe('1998-03-19');
    expect(formatDateValue(strToDate('5/6/2020 3:04 PM', '%m/%d/%Y %h:%i %p')!)).toBe('2020-05-06 15:04:00');
    expect(formatDateValue(strToDate('Jan 2nd, 2020', '%b %D, %Y')!)).toBe('2020-01-02');
    expect(strToDate('2020', '%Y')).toBeNull();
    expect(strToDate('not a date', '%M %d, %Y')).toBeNull();
  });

  it('formats with DATE_FORMAT specifiers', () => {
    expect(dateFormat(d('2020-03-05 14:07:09'), '%W %M %e %Y %H:%i:%s %p %j %a %b %y %D')).toBe('Thursday March 5 2020 14:07:09 PM 065 Thu Mar 20 5th');
  });

  it('adds intervals with month-end clamping and diffs whole units', () => {
    expect(formatDateValue(addInterval(d('2020-01-31'), 1, 'MONTH')!)).toBe('2020-02-29');
    expect(formatDateValue(addInterval(d('2020-03-01'), -1, 'DAY')!)).toBe('2020-02-29');
    expect(formatDateValue(addInterval(d('2020-03-01'), 90, 'MINUTE')!)).toBe('2020-03-01 01:30:00');
    expect(timestampDiff('MONTH', d('2020-01-31'), d('2020-03-01'))).toBe(1);
    expect(timestampDiff('YEAR', d('2000-06-01'), d('2020-05-31'))).toBe(19);
    expect(timestampDiff('DAY', d('2020-03-01'), d('2020-02-01'))).toBe(-29);
  });
});
