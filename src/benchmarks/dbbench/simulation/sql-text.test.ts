import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../../config/data-dir.js';
import type { DbBenchTask } from '../../../environments/dbbench/dbbench-task.js';
import { loadDbBenchSplit } from '../../../environments/dbbench/load-tasks.js';
import { cellText } from './answer-values.js';
import { defaultDbBenchSimSettings } from './fault-profile.js';
import {
  applyValueEdit,
  findValueEdits,
  quoteIdent,
  renderTableRef,
  repairStatement,
  restyleTableRef,
  spoilValue,
  tableNeedsQuoting,
  tokenizeSql,
} from './sql-text.js';
import { createDbBenchTaskIndex } from './task-index.js';
import { buildTaskPlan } from './task-plan.js';

const dataDir = resolveDataDir();
const tasks = [...loadDbBenchSplit(dataDir, 'dev'), ...loadDbBenchSplit(dataDir, 'standard')];

/** A plain SQLite copy of the task's table (every column TEXT), as a sanity check for statement texts. */
function openTable(task: DbBenchTask): Database.Database {
  const db = new Database(':memory:');
  const cols = task.table.columns.map((c) => `${quoteIdent(c)} TEXT`).join(', ');
  db.exec(`CREATE TABLE ${quoteIdent(task.table.name)} (${cols})`);
  const insert = db.prepare(`INSERT INTO ${quoteIdent(task.table.name)} VALUES (${task.table.columns.map(() => '?').join(', ')})`);
  for (const row of task.table.rows) insert.run(...row.map((cell) => cellText(cell) ?? null));
  return db;
}

function snapshot(db: Database.Database, table: string): string[] {
  return (db.prepare(`SELECT * FROM ${quoteIdent(table)}`).raw().all() as unknown[][]).map((row) => JSON.stringify(row.map(String))).sort();
}

function runs(db: Database.Database, sql: string): boolean {
  try {
    db.prepare(sql).run();
    return true;
  } catch {
    return false;
  }
}

describe('quoting', () => {
  it('quotes identifiers and knows which table names need it', () => {
    expect(quoteIdent('a`b')).toBe('`a``b`');
    expect(tableNeedsQuoting('US Ambassadors')).toBe(true);
    expect(tableNeedsQuoting('CSI:Miami')).toBe(true);
    expect(tableNeedsQuoting('race_results')).toBe(false);
    expect(renderTableRef('Football Team Results', 'underscored')).toBe('Football_Team_Results');
  });

  it('restyles only the backtick-quoted table reference', () => {
    const sql = "UPDATE `Golf Champions` SET `Total` = '270' WHERE `Player` = 'Tiger Woods'";
    expect(restyleTableRef(sql, 'Golf Champions', 'bare')).toBe("UPDATE Golf Champions SET `Total` = '270' WHERE `Player` = 'Tiger Woods'");
    expect(restyleTableRef(sql, 'Golf Champions', 'backtick')).toBe(sql);
    expect(restyleTableRef('UPDATE t SET a = 1', 'Golf Champions', 'bare')).toBeUndefined();
  });
});

describe('value edits', () => {
  it('spoils case, trailing zeros and thousands separators', () => {
    expect(spoilValue('Armadale')).toEqual([{ altered: 'armadale', how: 'lowercase' }]);
    expect(spoilValue('heath + grove')).toEqual([{ altered: 'Heath + grove', how: 'capitalize' }]);
    expect(spoilValue('7.400')).toEqual([{ altered: '7.4', how: 'trailing_zeros' }]);
    expect(spoilValue('2.0')).toEqual([{ altered: '2', how: 'trailing_zeros' }]);
    expect(spoilValue('12,000')).toEqual([{ altered: '12000', how: 'thousands' }]);
    expect(spoilValue('1990')).toEqual([]);
  });

  it('edits INSERT values with their column and UPDATE SET values only', () => {
    const insert = "INSERT INTO `T` (`A b`, C) VALUES ('X', 5, 'it''s')";
    const edits = findValueEdits(insert, ['A b', 'C', 'D']);
    expect(edits.map((e) => [e.column, e.original, e.altered])).toEqual([
      ['A b', 'X', 'x'],
      [undefined, "it's", "It's"],
    ]);
    expect(applyValueEdit(insert, edits[0]!)).toBe("INSERT INTO `T` (`A b`, C) VALUES ('x', 5, 'it''s')");
    expect(repairStatement('`T`', edits[0]!)).toBe("UPDATE `T` SET `A b` = 'X' WHERE `A b` = 'x' AND `C` = '5'");
    const update = "UPDATE `T` SET `E Score` = '7.400', Total='Yes' WHERE `Nation` = 'Japan'";
    const updateEdits = findValueEdits(update, []);
    expect(updateEdits.map((e) => [e.column, e.altered])).toEqual([
      ['E Score', '7.4'],
      ['Total', 'yes'],
    ]);
    expect(repairStatement('`T`', updateEdits[0]!)).toBe(
      "UPDATE `T` SET `E Score` = '7.400' WHERE `E Score` = '7.4' AND `Total` = 'Yes' AND (`Nation` = 'Japan')",
    );
    // A WHERE clause on a column the statement sets no longer finds the written rows, so it is left out.
    const moved = findValueEdits("UPDATE t SET Year = '2015', Team = 'Ajax' WHERE Year = '2014';", []);
    expect(moved.map((e) => e.rowConditions)).toEqual([["`Year` = '2015'"]]);
  });

  it('tokenizes backslash literals without offering them for edits', () => {
    const tokens = tokenizeSql("INSERT INTO t VALUES ('a\\'b', 'Cd')");
    expect(tokens.filter((t) => t.kind === 'string').map((t) => (t.kind === 'string' ? t.value : null))).toEqual([undefined, 'Cd']);
  });

  it('on SQLite, a spoiled gold write followed by its repair equals the gold write', () => {
    let checked = 0;
    for (const task of tasks.filter((t) => t.kind === 'mutation')) {
      const gold = task.label[0]!;
      for (const edit of findValueEdits(gold, task.table.columns).filter((e) => e.column !== undefined)) {
        const expected = openTable(task);
        if (!runs(expected, gold)) break; // a MySQL-only statement; the real backend's compat layer handles it
        const actual = openTable(task);
        expect(runs(actual, applyValueEdit(gold, edit))).toBe(true);
        expect(snapshot(actual, task.table.name)).not.toEqual(snapshot(expected, task.table.name));
        expect(runs(actual, repairStatement(quoteIdent(task.table.name), edit)!)).toBe(true);
        expect(snapshot(actual, task.table.name), `${task.index}: ${gold}`).toEqual(snapshot(expected, task.table.name));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(300);
  });
});

describe('statements of the plan on SQLite', () => {
  const index = createDbBenchTaskIndex(tasks.map((task) => ({ task, split: 'standard' as const })));
  const settings = defaultDbBenchSimSettings();

  it('runs the inspection, verification and answer queries; the probe and bare table names fail', () => {
    for (const task of tasks) {
      const entry = index.lookup(`Additional table information about the question: ${task.addDescription}\nQuestion: ${task.description}\n`)!;
      const plan = buildTaskPlan(entry, settings);
      const db = openTable(task);
      const ref = quoteIdent(task.table.name);
      const select = (sql: string): boolean => {
        try {
          db.prepare(sql).all();
          return true;
        } catch {
          return false;
        }
      };
      expect(select(`SELECT * FROM ${ref} LIMIT 5`)).toBe(true);
      expect(select(plan.verifySql(ref))).toBe(true);
      expect(select(plan.probeSql(ref)), plan.probeSql(ref)).toBe(false);
      if (task.kind === 'query') {
        expect(select(plan.mainSql({ style: 'backtick', spoiled: false })), plan.mainSql({ style: 'backtick', spoiled: false })).toBe(true);
        if (tableNeedsQuoting(task.table.name)) {
          expect(select(plan.mainSql({ style: 'bare', spoiled: false }))).toBe(false);
          expect(select(plan.mainSql({ style: 'underscored', spoiled: false }))).toBe(false);
        }
      }
    }
  });
});
