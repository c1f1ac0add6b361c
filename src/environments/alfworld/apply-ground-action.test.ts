import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import { applyGroundAction } from './actions.js';
import { buildCommandTable, createCommandRenderer } from './admissible.js';
import { isGoalReached } from './goal-check.js';
import { findAlfworldGame, loadAlfworldGames } from './load-games.js';
import { loadAlfworldLogic } from './load-logic.js';
import { parseProblem } from './pddl/parse-problem.js';
import type { DeriveContext } from './twl2/derive-text.js';
import { buildWorld } from './world-state.js';

const dataDir = resolveDataDir();
const games = loadAlfworldGames(dataDir);
const logic = loadAlfworldLogic(dataDir)['2.1.2']!;
const VASE = 'json_2.1.1/valid_unseen/pick_and_place_simple-Vase-None-Safe-219/trial_T20190908_205204_244321';
/** Moves that change the world and ones that only read it (look, examine, inventory), and back again. */
const COMMANDS = [
  'look', 'inventory', 'go to safe 1', 'examine safe 1', 'open safe 1', 'look', 'take watch 2 from safe 1', 'inventory',
  'examine watch 2', 'move watch 2 to safe 1', 'close safe 1', 'look', 'go to cabinet 1', 'open cabinet 1', 'examine cabinet 1',
];

const factKeys = (ctx: DeriveContext): string[] => ctx.world.facts.all().map((f) => `${f.predicate} ${f.args.join(' ')}`).sort();

describe('applyGroundAction: whether any fact changed', () => {
  it('says so exactly, and an action that changed none leaves the commands and the goal as they were', () => {
    const game = findAlfworldGame(games, VASE);
    const problem = parseProblem(game.pddlProblem, game.id);
    const setup = buildWorld(problem, logic.domain);
    const ctx: DeriveContext = { grammar: logic.grammar, world: setup.start(), nameOf: (id) => setup.names.get(id) ?? id };
    const renderer = createCommandRenderer(logic.domain, ctx);
    let table = buildCommandTable(logic.domain, ctx, renderer);
    const seen: boolean[] = [];
    for (const command of COMMANDS) {
      const ground = table.byCommand.get(command);
      expect(ground, `${command} is admissible`).toBeDefined();
      const before = factKeys(ctx);
      const won = isGoalReached(problem.goal, ctx.world);
      const changed = applyGroundAction(ground!, ctx.world);
      seen.push(changed);
      expect(changed, command).toBe(JSON.stringify(factKeys(ctx)) !== JSON.stringify(before));
      const rebuilt = buildCommandTable(logic.domain, ctx, renderer);
      if (!changed) {
        expect(rebuilt.admissible, command).toEqual(table.admissible);
        expect([...rebuilt.byCommand.entries()], command).toEqual([...table.byCommand.entries()]);
        expect(isGoalReached(problem.goal, ctx.world)).toBe(won);
      }
      table = rebuilt;
    }
    // Both kinds occur: the check is not vacuous.
    expect(seen.filter((c) => c).length).toBeGreaterThanOrEqual(6);
    expect(seen.filter((c) => !c).length).toBeGreaterThanOrEqual(3);
  });
});
