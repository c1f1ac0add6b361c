import { SqliteEngine } from './sqlite-engine.js';

/**
 * One of each kind of statement an agent sends most: a look at the table, a filtered SELECT, aggregates
 * (over text columns too, which MySQL reads as numbers), grouping, changes, an error.
 */
export const WARM_UP_STATEMENTS = [
  'SELECT * FROM `warm_up` LIMIT 5',
  'DESCRIBE `warm_up`',
  "SELECT `name`, `n` FROM `warm_up` WHERE `n` > '0' AND `name` LIKE 'a%' ORDER BY `n` DESC LIMIT 1",
  'SELECT COUNT(*), MAX(`n`), GROUP_CONCAT(`name`) FROM `warm_up` GROUP BY `name`',
  "SELECT AVG(`n`), SUM(`n`), MIN(`name`) FROM `warm_up` WHERE `name` IN ('a', 'b') OR `n` = 2",
  "SELECT DISTINCT `name` FROM `warm_up` WHERE `n` BETWEEN 1 AND 5 AND `name` LIKE '%a%' ORDER BY `name`",
  "UPDATE `warm_up` SET `n` = '3' WHERE `name` = 'a'",
  "INSERT INTO `warm_up` (`name`, `n`) VALUES ('c', '4')",
  "DELETE FROM `warm_up` WHERE `name` = 'b'",
  'SELECT `missing` FROM `warm_up`',
];

/**
 * Runs those statements on a throwaway database, so that the first episode's statements do not pay for
 * compiling the code they run (tens of milliseconds in a new process, while the episode holds its turn):
 * a database process does it before it reports ready, and a backend that answers bounded statements in
 * its own thread does it there once. `bounded` runs them the way `executeBounded` does. Nothing of it is
 * kept: the engine is closed, and an engine holds no state shared with another.
 */
export function warmUpSqliteEngine(maxDatabaseBytes: number, bounded = false): void {
  const engine = new SqliteEngine({ name: 'warm_up', columns: ['name', 'n'], rows: [['a', '1'], ['b', 2]] }, { databaseName: 'warm_up', maxDatabaseBytes });
  try {
    for (const sql of WARM_UP_STATEMENTS) {
      if (bounded) engine.executeBounded(sql, 1_000);
      else engine.execute(sql, 1_000);
    }
    engine.changeMark();
    engine.sessionState();
    engine.tableHash();
    engine.serialize();
  } finally {
    engine.close();
  }
}
