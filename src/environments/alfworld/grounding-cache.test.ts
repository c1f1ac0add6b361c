import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import { applyGroundAction, groundApplicableActions } from './actions.js';
import { buildCommandTable, createCommandRenderer } from './admissible.js';
import { createGroundingCache } from './grounding-cache.js';
import { loadAlfworldGames, walkthroughFor } from './load-games.js';
import { ALFWORLD_WORDINGS, loadAlfworldLogic } from './load-logic.js';
import { parseProblem } from './pddl/parse-problem.js';
import type { DeriveContext } from './twl2/derive-text.js';
import { buildWorld } from './world-state.js';

const dataDir = resolveDataDir();
const games = loadAlfworldGames(dataDir);
const logicSet = loadAlfworldLogic(dataDir);

describe('createGroundingCache: the same groundings as solving from scratch', () => {
  it.each(ALFWORLD_WORDINGS)('at every step of every walkthrough, reset included (wording %s)', (wording) => {
    const logic = logicSet[wording]!;
    let steps = 0;
    let reused = 0;
    for (const game of games) {
      const setup = buildWorld(parseProblem(game.pddlProblem, game.id), logic.domain);
      const ctx: DeriveContext = { grammar: logic.grammar, world: setup.start(), nameOf: (id) => setup.names.get(id) ?? id };
      const renderer = createCommandRenderer(logic.domain, ctx);
      const cache = createGroundingCache(logic.domain);
      // Twice through, the second time on a fresh world (a reset) after the first one's last state.
      for (let pass = 0; pass < 2; pass++) {
        if (pass === 1) ctx.world = setup.start();
        for (const command of ['', ...walkthroughFor(game, wording)]) {
          const cached = cache.applicable(ctx.world);
          const scratch = groundApplicableActions(logic.domain, ctx.world);
          expect(cached.map((g) => g.key), `${game.id} before '${command}'`).toEqual(scratch.map((g) => g.key));
          steps++;
          const table = buildCommandTable(logic.domain, ctx, renderer, cached);
          if (command === '') continue;
          const ground = table.byCommand.get(command);
          expect(ground, `${game.id}: ${command}`).toBeDefined();
          const before = cached;
          applyGroundAction(ground!, ctx.world);
          if (cache.applicable(ctx.world).some((g, i) => g === before[i])) reused++;
        }
      }
    }
    expect(steps).toBeGreaterThan(2 * games.length);
    // Not vacuous: most steps keep some action's cached groundings.
    expect(reused).toBeGreaterThan(steps / 2);
  });

  it('solves again after a fact its precondition reads changes, and only then', () => {
    const logic = logicSet['2.1.2']!;
    const game = games[0]!;
    const setup = buildWorld(parseProblem(game.pddlProblem, game.id), logic.domain);
    const world = setup.start();
    const cache = createGroundingCache(logic.domain);
    const first = cache.applicable(world);
    expect(cache.applicable(world)).toEqual(first);
    expect(cache.applicable(world).every((g, i) => g === first[i])).toBe(true);
    // Moving the agent changes `atlocation`, which the go-to precondition reads.
    const [at] = world.facts.tuples('atlocation');
    expect(at).toBeDefined();
    const [agent, from] = at!;
    const elsewhere = world.facts.tuples('receptacleatlocation').map((t) => t[1]!).find((l) => l !== from)!;
    world.facts.delete('atlocation', [agent!, from!]);
    world.facts.add('atlocation', [agent!, elsewhere]);
    expect(cache.applicable(world).map((g) => g.key)).toEqual(groundApplicableActions(logic.domain, world).map((g) => g.key));
    expect(cache.applicable(world).map((g) => g.key)).not.toEqual(first.map((g) => g.key));
  });
});
