import { createHash } from 'node:crypto';

import type { DbTable } from './dbbench-task.js';

const keys = new WeakMap<DbTable, string>();

/**
 * A name for a task table's content (SHA-256 of its JSON), worked out once per table object. A database
 * process that has seen a table keeps it under this key, so later episodes on the same table send the key
 * instead of the rows.
 */
export function sqliteTableKey(table: DbTable): string {
  let key = keys.get(table);
  if (key === undefined) {
    key = createHash('sha256').update(JSON.stringify([table.name, table.columns, table.rows])).digest('hex');
    keys.set(table, key);
  }
  return key;
}
