import { ConfigError } from '../../episode/index.js';
import { applyGroundAction } from './actions.js';
import { buildCommandTable, createCommandRenderer, type CommandRenderer, type CommandTable } from './admissible.js';
import { isGoalReached } from './goal-check.js';
import { createGroundingCache } from './grounding-cache.js';
import type { AlfworldGameRecord } from './load-games.js';
import type { AlfworldLogic, AlfworldLogicSet, AlfworldWording } from './load-logic.js';
import { parseProblem, type PddlProblem } from './pddl/parse-problem.js';
import { NOTHING_HAPPENS, renderFeedback, renderIntro } from './render-observation.js';
import type { AlfworldTaskType } from './task-families.js';
import type { DeriveContext } from './twl2/derive-text.js';
import { withRule } from './twl2/parse-twl2.js';
import { buildWorld, type WorldSetup } from './world-state.js';

export interface AlfworldGameOptions {
  /** Which text the game speaks (see `AlfworldWording`). */
  wording: AlfworldWording;
  /** Both wordings' domain and grammar, from `loadAlfworldLogic`; load once and share across games. */
  logic: AlfworldLogicSet;
}

export interface AlfworldResetResult {
  /** The intro exactly as TextWorld prints it, welcome banner included (see `agentBenchInitialObservation`). */
  observation: string;
  admissible: string[];
}

export interface AlfworldStepResult {
  /** The action's feedback, or "Nothing happens." when the command was not admissible. */
  observation: string;
  admissible: string[];
  /** The goal holds now (TextWorld's `won`; AgentBench's score). */
  won: boolean;
  /** TextWorld's `done`: won (ALFWorld games are never lost). */
  done: boolean;
  /** False when the command was not admissible and nothing changed. */
  executed: boolean;
}

/**
 * One ALFWorld game played from its PDDL problem, without TextWorld or a planner. Commands are matched
 * exactly after trimming (TextWorld's rule; lower-casing or fuzzy matching is the protocol's job). Steps
 * after a win keep working, as in TextWorld; the caller decides when the episode ends.
 */
export interface AlfworldGame {
  readonly id: string;
  readonly taskType: AlfworldTaskType;
  /** The task text after "Your task is to: ". */
  readonly goal: string;
  readonly wording: AlfworldWording;
  /** Display names by lower-cased entity id ("cabinet 3", "loc 12"). */
  readonly entityNames: ReadonlyMap<string, string>;
  /** Back to the initial state; returns the intro and the first admissible commands. */
  reset(): AlfworldResetResult;
  step(action: string): AlfworldStepResult;
  /** The admissible commands of the current state. */
  admissible(): string[];
  /** Whether the goal holds in the current state. */
  isWon(): boolean;
}

/**
 * Creates a game in its initial state (`reset()` returns the intro). The problem text is parsed here,
 * so a malformed `pddl_problem` is a ConfigError naming the record.
 */
export function createAlfworldGame(game: AlfworldGameRecord, options: AlfworldGameOptions): AlfworldGame {
  const logic: AlfworldLogic | undefined = options.logic[options.wording];
  if (!logic) throw new ConfigError({ message: `No ALFWorld logic loaded for wording '${options.wording}'.`, field: 'wording', allowed: Object.keys(options.logic) });
  const problem: PddlProblem = parseProblem(game.pddlProblem, `${game.source} (pddl_problem of ${game.id})`);
  const setup: WorldSetup = buildWorld(problem, logic.domain);
  const grammar = withTaskLine(logic, game);

  // One derivation context for the game's life; reset swaps in a fresh world.
  const ctx: DeriveContext = { grammar, world: setup.start(), nameOf: (id) => setup.names.get(id) ?? id };
  const renderer: CommandRenderer = createCommandRenderer(logic.domain, ctx);
  const groundings = createGroundingCache(logic.domain);
  const commandTable = (): CommandTable => buildCommandTable(logic.domain, ctx, renderer, groundings.applicable(ctx.world));
  let table: CommandTable = commandTable();
  let won = isGoalReached(problem.goal, ctx.world);

  const start = (): void => {
    ctx.world = setup.start();
    table = commandTable();
    won = isGoalReached(problem.goal, ctx.world);
  };

  return {
    id: game.id,
    taskType: game.taskType,
    goal: game.goal,
    wording: options.wording,
    entityNames: setup.names,
    reset() {
      start();
      return { observation: renderIntro(ctx), admissible: [...table.admissible] };
    },
    step(action) {
      const ground = table.byCommand.get(action.trim());
      if (!ground) return { observation: NOTHING_HAPPENS, admissible: [...table.admissible], won, done: won, executed: false };
      const changed = applyGroundAction(ground, ctx.world);
      const observation = renderFeedback(ground, ctx);
      // The commands and the goal depend on the facts alone: an action that changed none (look, examine,
      // inventory, …) leaves both as they were.
      if (changed) {
        table = commandTable();
        won = isGoalReached(problem.goal, ctx.world);
      }
      return { observation, admissible: [...table.admissible], won, done: won, executed: true };
    },
    admissible: () => [...table.admissible],
    isWon: () => won,
  };
}

/** The grammar with its task line ("Your task is to: UNKNOWN GOAL.") filled with the game's goal. */
function withTaskLine(logic: AlfworldLogic, game: AlfworldGameRecord) {
  const original = logic.grammar.rules.get('task')?.[0]?.rhs ?? '';
  const goal = game.goal.endsWith('.') ? game.goal : `${game.goal}.`;
  const rhs = original.includes('UNKNOWN GOAL.') ? original.replace('UNKNOWN GOAL.', goal) : `Your task is to: ${goal}`;
  return withRule(logic.grammar, 'task', rhs, `${game.source} (goal)`);
}
