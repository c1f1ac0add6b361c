/** The bodies of the SQL functions that `../functions.ts` registers on every SQLite connection. */
export * from './casts.js';
export * from './comparison.js';
export * from './date-functions.js';
export * from './numeric-functions.js';
export * from './pattern-match.js';
export * from './sql-value.js';
export * from './string-functions.js';
