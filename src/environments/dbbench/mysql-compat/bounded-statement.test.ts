import { describe, expect, it } from 'vitest';

import { isBoundedStatement, isWrite } from './bounded-statement.js';
import { parseMysqlStatement } from './parse-statement.js';
import { tokenizeMysql } from './tokenize.js';

function bounded(sql: string): boolean {
  const tokens = tokenizeMysql(sql);
  if (!Array.isArray(tokens)) throw new Error(`does not tokenize: ${sql}`);
  return isBoundedStatement(parseMysqlStatement(tokens, sql));
}

// Statements agents send most (from the simulated targets' and the shipped gold SQL's shapes).
const BOUNDED = [
  'SELECT * FROM `Medals`',
  "SELECT `Nation`, COUNT(*) FROM `Medals` WHERE `Gold` > '1' AND `Nation` LIKE '%or%' GROUP BY `Nation` HAVING COUNT(*) > 0 ORDER BY `Nation` DESC LIMIT 3",
  'SELECT MAX(CAST(`Gold` AS SIGNED)), AVG(`Gold`), SUM(`Gold`), GROUP_CONCAT(`Nation` ORDER BY `Nation` SEPARATOR \';\') FROM `Medals`',
  "SELECT UPPER(CONCAT(`Nation`, '-', LEFT(`Gold`, 2))), IF(`Gold` IS NULL, 0, ROUND(`Gold` / 3, 2)) FROM `Medals`",
  'SELECT a.`Nation` FROM `Medals` a JOIN `Medals` b ON a.`Gold` = b.`Gold` WHERE a.`Nation` IN (SELECT `Nation` FROM `Medals` WHERE `Gold` > 2)',
  'SELECT COUNT(*) FROM (SELECT DISTINCT `Nation` FROM `Medals`) AS t',
  "SELECT CASE WHEN `Gold` BETWEEN 1 AND 3 THEN 'few' ELSE 'many' END FROM `Medals` UNION SELECT 'x'",
  "SELECT YEAR(STR_TO_DATE(`Gold`, '%Y')), DATE_FORMAT(`Gold`, '%Y-%m') FROM `Medals`",
  'SELECT EXISTS (SELECT 1 FROM `Medals`), ROW_COUNT(), FOUND_ROWS(), DATABASE(), @a',
  "INSERT INTO `Medals` (`Nation`, `Gold`) VALUES ('Chile', '0'), ('Peru', LOWER('1'))",
  "INSERT INTO `Medals` SELECT `Nation`, `Gold` FROM `Medals` WHERE `Gold` = '1'",
  "UPDATE `Medals` SET `Gold` = `Gold` + 1 WHERE `Nation` = 'Norway' ORDER BY `Nation` LIMIT 1",
  "DELETE FROM `Medals` WHERE `Gold` < '1'",
  'SHOW TABLES',
  'SHOW COLUMNS FROM `Medals`',
  'SHOW CREATE TABLE `Medals`',
  'SELECT FROM WHERE', // a syntax error: answered without running anything
];

const NOT_BOUNDED = [
  ['DDL', 'CREATE TABLE `t` AS SELECT * FROM `Medals`'],
  ['DDL', 'DROP TABLE `Medals`'],
  ['a WITH clause', 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c'],
  ['a WITH clause in a subquery', 'SELECT (WITH c AS (SELECT 1) SELECT * FROM c)'],
  ['REPEAT', "SELECT REPEAT('y', 1000000000)"],
  ['LPAD', "SELECT LPAD('y', 1000000000, 'x')"],
  ['REPLACE, which multiplies a value when nested', "SELECT REPLACE(REPLACE(`Nation`, 'a', `Nation`), 'a', `Nation`) FROM `Medals`"],
  ['HEX, which doubles a value when nested', 'SELECT HEX(HEX(HEX(`Nation`))) FROM `Medals`'],
  ['a function inside a WHERE clause', "SELECT 1 FROM `Medals` WHERE SPACE(100000000) = ''"],
  ['REGEXP', "SELECT * FROM `Medals` WHERE `Nation` REGEXP '(a+)+b'"],
  ['REGEXP_LIKE', "SELECT REGEXP_LIKE(`Nation`, 'a') FROM `Medals`"],
  ['a LIKE with three %', "SELECT * FROM `Medals` WHERE `Nation` LIKE '%a%b%c'"],
  ['a LIKE with two % and text after the second (quadratic backtracking)', "SELECT * FROM `Medals` WHERE `Nation` LIKE '%a%b'"],
  ['a LIKE whose pattern is a column', 'SELECT * FROM `Medals` WHERE `Nation` LIKE `Gold`'],
  ['a LIKE on a computed value', "SELECT * FROM `Medals` WHERE CONCAT(`Nation`, `Nation`) LIKE '%a%'"],
  ['a LIKE pattern over 256 characters', `SELECT * FROM \`Medals\` WHERE \`Nation\` LIKE '%${'x'.repeat(256)}%'`],
  ['LOCATE (a search: the product of the lengths in one call)', "SELECT LOCATE('a', `Nation`) FROM `Medals`"],
  ['INSTR', "SELECT INSTR(`Nation`, 'a') FROM `Medals`"],
  ['SUBSTRING_INDEX', "SELECT SUBSTRING_INDEX(`Nation`, 'a', 2) FROM `Medals`"],
  ['a window', 'SELECT ROW_NUMBER() OVER (ORDER BY `Gold`) FROM `Medals`'],
  ['a windowed aggregate', 'SELECT SUM(`Gold`) OVER () FROM `Medals`'],
  ['a named window', 'SELECT RANK() OVER w FROM `Medals` WINDOW w AS (ORDER BY `Gold`)'],
  ['a function the whitelist does not name', 'SELECT RAND() FROM `Medals`'],
  ['the clock', 'SELECT NOW()'],
  ['SET', 'SET @a = (SELECT COUNT(*) FROM `Medals`)'],
  ['a transaction', 'BEGIN'],
  ['EXPLAIN', 'EXPLAIN SELECT * FROM `Medals`'],
  ['SHOW TABLE STATUS', 'SHOW TABLE STATUS'],
  ['a statement inside an INSERT that is not bounded', "INSERT INTO `Medals` SELECT REPEAT('x', 9), '1'"],
  ['an UPDATE value that is not bounded', "UPDATE `Medals` SET `Nation` = RPAD(`Nation`, 100000000, 'x')"],
] as const;

describe('isBoundedStatement', () => {
  it('tells the writes apart, whose callers check the table size after them', () => {
    const write = (sql: string) => {
      const tokens = tokenizeMysql(sql);
      if (!Array.isArray(tokens)) throw new Error(sql);
      return isWrite(parseMysqlStatement(tokens, sql));
    };
    expect(["INSERT INTO `t` VALUES ('a')", "UPDATE `t` SET `a` = 'b'", 'DELETE FROM `t`', 'SELECT 1', 'SHOW TABLES', 'SELECT FROM'].map(write)).toEqual([true, true, true, false, false, false]);
  });

  it.each(BOUNDED)('admits %s', (sql) => {
    expect(bounded(sql)).toBe(true);
  });

  it.each(NOT_BOUNDED)('refuses %s: %s', (_why, sql) => {
    expect(bounded(sql)).toBe(false);
  });

  it('admits the LIKE patterns that match in linear time: one %, or two with the second at the end', () => {
    const like = (pattern: string) => bounded(`SELECT 1 FROM \`Medals\` WHERE \`Nation\` LIKE '${pattern}'`);
    expect(['Norway', 'N_rw_y', 'No%', '%way', 'N%y', '%or%', '%_o_%', 'N%r%', '%%']).toEqual(['Norway', 'N_rw_y', 'No%', '%way', 'N%y', '%or%', '%_o_%', 'N%r%', '%%'].filter(like));
    expect(['%o%y', 'N%r%y', '%%%', '%a%b%', 'a%%b']).toEqual(['%o%y', 'N%r%y', '%%%', '%a%b%', 'a%%b'].filter((p) => !like(p)));
    expect(bounded("SELECT 1 FROM `Medals` WHERE `Nation` NOT LIKE 'N%' ESCAPE '!'")).toBe(true);
    expect(bounded(`SELECT 1 FROM \`Medals\` WHERE \`Nation\` LIKE '%${'x'.repeat(254)}%'`)).toBe(true);
    expect(bounded("SELECT 1 FROM `Medals` WHERE 'Norway' LIKE 'N%'")).toBe(true);
  });
});
