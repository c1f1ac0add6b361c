/**
 * MySQL date and time handling for the functions agents use on DBBench tables (whose dates are text
 * such as `March 19, 1998`): parsing, STR_TO_DATE, DATE_FORMAT and interval arithmetic, in UTC.
 */

export interface DateParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  micro: number;
  /** True when the value carries a time of day (DATETIME rather than DATE). */
  hasTime: boolean;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function isValid(p: DateParts): boolean {
  return (
    p.year >= 0 && p.year <= 9999 && p.month >= 1 && p.month <= 12 && p.day >= 1 && p.day <= daysInMonth(p.year, p.month) &&
    p.hour >= 0 && p.hour <= 23 && p.minute >= 0 && p.minute <= 59 && p.second >= 0 && p.second <= 59
  );
}

function fullYear(text: string): number {
  const y = Number(text);
  if (text.length <= 2) return y < 70 ? 2000 + y : 1900 + y;
  return y;
}

/** MySQL's string → DATE/DATETIME conversion (`2020-01-02`, `2020/1/2 3:04:05`, `20200102`); null if invalid. */
export function parseMysqlDate(text: string): DateParts | null {
  const s = text.trim();
  let m = /^(\d{2,4})[^\d\s](\d{1,2})[^\d\s](\d{1,2})(?:(?:[T ]+)(\d{1,2})[^\d](\d{1,2})(?:[^\d](\d{1,2})(?:\.(\d{1,6}))?)?)?/.exec(s);
  let parts: DateParts | null = null;
  if (m) {
    parts = {
      year: fullYear(m[1]!),
      month: Number(m[2]),
      day: Number(m[3]),
      hour: Number(m[4] ?? 0),
      minute: Number(m[5] ?? 0),
      second: Number(m[6] ?? 0),
      micro: Number((m[7] ?? '').padEnd(6, '0') || 0),
      hasTime: m[4] !== undefined,
    };
  } else if ((m = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2}))?$/.exec(s))) {
    parts = {
      year: Number(m[1]),
      month: Number(m[2]),
      day: Number(m[3]),
      hour: Number(m[4] ?? 0),
      minute: Number(m[5] ?? 0),
      second: Number(m[6] ?? 0),
      micro: 0,
      hasTime: m[4] !== undefined,
    };
  } else if ((m = /^(\d{2})(\d{2})(\d{2})$/.exec(s))) {
    parts = { year: fullYear(m[1]!), month: Number(m[2]), day: Number(m[3]), hour: 0, minute: 0, second: 0, micro: 0, hasTime: false };
  }
  return parts && isValid(parts) ? parts : null;
}

/** A TIME value `[-]H:MM:SS` in seconds, or null. */
export function parseMysqlTime(text: string): number | null {
  const m = /^\s*(-?)(\d{1,3}):(\d{1,2})(?::(\d{1,2}))?/.exec(text);
  if (!m) return null;
  const secs = Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0);
  return m[1] === '-' ? -secs : secs;
}

export function formatTime(totalSeconds: number): string {
  const sign = totalSeconds < 0 ? '-' : '';
  const s = Math.abs(Math.trunc(totalSeconds));
  return `${sign}${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
}

export function formatDate(p: DateParts): string {
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
}

export function formatDateTime(p: DateParts): string {
  const base = `${formatDate(p)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
  return p.micro ? `${base}.${pad(p.micro, 6)}` : base;
}

/** DATE or DATETIME text depending on whether the value has a time part. */
export function formatDateValue(p: DateParts): string {
  return p.hasTime ? formatDateTime(p) : formatDate(p);
}

function toEpochMs(p: DateParts): number {
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second, Math.floor(p.micro / 1000));
}

/** The UTC calendar parts of an epoch time in milliseconds. */
export function fromEpochMs(ms: number, hasTime: boolean, micro = 0): DateParts {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    micro,
    hasTime,
  };
}

export function nowParts(): DateParts {
  return fromEpochMs(Date.now(), true);
}

/** Days since year 0 as MySQL's TO_DAYS counts them. */
export function toDays(p: DateParts): number {
  return Math.round(Date.UTC(p.year, p.month - 1, p.day) / 86_400_000) + 719_528;
}

export function dayOfWeek(p: DateParts): number {
  return new Date(Date.UTC(p.year, p.month - 1, p.day)).getUTCDay();
}

export function dayOfYear(p: DateParts): number {
  return Math.round((Date.UTC(p.year, p.month - 1, p.day) - Date.UTC(p.year, 0, 1)) / 86_400_000) + 1;
}

/** WEEK(date) in the default mode 0: weeks start on Sunday, 0–53. */
export function weekMode0(p: DateParts): number {
  const jan1 = new Date(Date.UTC(p.year, 0, 1)).getUTCDay();
  const firstSunday = jan1 === 0 ? 1 : 8 - jan1;
  const doy = dayOfYear(p);
  return doy < firstSunday ? 0 : Math.floor((doy - firstSunday) / 7) + 1;
}

/** DATE_ADD with an interval in one unit; months clamp the day to the month's end. */
export function addInterval(p: DateParts, amount: number, unit: string): DateParts | null {
  const n = Math.trunc(amount);
  const dayUnit = ['DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR'].includes(unit);
  const hasTime = p.hasTime || !dayUnit;
  if (unit === 'MONTH' || unit === 'QUARTER' || unit === 'YEAR') {
    const months = n * (unit === 'YEAR' ? 12 : unit === 'QUARTER' ? 3 : 1);
    const total = p.year * 12 + (p.month - 1) + months;
    const year = Math.floor(total / 12);
    const month = (total % 12) + 1;
    const out = { ...p, year, month, day: Math.min(p.day, daysInMonth(year, month)), hasTime };
    return isValid(out) ? out : null;
  }
  const ms = { MICROSECOND: 0.001, SECOND: 1000, MINUTE: 60_000, HOUR: 3_600_000, DAY: 86_400_000, WEEK: 604_800_000 }[unit];
  if (ms === undefined) return null;
  const out = fromEpochMs(toEpochMs(p) + amount * ms, hasTime, p.micro);
  return isValid(out) ? out : null;
}

/** TIMESTAMPDIFF(unit, a, b): whole units from a to b. */
export function timestampDiff(unit: string, a: DateParts, b: DateParts): number | null {
  if (unit === 'MONTH' || unit === 'QUARTER' || unit === 'YEAR') {
    let months = (b.year - a.year) * 12 + (b.month - a.month);
    const restA = [a.day, a.hour, a.minute, a.second, a.micro];
    const restB = [b.day, b.hour, b.minute, b.second, b.micro];
    const cmp = restB.map((x, i) => x - restA[i]!).find((x) => x !== 0) ?? 0;
    if (months > 0 && cmp < 0) months--;
    if (months < 0 && cmp > 0) months++;
    return Math.trunc(months / (unit === 'YEAR' ? 12 : unit === 'QUARTER' ? 3 : 1));
  }
  const ms = { MICROSECOND: 0.001, SECOND: 1000, MINUTE: 60_000, HOUR: 3_600_000, DAY: 86_400_000, WEEK: 604_800_000 }[unit];
  if (ms === undefined) return null;
  return Math.trunc((toEpochMs(b) - toEpochMs(a)) / ms);
}

/** DATE_FORMAT(date, format). */
export function dateFormat(p: DateParts, format: string): string {
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const ch = format[i]!;
    if (ch !== '%' || i + 1 >= format.length) {
      out += ch;
      continue;
    }
    const f = format[++i]!;
    const hour12 = p.hour % 12 === 0 ? 12 : p.hour % 12;
    const dow = dayOfWeek(p);
    switch (f) {
      case 'Y': out += pad(p.year, 4); break;
      case 'y': out += pad(p.year % 100); break;
      case 'm': out += pad(p.month); break;
      case 'c': out += String(p.month); break;
      case 'M': out += MONTHS[p.month - 1]; break;
      case 'b': out += MONTHS[p.month - 1]!.slice(0, 3); break;
      case 'd': out += pad(p.day); break;
      case 'e': out += String(p.day); break;
      case 'D': {
        const v = p.day % 100;
        const suffix = v >= 11 && v <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][p.day % 10] ?? 'th';
        out += `${p.day}${suffix}`;
        break;
      }
      case 'H': out += pad(p.hour); break;
      case 'k': out += String(p.hour); break;
      case 'h': case 'I': out += pad(hour12); break;
      case 'l': out += String(hour12); break;
      case 'i': out += pad(p.minute); break;
      case 's': case 'S': out += pad(p.second); break;
      case 'f': out += pad(p.micro, 6); break;
      case 'p': out += p.hour < 12 ? 'AM' : 'PM'; break;
      case 'r': out += `${pad(hour12)}:${pad(p.minute)}:${pad(p.second)} ${p.hour < 12 ? 'AM' : 'PM'}`; break;
      case 'T': out += `${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`; break;
      case 'W': out += DAYS[dow]; break;
      case 'a': out += DAYS[dow]!.slice(0, 3); break;
      case 'w': out += String(dow); break;
      case 'j': out += pad(dayOfYear(p), 3); break;
      case 'U': out += pad(weekMode0(p)); break;
      default: out += f;
    }
  }
  return out;
}

function matchName(input: string, names: readonly string[], abbreviated: boolean): { index: number; length: number } | null {
  const lower = input.toLowerCase();
  for (let i = 0; i < names.length; i++) {
    const name = abbreviated ? names[i]!.slice(0, 3) : names[i]!;
    if (lower.startsWith(name.toLowerCase())) return { index: i, length: name.length };
  }
  return null;
}

/**
 * STR_TO_DATE(text, format): MySQL's lenient matcher (spaces skipped before each format element, numbers
 * may be shorter than their width). Returns null when the text does not match or a date part is zero.
 */
export function strToDate(text: string, format: string): DateParts | null {
  const p: DateParts = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, micro: 0, hasTime: false };
  let hasDate = false;
  let pm: boolean | null = null;
  let v = 0;
  const num = (maxLen: number): number | null => {
    const m = new RegExp(`^[+-]?\\d{1,${maxLen}}`).exec(text.slice(v));
    if (!m) return null;
    v += m[0].length;
    return Number(m[0]);
  };
  for (let f = 0; f < format.length && v < text.length; f++) {
    while (v < text.length && /\s/.test(text[v]!)) v++;
    if (v >= text.length) break;
    const ch = format[f]!;
    if (ch !== '%' || f + 1 >= format.length) {
      if (/\s/.test(ch)) continue;
      if (text[v] !== ch) return null;
      v++;
      continue;
    }
    const spec = format[++f]!;
    let n: number | null = 0;
    switch (spec) {
      case 'Y': n = num(4); if (n !== null) { p.year = n < 100 && v <= 2 ? fullYear(String(n)) : n; hasDate = true; } break;
      case 'y': n = num(2); if (n !== null) { p.year = fullYear(pad(n)); hasDate = true; } break;
      case 'm': case 'c': n = num(2); if (n !== null) { p.month = n; hasDate = true; } break;
      case 'd': case 'e': n = num(2); if (n !== null) { p.day = n; hasDate = true; } break;
      case 'D': n = num(2); if (n !== null) { p.day = n; hasDate = true; v += /^(st|nd|rd|th)/i.test(text.slice(v)) ? 2 : 0; } break;
      case 'M': case 'b': {
        const hit = matchName(text.slice(v), MONTHS, spec === 'b');
        if (!hit) return null;
        p.month = hit.index + 1;
        v += hit.length;
        hasDate = true;
        break;
      }
      case 'W': case 'a': {
        const hit = matchName(text.slice(v), DAYS, spec === 'a');
        if (!hit) return null;
        v += hit.length;
        break;
      }
      case 'H': case 'k': case 'h': case 'I': case 'l': n = num(2); if (n !== null) { p.hour = n; p.hasTime = true; } break;
      case 'i': n = num(2); if (n !== null) { p.minute = n; p.hasTime = true; } break;
      case 's': case 'S': n = num(2); if (n !== null) { p.second = n; p.hasTime = true; } break;
      case 'f': n = num(6); if (n !== null) p.micro = n; break;
      case 'p': {
        const ampm = /^(AM|PM)/i.exec(text.slice(v));
        if (!ampm) return null;
        pm = ampm[1]!.toUpperCase() === 'PM';
        v += 2;
        break;
      }
      case 'T': case 'r': {
        const m = /^(\d{1,2}):(\d{1,2}):(\d{1,2})(?:\s*(AM|PM))?/i.exec(text.slice(v));
        if (!m) return null;
        p.hour = Number(m[1]);
        p.minute = Number(m[2]);
        p.second = Number(m[3]);
        if (m[4]) pm = m[4].toUpperCase() === 'PM';
        p.hasTime = true;
        v += m[0].length;
        break;
      }
      case 'j': n = num(3); break;
      case '%': if (text[v] !== '%') return null; v++; break;
      default: n = num(2);
    }
    if (n === null) return null;
  }
  if (pm !== null) {
    if (p.hour > 12 || p.hour < 1) return null;
    p.hour = (p.hour % 12) + (pm ? 12 : 0);
  }
  if (!hasDate) return null;
  return isValid(p) ? p : null;
}
