import { describe, expect, it } from 'vitest';

import { classifyResult, observeEpisode } from './observe.js';
import { alteredFromQuestion, alteredFromResults, detectSignatures, looksLikeDataChange, resultCells, tallySignatures } from './signatures.js';
import { testEpisode, type TestEpisode } from '../../../testing/dbbench-test-episodes.js';

const QUESTION = 'What was the earliest round where Takashi Kogure got the fastest lap?';
const detect = (spec: TestEpisode) => [...detectSignatures(observeEpisode(testEpisode(spec)))].sort();

describe('observeEpisode', () => {
  it('reads the table, headers and question from the task message and the actions from steps and turns', () => {
    const ep = observeEpisode(
      testEpisode({
        question: QUESTION,
        turns: [
          { text: 'thinking' },
          { sql: 'SELECT 1', result: "[('1',)]" },
          { blockedSql: 'SELECT 2', reply: 'Harness blocked this tool call.' },
          { commit: ['1'] },
        ],
      }),
    );
    expect(ep.tableName).toBe('Race Results');
    expect(ep.headers).toEqual(['Round', 'Circuit', 'Date', 'Pole Position', 'Fastest Lap']);
    expect(ep.question).toBe(QUESTION);
    expect(ep.events).toEqual([
      { kind: 'text', round: 1 },
      { kind: 'sql', round: 2, sql: 'SELECT 1', result: "[('1',)]", resultKind: 'rows' },
      { kind: 'commit', round: 4, answers: ['1'] },
    ]);
  });

  it('classifies MySQL replies', () => {
    expect(classifyResult("1054 (42S22): Unknown column 'x' in 'field list'")).toBe('error_unknown_column');
    expect(classifyResult("1146 (42S02): Table 'dbbench.Race' doesn't exist")).toBe('error_missing_table');
    expect(classifyResult('1064 (42000): You have an error in your SQL syntax')).toBe('error_syntax');
    expect(classifyResult('Error executing query: boom')).toBe('error_other');
    expect(classifyResult('[]')).toBe('empty');
    expect(classifyResult('[(None,)]')).toBe('empty');
    expect(classifyResult("[('a', 'b')]")).toBe('rows');
  });
});

describe('looksLikeDataChange', () => {
  it('tells data changes from questions by wording', () => {
    expect(looksLikeDataChange('Insert a new record into the table with values 1 and 2.')).toBe(true);
    expect(looksLikeDataChange("Change the source for soybean production to 'USDA'.")).toBe(true);
    expect(looksLikeDataChange('On 14 February 1917, the Romanian ship named Uranus was sunk.')).toBe(true);
    expect(looksLikeDataChange('how many weeks did the song spend at the top?')).toBe(false);
    expect(looksLikeDataChange('Name the least touchdowns for 11 points')).toBe(false);
    expect(looksLikeDataChange('Which player has the most updated record?')).toBe(false);
    expect(looksLikeDataChange('')).toBe(false);
  });
});

describe('detectSignatures', () => {
  it('unquoted identifier: an error after a multi-word table name written bare or snake-cased', () => {
    expect(
      detect({
        question: QUESTION,
        turns: [
          { sql: 'SELECT MIN(`Fastest Lap`) FROM Race Results', result: "1146 (42S02): Table 'dbbench.Race' doesn't exist" },
          { sql: 'SELECT MIN(`Fastest Lap`) FROM Race_Results', result: "1146 (42S02): Table 'dbbench.Race_Results' doesn't exist" },
        ],
        outcome: 'round_limit',
      }),
    ).toEqual(['unquoted_identifier']);
    // Quoted correctly, or bare but without an error: not this signature.
    expect(detect({ question: QUESTION, turns: [{ sql: 'SELECT * FROM `Race Results`', result: '[]' }], outcome: 'round_limit' })).toEqual([]);
    expect(detect({ question: QUESTION, table: 'race_results', turns: [{ sql: 'SELECT * FROM race_results', result: "1064 (42000): syntax" }], outcome: 'round_limit' })).toEqual([]);
  });

  it('unknown column, give up after an error, and an empty commit on a question', () => {
    expect(
      detect({
        question: QUESTION,
        turns: [{ sql: 'SELECT Fastest_Lap FROM `Race Results`', result: "1054 (42S22): Unknown column 'Fastest_Lap' in 'field list'" }, { commit: [] }],
      }),
    ).toEqual(['empty_commit_on_question', 'give_up_after_error', 'unknown_column', 'unquoted_identifier']);
  });

  it('commit before any SQL; on a data-change task also a mutation committed without a write', () => {
    expect(detect({ question: QUESTION, turns: [{ commit: ['3'] }] })).toEqual(['commit_before_sql']);
    expect(detect({ question: 'Insert a new row with Round 7 into the table.', turns: [{ commit: [] }] })).toEqual(['commit_before_sql', 'mutation_without_write']);
    expect(
      detect({ question: 'Insert a new row with Round 7 into the table.', turns: [{ sql: 'SELECT * FROM `Race Results`', result: "[('1',)]" }, { commit: [] }] }),
    ).toEqual(['mutation_without_write']);
    expect(
      detect({
        question: 'Insert a new row with Round 7 into the table.',
        turns: [{ sql: "INSERT INTO `Race Results` (`Round`) VALUES ('7')", result: '[]' }, { commit: [] }],
        outcome: 'success',
      }),
    ).toEqual([]);
  });

  it('repeated SQL: three identical statements in consecutive rounds', () => {
    const same = { sql: 'SELECT `Round` FROM `Race Results`', result: "[('1',)]" };
    expect(detect({ question: QUESTION, turns: [same, { ...same, sql: 'select `Round`  from `Race Results`;' }, same], outcome: 'round_limit' })).toEqual(['repeated_sql']);
    expect(detect({ question: QUESTION, turns: [same, same], outcome: 'round_limit' })).toEqual([]);
  });

  it('text-only turns, and a commit right after an empty SELECT', () => {
    expect(detect({ question: QUESTION, turns: [{ text: 'The answer is 3.' }, { sql: "SELECT `Round` FROM `Race Results` WHERE `Fastest Lap` = 'x'", result: '[]' }, { commit: ['3'] }] })).toEqual([
      'empty_result_commit',
      'text_only_turns',
    ]);
  });

  it('literal altered: a write that lost the capitals or number format of the question', () => {
    const question = "Change the source for soybean production statistics to 'USDA' and the count to 7.400.";
    expect(detect({ question, turns: [{ sql: "UPDATE `Statistics` SET `Source` = 'usda'", result: '[]' }, { commit: [] }] })).toEqual(['literal_altered']);
    expect(detect({ question, turns: [{ sql: "UPDATE `Statistics` SET `Count` = '7.4', `Source` = 'USDA'", result: '[]' }, { commit: [] }] })).toEqual(['literal_altered']);
    // A capital the question only lacks because the word sits mid-sentence is not an alteration.
    expect(detect({ question: 'On 14 February 1917, the ship Uranus was sunk.', turns: [{ sql: "INSERT INTO `Ships` VALUES ('Uranus', 'Sunk')", result: '[]' }, { commit: [] }], outcome: 'success' })).toEqual([]);
  });

  it('literal altered: a committed value in another case or dash style than the result, or wrapped in words', () => {
    const turns = (answer: string) => [{ sql: 'SELECT `Circuit` FROM `Race Results`', result: "[('Fuji Speedway',), ('2–1',)]" }, { commit: [answer] }];
    expect(detect({ question: QUESTION, turns: turns('fuji speedway') })).toEqual(['literal_altered']);
    expect(detect({ question: QUESTION, turns: turns('2-1') })).toEqual(['literal_altered']);
    expect(detect({ question: QUESTION, turns: turns('The answer is Fuji Speedway') })).toEqual(['literal_altered']);
    expect(detect({ question: QUESTION, turns: turns('Fuji Speedway'), outcome: 'success' })).toEqual([]);
    // Python's None in a DESCRIBE result is not a cell.
    expect(detect({ question: QUESTION, turns: [{ sql: 'DESCRIBE `Race Results`', result: "[('Round', 'text', 'YES', '', None, '')]" }, { commit: ['none'] }] })).toEqual([]);
  });
});

describe('value comparisons', () => {
  it('alteredFromQuestion and alteredFromResults', () => {
    expect(alteredFromQuestion('lilly king', 'Lilly King from the United States')).toBe(true);
    expect(alteredFromQuestion('Usda', "to 'USDA'")).toBe(true);
    expect(alteredFromQuestion('Lilly King', 'Lilly King from the United States')).toBe(false);
    expect(alteredFromQuestion('1234', 'a crowd of 1,234')).toBe(true);
    expect(alteredFromQuestion('1,234', 'a crowd of 1,234')).toBe(false);
    expect(alteredFromQuestion('1971', 'In 1971, Kauai King, age 4, was inserted.')).toBe(false);
    expect(alteredFromQuestion('7.4', 'set the count to 7.400.')).toBe(true);
    expect(alteredFromQuestion('x', 'X marks')).toBe(false);
    expect(resultCells(`[('a', "it's"), (None, '3')]`)).toEqual(['a', "it's", '3']);
    expect(alteredFromResults('IT\'S', ["it's"])).toBe(true);
    expect(alteredFromResults('3', ['3'])).toBe(false);
  });
});

describe('tallySignatures', () => {
  it('counts failed and passed episodes apart and leaves infrastructure failures out', () => {
    const early = { question: QUESTION, turns: [{ commit: ['3'] }] };
    const tally = tallySignatures(
      [
        testEpisode({ ...early, index: 0 }),
        testEpisode({ ...early, index: 1 }),
        testEpisode({ ...early, index: 2, outcome: 'success' }),
        testEpisode({ ...early, index: 3, outcome: 'model_error' }),
        testEpisode({ ...early, index: 4, outcome: 'env_error' }),
      ],
      1,
    );
    expect(tally).toMatchObject({ episodes: 5, infrastructure: 2, scored: 3, failed: 2 });
    expect(tally.signatures.find((s) => s.id === 'commit_before_sql')).toEqual({ id: 'commit_before_sql', failed: 2, passed: 1 });
    expect(tally.signatures.filter((s) => s.id !== 'commit_before_sql').every((s) => s.failed === 0 && s.passed === 0)).toBe(true);
  });

  it('uses the pass threshold: a partial reward below it is a failure', () => {
    const ep = testEpisode({ question: QUESTION, turns: [{ commit: ['3'] }], outcome: 'success', reward: 0.5 });
    expect(tallySignatures([ep], 1).failed).toBe(1);
    expect(tallySignatures([ep], 0.5).failed).toBe(0);
  });

  it('never reads detail: a record whose detail throws on access is tallied the same', () => {
    const ep = testEpisode({ question: QUESTION, turns: [{ commit: ['3'] }] });
    const plain = tallySignatures([ep], 1);
    const trapped = { ...ep, detail: new Proxy({}, { get: () => { throw new Error('detail was read'); }, ownKeys: () => { throw new Error('detail was read'); } }) };
    expect(tallySignatures([trapped], 1)).toEqual(plain);
  });
});
