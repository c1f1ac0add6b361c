import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import { createAlfworldGame } from './alfworld-engine.js';
import { loadAlfworldGames, walkthroughFor } from './load-games.js';
import { loadAlfworldLogic } from './load-logic.js';
import { ALFWORLD_TASK_TYPES } from './task-families.js';

const dataDir = resolveDataDir();
const games = loadAlfworldGames(dataDir);
const logic = loadAlfworldLogic(dataDir);

function play(id: string, commands: readonly string[]) {
  const game = createAlfworldGame(games.find((g) => g.id === id)!, { wording: '2.1.2', logic });
  game.reset();
  return commands.map((c) => game.step(c));
}

describe('goal checking', () => {
  it.each(ALFWORLD_TASK_TYPES)('%s: false at the start and after each prefix of the plan, true at its end', (taskType) => {
    const record = games.find((g) => g.taskType === taskType)!;
    const game = createAlfworldGame(record, { wording: '2.1.2', logic });
    game.reset();
    expect(game.isWon()).toBe(false);
    const results = walkthroughFor(record, '2.1.2').map((c) => game.step(c));
    expect(results.map((r) => r.won)).toEqual(results.map((_, i) => i === results.length - 1));
  });

  it('pick_two needs two distinct objects in the same receptacle', () => {
    const record = games.find((g) => g.taskType === 'pick_two_obj_and_place' && g.walkthrough.filter((c) => c.startsWith('move')).length === 2)!;
    const plan = walkthroughFor(record, '2.1.2');
    const firstPut = plan.findIndex((c) => c.startsWith('move'));
    const target = plan[firstPut]!.replace(/^move (.+?) to /, '');
    // Put the first object, take it back out and put it in again: still one object, never a win.
    const replay = [...plan.slice(0, firstPut + 1), `take ${plan[firstPut]!.split(' to ')[0]!.slice(5)} from ${target}`, plan[firstPut]!];
    const results = play(record.id, replay);
    expect(results.every((r) => r.executed && !r.won)).toBe(true);
  });

  it('the clean/heat/cool families need the state change, not just the placement', () => {
    for (const taskType of ['pick_clean_then_place_in_recep', 'pick_heat_then_place_in_recep', 'pick_cool_then_place_in_recep'] as const) {
      const record = games.find((g) => g.taskType === taskType)!;
      const plan = walkthroughFor(record, '2.1.2').filter((c) => !/^(clean|heat|cool) /.test(c));
      const results = play(record.id, plan);
      expect(results.every((r) => r.executed)).toBe(true);
      expect(results.some((r) => r.won)).toBe(false);
    }
  });
});
