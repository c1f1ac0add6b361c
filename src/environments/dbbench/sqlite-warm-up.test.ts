import { describe, expect, it } from 'vitest';

import { SqliteEngine } from './sqlite-engine.js';
import { WARM_UP_STATEMENTS } from './sqlite-warm-up.js';

describe('the engine warm-up', () => {
  it('runs each of its statements in this thread, as bounded statements, so that each one compiles its code', () => {
    const engine = new SqliteEngine({ name: 'warm_up', columns: ['name', 'n'], rows: [['a', '1'], ['b', 2]] }, { databaseName: 'warm_up' });
    try {
      const kinds = WARM_UP_STATEMENTS.map((sql) => {
        const outcome = engine.executeBounded(sql, 1_000);
        return outcome === 'not-bounded' ? outcome : outcome.kind;
      });
      // Every statement answers here; the last one is the error an agent's misspelt column gets.
      expect(kinds).toEqual([...WARM_UP_STATEMENTS.slice(0, -1).map(() => 'rows'), 'error']);
    } finally {
      engine.close();
    }
  });
});
