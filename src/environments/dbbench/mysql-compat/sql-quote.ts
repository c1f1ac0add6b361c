/** SQLite spellings of identifiers and string literals (a NUL inside a string becomes `char(0)`). */

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function quoteString(value: string): string {
  const body = `'${value.replace(/'/g, "''")}'`;
  return value.includes('\u0000') ? `(${value.split('\u0000').map((p) => `'${p.replace(/'/g, "''")}'`).join(' || char(0) || ')})` : body;
}
