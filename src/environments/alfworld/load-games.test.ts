import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { afterAll, describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import { findAlfworldGame, loadAlfworldGames, loadAlfworldGamesFile, walkthroughFor } from './load-games.js';

const dataDir = resolveDataDir();
const tmp = mkdtempSync(path.join(tmpdir(), 'alfworld-games-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const RECORD = {
  id: 'json_2.1.1/valid_unseen/pick_and_place_simple-Pen-None-Desk-1/trial_T1',
  task_type: 'pick_and_place_simple',
  goal: 'put a pen in desk.',
  solvable: true,
  walkthrough_2_1_2: ['go to desk 1', 'move pen 1 to desk 1'],
  pddl_problem: '(define (problem p) (:domain alfred) (:objects) (:init) (:goal (and)))',
};

function write(name: string, content: string | Buffer): string {
  const file = path.join(tmp, name);
  writeFileSync(file, content);
  return file;
}

describe('ALFWorld game files', () => {
  it('loads the 334 shipped games with the documented family mix', () => {
    const games = loadAlfworldGames(dataDir);
    expect(games).toHaveLength(334);
    expect(games.filter((g) => g.id.includes('/valid_unseen/'))).toHaveLength(134);
    expect(games.filter((g) => g.id.includes('/valid_train/'))).toHaveLength(200);
    const counts: Record<string, number> = {};
    for (const g of games) counts[g.taskType] = (counts[g.taskType] ?? 0) + 1;
    expect(counts).toEqual({
      pick_and_place_simple: 70,
      look_at_obj_in_light: 37,
      pick_clean_then_place_in_recep: 68,
      pick_heat_then_place_in_recep: 48,
      pick_cool_then_place_in_recep: 49,
      pick_two_obj_and_place: 62,
    });
    expect(games.every((g) => g.solvable && g.goal.endsWith('.') && g.walkthrough.length >= 3)).toBe(true);
  });

  it('reads .jsonl and gzip whatever the name, and rewrites walkthroughs for 2.1.1', () => {
    const line = `${JSON.stringify(RECORD)}\n`;
    const [a] = loadAlfworldGamesFile(write('a.jsonl', line));
    const [b] = loadAlfworldGamesFile(write('b.jsonl.gz', gzipSync(line)));
    expect(a!.id).toBe(RECORD.id);
    expect(b!.walkthrough).toEqual(RECORD.walkthrough_2_1_2);
    expect(walkthroughFor(a!, '2.1.1')).toEqual(['go to desk 1', 'put pen 1 in/on desk 1']);
    expect(walkthroughFor(a!, '2.1.2')).toEqual(RECORD.walkthrough_2_1_2);
  });

  it('names the file, line and field of a bad record', () => {
    expect(() => loadAlfworldGamesFile(path.join(tmp, 'missing.jsonl'))).toThrow(/Cannot read ALFWorld games file .*missing\.jsonl/);
    const bad = write('bad.jsonl', `${JSON.stringify(RECORD)}\n${JSON.stringify({ ...RECORD, id: 'x', walkthrough_2_1_2: 'go' })}\n`);
    expect(() => loadAlfworldGamesFile(bad)).toThrow(/bad\.jsonl:2: field 'walkthrough_2_1_2' must be a list of commands/);
    const type = write('type.jsonl', JSON.stringify({ ...RECORD, task_type: 'fly' }));
    expect(() => loadAlfworldGamesFile(type)).toThrow(/type\.jsonl:1: field 'task_type' is 'fly'. Allowed: pick_and_place_simple/);
    expect(() => loadAlfworldGamesFile(write('junk.jsonl', '{nope'))).toThrow(/junk\.jsonl:1: not valid JSON/);
  });

  it('finds a game by id with or without /game.tw-pddl, and names an unknown id', () => {
    const games = loadAlfworldGamesFile(write('one.jsonl', JSON.stringify(RECORD)));
    expect(findAlfworldGame(games, `${RECORD.id}/game.tw-pddl`).goal).toBe(RECORD.goal);
    expect(() => findAlfworldGame(games, 'json_2.1.1/train/x/y')).toThrow(/Unknown ALFWorld game id 'json_2.1.1\/train\/x\/y'/);
  });
});
