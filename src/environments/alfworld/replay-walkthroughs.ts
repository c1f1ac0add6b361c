import { isHarnessError } from '../../episode/index.js';
import { createAlfworldGame } from './alfworld-engine.js';
import { walkthroughFor, type AlfworldGameRecord } from './load-games.js';
import type { AlfworldLogicSet, AlfworldWording } from './load-logic.js';

export interface WalkthroughReplayOptions {
  games: readonly AlfworldGameRecord[];
  logic: AlfworldLogicSet;
  wording: AlfworldWording;
  /** Called after each game. */
  onProgress?: (progress: { done: number; total: number; id: string; ok: boolean }) => void;
}

/**
 * Why a walkthrough did not end in a win at exactly its last step:
 * - `not_admissible`: a command was not admissible at its step (the engine answered "Nothing happens.");
 * - `won_early`: the goal held before the last command;
 * - `not_won`: every command ran but the goal does not hold at the end;
 * - `bad_game`: the game could not be loaded (its PDDL problem is malformed).
 */
export type WalkthroughMiss =
  | { kind: 'not_admissible'; id: string; step: number; command: string; admissible: readonly string[] }
  | { kind: 'won_early'; id: string; step: number; command: string }
  | { kind: 'not_won'; id: string; steps: number }
  | { kind: 'bad_game'; id: string; message: string };

export interface WalkthroughReplayResult {
  wording: AlfworldWording;
  total: number;
  /** Games whose walkthrough won at its last step and not before. */
  wonAtLastStep: number;
  misses: WalkthroughMiss[];
}

/**
 * The engine's conformance check: replays every game's expert walkthrough (in the requested wording)
 * from a fresh reset and counts the games that are won exactly at the last command. Failures are
 * returned as misses, one per game, never thrown.
 */
export function replayWalkthroughs(options: WalkthroughReplayOptions): WalkthroughReplayResult {
  const misses: WalkthroughMiss[] = [];
  let wonAtLastStep = 0;
  options.games.forEach((record, i) => {
    const miss = replayOne(record, options);
    if (miss) misses.push(miss);
    else wonAtLastStep++;
    options.onProgress?.({ done: i + 1, total: options.games.length, id: record.id, ok: miss === undefined });
  });
  return { wording: options.wording, total: options.games.length, wonAtLastStep, misses };
}

function replayOne(record: AlfworldGameRecord, options: WalkthroughReplayOptions): WalkthroughMiss | undefined {
  let game;
  try {
    game = createAlfworldGame(record, { wording: options.wording, logic: options.logic });
  } catch (error) {
    if (isHarnessError(error) && error.code === 'config_error') return { kind: 'bad_game', id: record.id, message: error.message };
    throw error;
  }
  game.reset();
  const commands = walkthroughFor(record, options.wording);
  for (let step = 0; step < commands.length; step++) {
    const command = commands[step]!;
    const before = game.admissible();
    const result = game.step(command);
    if (!result.executed) return { kind: 'not_admissible', id: record.id, step, command, admissible: before };
    if (result.won && step < commands.length - 1) return { kind: 'won_early', id: record.id, step, command };
  }
  return game.isWon() ? undefined : { kind: 'not_won', id: record.id, steps: commands.length };
}

/** One line per miss, for the CLI and test output. */
export function describeWalkthroughMiss(miss: WalkthroughMiss): string {
  switch (miss.kind) {
    case 'not_admissible':
      return `${miss.id}: step ${miss.step + 1} '${miss.command}' is not admissible (Nothing happens.)`;
    case 'won_early':
      return `${miss.id}: won early, after step ${miss.step + 1} '${miss.command}'`;
    case 'not_won':
      return `${miss.id}: not won after all ${miss.steps} steps`;
    case 'bad_game':
      return `${miss.id}: cannot load the game: ${miss.message}`;
  }
}
