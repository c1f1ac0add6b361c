import { describe, expect, it } from 'vitest';

import type { DbTable } from './dbbench-task.js';
import { formatSqlOutcome } from './format-result.js';
import { SqliteEngine } from './sqlite-engine.js';
import { mysqlTableHash } from './table-hash.js';

// Expected texts are what MySQL 8 (utf8mb4_0900_ai_ci, connector `str(rows)`) shows for the same table.
const AIRPORTS: DbTable = {
  name: 'Airports',
  columns: ['Rank', 'Airport', 'City', 'Passengers', 'Opened'],
  rows: [
    ['1', 'Montréal-Trudeau', 'Montréal', '1,174', 'March 19, 1998'],
    ['2', "O'Hare", 'Chicago', '9', 'June 5, 1955'],
    ['3', 'JFK', 'new york', '146,445', 'July 1, 1948'],
    [10, 'LAX', 'Los Angeles', '12abc', 'October 1, 1928'],
  ],
};

function engine(table: DbTable = AIRPORTS): SqliteEngine {
  return new SqliteEngine(table);
}

function cases(list: [string, string][], fresh = false): void {
  const shared = fresh ? null : engine();
  for (const [sql, expected] of list) {
    it(sql, () => {
      const e = shared ?? engine();
      expect(formatSqlOutcome(e.execute(sql))).toBe(expected);
    });
  }
}

describe('introspection in MySQL row shapes', () => {
  cases([
    ['SHOW TABLES', "[('Airports',)]"],
    ["show tables like 'air%'", "[('Airports',)]"],
    ['SHOW FULL TABLES', "[('Airports', 'BASE TABLE')]"],
    [
      'DESCRIBE Airports',
      "[('Rank', 'text', 'YES', '', None, ''), ('Airport', 'text', 'YES', '', None, ''), ('City', 'text', 'YES', '', None, ''), ('Passengers', 'text', 'YES', '', None, ''), ('Opened', 'text', 'YES', '', None, '')]",
    ],
    ['DESC `Airports` City', "[('City', 'text', 'YES', '', None, '')]"],
    ["SHOW COLUMNS FROM Airports LIKE 'P%'", "[('Passengers', 'text', 'YES', '', None, '')]"],
    ["SHOW FULL COLUMNS FROM Airports LIKE 'City'", "[('City', 'text', 'utf8mb4_0900_ai_ci', 'YES', '', None, '', 'select,insert,update,references', '')]"],
    [
      'SHOW CREATE TABLE Airports',
      "[('Airports', 'CREATE TABLE `Airports` (\\n  `Rank` text,\\n  `Airport` text,\\n  `City` text,\\n  `Passengers` text,\\n  `Opened` text\\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci')]",
    ],
    ['SELECT DATABASE()', "[('dbbench',)]"],
    ['SHOW DATABASES', "[('dbbench',), ('information_schema',), ('mysql',), ('performance_schema',), ('sys',)]"],
    ['USE dbbench', '[]'],
    ['USE other', "1049 (42000): Unknown database 'other'"],
    ["SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_NAME = 'Airports' ORDER BY ORDINAL_POSITION", "[('Rank',), ('Airport',), ('City',), ('Passengers',), ('Opened',)]"],
    ["SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()", "[('Airports',)]"],
    ['DESCRIBE Nope', "1146 (42S02): Table 'dbbench.Nope' doesn't exist"],
  ]);
});

describe('literals and lexing', () => {
  cases([
    [`SELECT "double", 'single', 'it''s', 'a\\nb', 'tab\\tend', 'back\\\\slash', 'pct\\%'`, `[('double', 'single', "it's", 'a\\nb', 'tab\\tend', 'back\\\\slash', 'pct\\\\%')]`],
    ['SELECT 1, -1, 1.50, 1e3, .5, TRUE, NULL', "[(1, -1, Decimal('1.50'), 1000.0, Decimal('0.5'), 1, None)]"],
    ["SELECT 'a' 'b'", "[('ab',)]"],
    ['SELECT 1 -- comment', '[(1,)]'],
    ['SELECT 1--1', '[(2,)]'],
    ['SELECT /* c */ 2 # trailing', '[(2,)]'],
    ['select `Rank` from `Airports` where `Rank` = 10', "[('10',)]"],
    ['SELECT * FROM Airports WHERE `Rank` = 3;', "[('3', 'JFK', 'new york', '146,445', 'July 1, 1948')]"],
  ]);
});

describe('comparison semantics (collation and numbers)', () => {
  cases([
    ["SELECT `Rank` FROM Airports WHERE Airport = 'montreal-trudeau'", "[('1',)]"],
    ['SELECT Airport FROM Airports WHERE City = "NEW YORK"', "[('JFK',)]"],
    ["SELECT Airport FROM Airports WHERE Airport = 'JFK '", '[]'],
    ['SELECT Airport FROM Airports WHERE Passengers > 100', "[('JFK',)]"],
    ['SELECT Airport FROM Airports WHERE Passengers = 1', "[('Montréal-Trudeau',)]"],
    ["SELECT Airport FROM Airports WHERE `Rank` > '3'", '[]'],
    ['SELECT Airport FROM Airports WHERE `Rank` > 3', "[('LAX',)]"],
    ['SELECT Airport FROM Airports WHERE `Rank` BETWEEN 2 AND 3', `[("O'Hare",), ('JFK',)]`],
    ["SELECT Airport FROM Airports WHERE `Rank` IN (1, '10')", "[('Montréal-Trudeau',), ('LAX',)]"],
    ["SELECT Airport FROM Airports WHERE `Rank` NOT IN (1, '10')", `[("O'Hare",), ('JFK',)]`],
    ["SELECT City FROM Airports WHERE City LIKE 'MONTR%'", "[('Montréal',)]"],
    ["SELECT City FROM Airports WHERE City LIKE '%real'", "[('Montréal',)]"],
    ["SELECT Airport FROM Airports WHERE Airport LIKE 'O\\'%'", `[("O'Hare",)]`],
    ["SELECT Airport FROM Airports WHERE Airport LIKE BINARY 'jfk'", '[]'],
    ["SELECT Airport FROM Airports WHERE Airport = 'jfk' COLLATE utf8mb4_bin", '[]'],
    ["SELECT Airport FROM Airports WHERE Airport REGEXP '^[a-z]{3}$'", "[('JFK',), ('LAX',)]"],
    ["SELECT Airport FROM Airports WHERE Airport NOT RLIKE '^[a-z]{3}$'", `[('Montréal-Trudeau',), ("O'Hare",)]`],
    ['SELECT Airport FROM Airports WHERE `Rank` = 1 || `Rank` = 2', `[('Montréal-Trudeau',), ("O'Hare",)]`],
    ["SELECT 'abc' = 'ABC', 'a' = 'á', 'a' < 'B', 10 < 9, '10' < '9', '10' < 9", '[(1, 1, 1, 0, 1, 0)]'],
    ['SELECT NULL = NULL, NULL <=> NULL, 1 <=> NULL', '[(None, 1, 0)]'],
    ["SELECT Airport FROM Airports WHERE Airport IN (SELECT Airport FROM Airports WHERE City LIKE 'l%')", "[('LAX',)]"],
    ['SELECT Airport FROM Airports ORDER BY Airport', `[('JFK',), ('LAX',), ('Montréal-Trudeau',), ("O'Hare",)]`],
    ['SELECT Airport FROM Airports ORDER BY `Rank` DESC', `[('JFK',), ("O'Hare",), ('LAX',), ('Montréal-Trudeau',)]`],
    ['SELECT Airport FROM Airports ORDER BY CAST(`Rank` AS UNSIGNED) DESC LIMIT 2', "[('LAX',), ('JFK',)]"],
  ]);
});

describe('aggregates and result types', () => {
  cases([
    ['SELECT COUNT(*), SUM(Passengers), AVG(`Rank`), MIN(`Rank`), MAX(`Rank`), MAX(`Rank` + 0) FROM Airports', "[(4, 168.0, 4.0, '1', '3', 10.0)]"],
    ['SELECT SUM(CAST(`Rank` AS SIGNED)), AVG(CAST(`Rank` AS SIGNED)) FROM Airports', "[(Decimal('16'), Decimal('4.0000'))]"],
    ["SELECT 10/4, 10 DIV 4, 10 % 4, 7.5 / 2, '10' / 4, 1/0", "[(Decimal('2.5000'), 2, 2, Decimal('3.75000'), 2.5, None)]"],
    ["SELECT ROUND(2.5), ROUND('2.5'), ROUND(2.567, 2), ROUND(1234.5, -2), TRUNCATE(2.567, 1), CEIL(1.2), FLOOR('1.8'), ABS(-3)", "[(Decimal('3'), 2.0, Decimal('2.57'), Decimal('1200'), Decimal('2.5'), 2, 1.0, 3)]"],
    [
      "SELECT CAST('12.345' AS DECIMAL(10,2)), CAST('1,174' AS UNSIGNED), CAST(-1 AS UNSIGNED), CAST(2.5 AS SIGNED), CAST(1.5 AS CHAR), CAST('2020-01-02' AS DATE), CAST(3 AS DOUBLE)",
      "[(Decimal('12.35'), 1, 18446744073709551615, 3, '1.5', datetime.date(2020, 1, 2), 3.0)]",
    ],
    ['SELECT COUNT(DISTINCT City), COUNT(City) FROM Airports', '[(4, 4)]'],
    ['SELECT City, COUNT(*) AS n FROM Airports GROUP BY City HAVING n >= 1 ORDER BY n DESC, City LIMIT 2', "[('Chicago', 1), ('Los Angeles', 1)]"],
    ["SELECT GROUP_CONCAT(Airport ORDER BY `Rank` + 0 SEPARATOR '|') FROM Airports", `[("Montréal-Trudeau|O'Hare|JFK|LAX",)]`],
    ['SELECT GROUP_CONCAT(DISTINCT `Rank` ORDER BY `Rank` DESC) FROM Airports', "[('3,2,10,1',)]"],
    ['SELECT Airport, `Rank` + 0 AS r FROM Airports ORDER BY r DESC LIMIT 2', "[('LAX', 10.0), ('JFK', 3.0)]"],
    ['SELECT Airport, `Rank` FROM Airports ORDER BY 2 DESC LIMIT 1', "[('JFK', '3')]"],
    ['SELECT Airport, ROW_NUMBER() OVER (ORDER BY `Rank` + 0 DESC) AS rn FROM Airports LIMIT 2', "[('LAX', 1), ('JFK', 2)]"],
  ]);
});

describe('string, control-flow and date functions', () => {
  cases([
    ["SELECT CONCAT('a', 1, 2.50), CONCAT('a', NULL), CONCAT_WS('-', 'a', NULL, 'b')", "[('a12.50', None, 'a-b')]"],
    ["SELECT LENGTH('héllo'), CHAR_LENGTH('héllo'), UPPER('héllo'), LOWER('ABC')", "[(6, 5, 'HÉLLO', 'abc')]"],
    ["SELECT SUBSTRING('Montréal', 2, 3), SUBSTRING('abc' FROM 2), SUBSTRING('abcdef', -3), MID('abcdef', 2, 2), LEFT('abc', 2), RIGHT('abc', 2)", "[('ont', 'bc', 'def', 'bc', 'ab', 'bc')]"],
    ["SELECT LOCATE('b', 'ABC'), INSTR('abc', 'C'), POSITION('c' IN 'abc')", '[(2, 3, 3)]'],
    ["SELECT SUBSTRING_INDEX('a,b,c', ',', 2), SUBSTRING_INDEX('a,b,c', ',', -1), REPLACE('1,174', ',', '')", "[('a,b', 'c', '1174')]"],
    ["SELECT TRIM('  x  '), TRIM(LEADING '0' FROM '007'), LTRIM('  y'), RTRIM('z  ')", "[('x', '7', 'y', 'z')]"],
    ["SELECT LPAD('5', 3, '0'), RPAD('ab', 4, '.'), LPAD('abcd', 2, '0'), REVERSE('abc'), REPEAT('ab', 2)", "[('005', 'ab..', 'ab', 'cba', 'abab')]"],
    ["SELECT FORMAT(1234567.891, 2), MD5('abc')", "[('1,234,567.89', '900150983cd24fb0d6963f7d28e17f72')]"],
    ["SELECT IF(1 > 0, 'y', 'n'), IFNULL(NULL, 'z'), COALESCE(NULL, NULL, 3), NULLIF('a', 'A')", "[('y', 'z', 3, None)]"],
    ["SELECT CASE `Rank` WHEN 1 THEN 'one' WHEN '10' THEN 'ten' ELSE 'other' END FROM Airports", "[('one',), ('other',), ('other',), ('ten',)]"],
    ["SELECT YEAR(STR_TO_DATE(Opened, '%M %d, %Y')) FROM Airports WHERE `Rank` = 2", '[(1955,)]'],
    ["SELECT STR_TO_DATE('March 19, 1998', '%M %d, %Y'), DATE_FORMAT('1998-03-19', '%d/%m/%Y')", "[(datetime.date(1998, 3, 19), '19/03/1998')]"],
    ["SELECT DATEDIFF('2020-03-01', '2020-02-01'), DATE_ADD('2020-01-31', INTERVAL 1 MONTH), YEAR('March 19, 1998')", "[(29, '2020-02-29', None)]"],
    ["SELECT MONTHNAME('2020-05-06'), DAYNAME('2020-05-06'), DATE('2020-05-06 10:11:12')", "[('May', 'Wednesday', datetime.date(2020, 5, 6))]"],
    [
      "SELECT Airport FROM Airports WHERE STR_TO_DATE(Opened, '%M %d, %Y') > '1950-1-1' AND STR_TO_DATE(Opened, '%M %d, %Y') BETWEEN 19500101 AND 19991231",
      `[('Montréal-Trudeau',), ("O'Hare",)]`,
    ],
  ]);
});

describe('subqueries', () => {
  cases([
    ['SELECT Airport FROM Airports WHERE `Rank` = (SELECT MAX(`Rank` + 0) FROM Airports)', "[('LAX',)]"],
    ['SELECT Airport FROM Airports WHERE City = (SELECT City FROM Airports)', '1242 (21000): Subquery returns more than 1 row'],
    ['SELECT Airport FROM Airports WHERE City IN (SELECT City FROM Airports WHERE `Rank` > 2)', "[('JFK',), ('LAX',)]"],
    ['SELECT Airport FROM Airports WHERE City IN (SELECT City FROM Airports LIMIT 1)', "1235 (42000): This version of MySQL doesn't yet support 'LIMIT & IN/ALL/ANY/SOME subquery'"],
    ['SELECT (SELECT City, Airport FROM Airports LIMIT 1)', '1241 (21000): Operand should contain 1 column(s)'],
    ['SELECT COUNT(*) FROM (SELECT DISTINCT City FROM Airports) AS d', '[(4,)]'],
    ['SELECT COUNT(*) FROM (SELECT DISTINCT City FROM Airports)', '1248 (42000): Every derived table must have its own alias'],
    ['WITH c AS (SELECT `Rank` + 0 AS r FROM Airports) SELECT MAX(r) FROM c', '[(10.0,)]'],
    ["SELECT a.Airport FROM Airports a WHERE EXISTS (SELECT 1 FROM Airports b WHERE b.`Rank` = a.`Rank` AND b.City LIKE 'c%')", `[("O'Hare",)]`],
    ['SELECT Airport FROM Airports WHERE `Rank` + 0 > ALL (SELECT `Rank` + 0 FROM Airports WHERE `Rank` < 3)', "[('JFK',), ('LAX',)]"],
  ]);
});

describe('MySQL errors', () => {
  cases([
    ['SELECT Rank FROM Airports', "1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'Rank FROM Airports' at line 1"],
    ['SELECT Nope FROM Airports', "1054 (42S22): Unknown column 'Nope' in 'field list'"],
    ['SELECT * FROM Airports WHERE Nope = 1', "1054 (42S22): Unknown column 'Nope' in 'where clause'"],
    ['SELECT Airport FROM Airports ORDER BY 5', "1054 (42S22): Unknown column '5' in 'order clause'"],
    ['SELECT x.Airport FROM Airports', "1054 (42S22): Unknown column 'x.Airport' in 'field list'"],
    ['SELECT * FROM airports', "1146 (42S02): Table 'dbbench.airports' doesn't exist"],
    ['SELECT * FROM Airports a JOIN Airports b ON 1 WHERE Airport = 1', "1052 (23000): Column 'Airport' in where clause is ambiguous"],
    ['SELECT * FROM Airports; SELECT 1', "1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'SELECT 1' at line 1"],
    ['', '1065 (42000): Query was empty'],
    ["SELECT 'abc", "1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near ''abc' at line 1"],
    ['SELECT COUNT (*) FROM Airports', "1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '*) FROM Airports' at line 1"],
    ['SELECT SUM (`Rank`) FROM Airports', "1630 (42000): FUNCTION dbbench.SUM does not exist. Check the 'Function Name Parsing and Resolution' section in the Reference Manual"],
    ['SELECT CAST(`Rank` AS INT) FROM Airports', "1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'INT) FROM Airports' at line 1"],
    ['SELECT ABS()', "1582 (42000): Incorrect parameter count in the call to native function 'ABS'"],
    ['SELECT foo(1)', '1305 (42000): FUNCTION dbbench.foo does not exist'],
    ["SELECT julianday('2020-01-01')", '1305 (42000): FUNCTION dbbench.julianday does not exist'],
    ["INSERT INTO Airports VALUES ('x')", "1136 (21S01): Column count doesn't match value count at row 1"],
    ["INSERT INTO Airports (Nope) VALUES ('x')", "1054 (42S22): Unknown column 'Nope' in 'field list'"],
    ['UPDATE Airports SET Nope = 1', "1054 (42S22): Unknown column 'Nope' in 'field list'"],
    ["UPDATE Airports SET City = 'x' WHERE `Rank` = (SELECT MAX(`Rank`) FROM Airports)", "1093 (HY000): You can't specify target table 'Airports' for update in FROM clause"],
    ['SELECT * FROM Airports WHERE Airport == 1', "1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '= 1' at line 1"],
  ]);
});

describe('DML stores text the way MySQL does', () => {
  it('converts numeric literals and expressions to MySQL text', () => {
    const e = engine();
    expect(formatSqlOutcome(e.execute("INSERT INTO Airports VALUES (11, 'X', 'Y', 1.50, 1e3)"))).toBe('[]');
    expect(formatSqlOutcome(e.execute('SELECT * FROM Airports WHERE `Rank` = 11'))).toBe("[('11', 'X', 'Y', '1.50', '1000')]");
    e.execute('UPDATE Airports SET Passengers = Passengers + 1 WHERE `Rank` = 2');
    e.execute('UPDATE Airports SET Opened = `Rank` * 1.5 WHERE `Rank` = 2');
    expect(formatSqlOutcome(e.execute('SELECT Passengers, Opened FROM Airports WHERE `Rank` = 2'))).toBe("[('10', '3')]");
  });

  it('evaluates SET items left to right, as MySQL does for single-table UPDATE', () => {
    const e = engine();
    e.execute("UPDATE Airports SET City = 'A', Airport = City WHERE `Rank` = 3");
    expect(formatSqlOutcome(e.execute('SELECT Airport, City FROM Airports WHERE `Rank` = 3'))).toBe("[('A', 'A')]");
  });

  it('supports column lists, INSERT … SET, INSERT … SELECT, DELETE with ORDER BY/LIMIT', () => {
    const e = engine();
    e.execute("INSERT INTO Airports (`Rank`, Airport) VALUES ('12', 'Z')");
    e.execute("INSERT INTO Airports SET `Rank` = '13', City = 'Q'");
    e.execute('INSERT INTO Airports (`Rank`, Airport) SELECT `Rank` + 100, Airport FROM Airports WHERE `Rank` = 1');
    expect(formatSqlOutcome(e.execute('SELECT `Rank`, Airport, City FROM Airports WHERE `Rank` + 0 > 11 ORDER BY `Rank` + 0'))).toBe(
      "[('12', 'Z', None), ('13', None, 'Q'), ('101', 'Montréal-Trudeau', None)]",
    );
    e.execute('DELETE FROM Airports WHERE `Rank` + 0 > 11 ORDER BY `Rank` + 0 DESC LIMIT 1');
    expect(formatSqlOutcome(e.execute('SELECT COUNT(*) FROM Airports'))).toBe('[(6,)]');
  });

  it('hashes the table from its stored text', () => {
    const e = engine();
    e.execute("INSERT INTO Airports VALUES ('11', 'X', 'Y', '1', '2')");
    const expected = mysqlTableHash([...AIRPORTS.rows.map((r) => r.map(String)), ['11', 'X', 'Y', '1', '2']]);
    expect(e.tableHash()).toBe(expected);
    e.execute('DELETE FROM Airports');
    expect(e.tableHash()).toBeNull();
    e.execute('DROP TABLE Airports');
    expect(e.tableHash()).toBe("1146 (42S02): Table 'dbbench.Airports' doesn't exist");
  });
});

describe('DDL passes through with MySQL type names', () => {
  it('creates, describes, fills and drops an agent table', () => {
    const e = engine();
    expect(formatSqlOutcome(e.execute('CREATE TABLE t2 (id INT AUTO_INCREMENT, name VARCHAR(20)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4'))).toBe('[]');
    expect(formatSqlOutcome(e.execute('DESCRIBE t2'))).toBe("[('id', 'int', 'YES', '', None, ''), ('name', 'varchar(20)', 'YES', '', None, '')]");
    e.execute("INSERT INTO t2 VALUES (1, 'a')");
    expect(formatSqlOutcome(e.execute('SELECT * FROM t2'))).toBe("[(1, 'a')]");
    expect(formatSqlOutcome(e.execute('SHOW TABLES'))).toBe("[('Airports',), ('t2',)]");
    expect(formatSqlOutcome(e.execute('DROP TABLE t2'))).toBe('[]');
  });
});

describe('setup and cancellation', () => {
  it('refuses the table where MySQL would, leaving an empty database', () => {
    const e = new SqliteEngine({ name: 't', columns: ['a', 'A'], rows: [['1', '2']] });
    expect(e.setupError).toBe("1060 (42S21): Duplicate column name 'A'");
    expect(formatSqlOutcome(e.execute('SHOW TABLES'))).toBe('[]');
    expect(new SqliteEngine({ name: 't', columns: ['', 'b'], rows: [] }).setupError).toBe("1166 (42000): Incorrect column name ''");
  });

  it('cancels a runaway statement at the deadline and keeps the data', () => {
    const e = engine();
    const started = performance.now();
    const outcome = e.execute('WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT COUNT(*) FROM c', 200);
    expect(outcome).toEqual({ kind: 'timeout' });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(formatSqlOutcome(e.execute('SELECT COUNT(*) FROM Airports'))).toBe('[(4,)]');
  });

  it('undoes the changes of a cancelled UPDATE', () => {
    const e = engine();
    const huge = 'SELECT 1 FROM Airports a, Airports b, Airports c, Airports d, Airports e, Airports f, Airports g, Airports h, Airports i, Airports j, Airports k, Airports l';
    const outcome = e.execute(`UPDATE Airports SET City = 'gone' WHERE (SELECT COUNT(*) FROM (${huge}) AS x) > 0`, 100);
    expect(outcome).toEqual({ kind: 'timeout' });
    expect(formatSqlOutcome(e.execute("SELECT COUNT(*) FROM Airports WHERE City = 'gone'"))).toBe('[(0,)]');
  });
});

describe('database size cap', () => {
  it('fails a statement that would grow the database past maxDatabaseBytes as MySQL 1114, undoing it', () => {
    const e = new SqliteEngine(AIRPORTS, { maxDatabaseBytes: 1024 * 1024 });
    const grow = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT '${'x'.repeat(200)}' FROM c`;
    expect(formatSqlOutcome(e.execute(`CREATE TABLE big AS ${grow}`))).toBe("1114 (HY000): The table 'big' is full");
    expect(formatSqlOutcome(e.execute('CREATE TABLE notes (v TEXT)'))).toBe('[]');
    expect(formatSqlOutcome(e.execute(`INSERT INTO dbbench.notes ${grow}`))).toBe("1114 (HY000): The table 'notes' is full");
    expect(formatSqlOutcome(e.execute("UPDATE IGNORE `Airports` SET City = REPEAT('y', 400000)"))).toBe("1114 (HY000): The table 'Airports' is full");
    expect(formatSqlOutcome(e.execute('SELECT COUNT(*), MAX(LENGTH(City)) FROM Airports'))).toBe('[(4, 11)]');
    expect(formatSqlOutcome(e.execute('SELECT COUNT(*) FROM notes'))).toBe('[(0,)]');
    e.close();
  });
});
